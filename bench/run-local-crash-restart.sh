#!/usr/bin/env bash
# `bin/quotaflow local` killed with -9 once ready and started again on the same data directory, as
# a user's machine does after a crash, several times. Prints for each start the wall time to
# "quotaflow local is ready", the embedded broker's own start time, and how long the connectors
# took to read what their topics held, from local's log. A run that is not ready within
# --max-seconds is reported and its log kept.
#
# Usage: bench/run-local-crash-restart.sh [--restarts 3] [--max-seconds 180] [--hog N]
#   --hog N  runs N busy loops beside it (a loaded machine)
set -euo pipefail
cd "$(dirname "$0")/.."

restarts=3
max_seconds=180
hogs=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --restarts) restarts=$2; shift 2 ;;
    --max-seconds) max_seconds=$2; shift 2 ;;
    --hog) hogs=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

out=bench/target/local-crash-restart
rm -rf "$out"
mkdir -p "$out"
data=$out/data
bin/quotaflow --version >/dev/null

hog_pids=()
stop_all() {
  for hog in "${hog_pids[@]}"; do kill "$hog" 2>/dev/null || true; done
  pkill -9 -f "quotaflow-local.jar local --data-dir $data" 2>/dev/null || true
}
trap stop_all EXIT
for ((h = 0; h < hogs; h++)); do
  (while :; do :; done) &
  hog_pids+=($!)
done

printf '%-8s %-10s %-14s %-16s\n' start ready_s broker_ms connectors_ms
for ((run = 0; run <= restarts; run++)); do
  log=$out/start-$run.log
  began=$(date +%s%N)
  bin/quotaflow local --data-dir "$data" --http-port 0 >"$log" 2>&1 &
  launcher=$!
  ready=no
  while (($(date +%s%N) - began < max_seconds * 1000000000)); do
    if grep -q "quotaflow local is ready" "$log"; then ready=yes; break; fi
    if ! kill -0 "$launcher" 2>/dev/null; then break; fi
    sleep 0.2
  done
  took=$(awk -v ns=$(($(date +%s%N) - began)) 'BEGIN { printf "%.1f", ns / 1e9 }')
  broker=$(sed -n 's/.*Embedded Kafka broker started at .* in \([0-9]*\) ms.*/\1/p' "$log")
  connectors=$(sed -n 's/.*Connectors: in sync after \([0-9]*\) ms.*/\1/p' "$log")
  label=$([[ $run == 0 ]] && echo first || echo "restart$run")
  if [[ $ready == yes ]]; then
    printf '%-8s %-10s %-14s %-16s\n' "$label" "$took" "${broker:--}" "${connectors:--}"
  else
    printf '%-8s %-10s %-14s %-16s  NOT READY, log: %s\n' "$label" "-" "${broker:--}" \
      "${connectors:--}" "$log"
  fi
  pkill -9 -f "quotaflow-local.jar local --data-dir $data" 2>/dev/null || true
  wait "$launcher" 2>/dev/null || true
done
