#!/usr/bin/env bash
# Issue 39's floods against `bin/quotaflow local --auth`, run as a user runs it (about 2 minutes):
# pod reviews at a fixed rate alone, then beside 200 connections of random 8 KB tokens at the
# people's doors and 16 of forged pod reviews (LocalAuthFlood). Prints how many pod reviews were
# answered within the webhook's 2 s, their latency, the flood's answers by status, and local's heap
# after a full GC before and after the flood.
#
# Usage: bench/run-local-auth-flood.sh [--http-port 18090] [--rate 50] [--seconds 30]
#                                      [--connections 200]
# Environment: MVN_ARGS (default none; "-o" for offline), SKIP_BUILD=1 to reuse the compiled classes.
set -euo pipefail

# shellcheck source=bench/bench-build.sh
source "$(dirname "$0")/bench-build.sh"
bench_prepare local-auth-flood

port=18090
args=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --http-port) port=$2; shift 2 ;;
    --rate|--seconds|--connections|--warmup) args+=("$1" "$2"); shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

bin/quotaflow --version > /dev/null
data=$(mktemp -d)
bin/quotaflow local --auth --data-dir "$data" --http-port "$port" > "$out/stdout.txt" 2> "$out/log.txt" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$data"' EXIT
deadline=$(( $(date +%s) + 300 ))
until grep -q "quotaflow local is ready" "$out/stdout.txt"; do
  if ! kill -0 "$pid" 2>/dev/null || [[ $(date +%s) -gt $deadline ]]; then
    echo "local did not become ready; see $out/log.txt" >&2
    exit 1
  fi
  sleep 0.2
done
java_pid=$(pgrep -f -n "java.*quotaflow.*local --auth")
heap() { jcmd "$java_pid" GC.run > /dev/null; jcmd "$java_pid" GC.heap_info | grep -m1 -E "total|used"; }
echo "load average (before): $(cut -d' ' -f1-3 /proc/loadavg)"
echo "local's heap after a full GC, before: $(heap)"
LC_ALL=C java -Xmx1g -cp "bench/target/classes:$(cat "$out/classpath.txt")" \
  io.quotaflow.bench.admission.LocalAuthFlood --url "http://127.0.0.1:$port" "${args[@]}" \
  | tee "$out/report.txt"
echo "local's heap after a full GC, after: $(heap)"
echo "load average (after): $(cut -d' ' -f1-3 /proc/loadavg)"
