#!/usr/bin/env bash
# Runs the README's test command on fresh clones of this checkout's HEAD, one after another, and
# prints each run's result and wall time (docs/reliability.md, "The build under load").
#
#   bench/run-fresh-clone-builds.sh [RUNS] [--hog]
#
# --hog keeps one core busy beside every run (a shell busy loop), as a CI machine shared with
# another job would. Each clone is removed after its run unless it failed (its reports stay).
set -euo pipefail

runs=1
hog=false
for arg in "$@"; do
  case "$arg" in
    --hog) hog=true ;;
    ''|*[!0-9]*) echo "usage: $0 [RUNS] [--hog]" >&2; exit 2 ;;
    *) runs=$arg ;;
  esac
done

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
hog_pid=
stop_hog() { if [[ -n "$hog_pid" ]]; then kill "$hog_pid" 2>/dev/null || true; hog_pid=; fi; }
trap stop_hog EXIT

for ((i = 1; i <= runs; i++)); do
  dir=$(mktemp -d /tmp/quotaflow-fresh-XXXXXX)
  git clone -q "$repo" "$dir/quotaflow"
  # Each run builds what HEAD is when it starts: say which.
  commit=$(git -C "$dir/quotaflow" rev-parse --short HEAD)
  if $hog; then (while :; do :; done) & hog_pid=$!; fi
  start=$(date +%s)
  if (cd "$dir/quotaflow" && mvn -B verify >"$dir/build.log" 2>&1); then result=passed; else result=FAILED; fi
  seconds=$(( $(date +%s) - start ))
  stop_hog
  printf 'run %d of %d at %s: %s in %d:%02d min (hog: %s, load %s)\n' "$i" "$runs" "$commit" \
    "$result" $((seconds / 60)) $((seconds % 60)) "$hog" "$(cut -d' ' -f1-3 /proc/loadavg)"
  # Each module's time, to see where the build's minutes go.
  grep -E '^\[INFO\] quotaflow.* (SUCCESS|FAILURE) \[' "$dir/build.log" | sed 's/^\[INFO\]/ /' || true
  if [[ $result == passed ]]; then
    rm -rf "$dir"
  else
    grep -E '<<< (FAILURE|ERROR)' "$dir/build.log" | head -5 || true
    echo "  kept: $dir"
  fi
done
