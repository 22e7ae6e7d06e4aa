#!/usr/bin/env bash
# quotaflow local with an organisation of real size (issue 32): 20 departments of 100 teams (2,020
# ElasticQuotas), 20,667 pods and 200 nodes, one manifest per kind, written by the generator of the
# deploy tests (OrganisationManifests). Runs `bin/quotaflow local --examples DIR` as a user would,
# prints the time to ready that local prints and the wall time from launch, the progress lines
# local logged meanwhile, and how many groups the query API serves; then stops it.
# LocalOrganisationIT checks, at a tenth of this size, that the live tree equals simulate's.
#
# Usage: bench/run-local-bench.sh [--http-port 18080] [--max-seconds 300]
# Environment: MVN_ARGS (default none; "-o" for offline), SKIP_BUILD=1 to reuse the compiled classes.
set -euo pipefail
cd "$(dirname "$0")/.."

port=18080
max_seconds=300
while [[ $# -gt 0 ]]; do
  case $1 in
    --http-port) port=$2; shift 2 ;;
    --max-seconds) max_seconds=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

out=bench/target/local-bench
mkdir -p "$out"
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  # shellcheck disable=SC2086
  mvn -B -q -pl deploy -am test-compile dependency:build-classpath \
    -Dmdep.outputFile="$PWD/$out/classpath.txt" -Dspotless.check.skip=true ${MVN_ARGS-}
fi
manifests=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$manifests"' EXIT
java -cp "deploy/target/test-classes:deploy/target/classes:$(cat "$out/classpath.txt")" \
  io.quotaflow.local.OrganisationManifests "$manifests"
# Build the jar first, so that the time measured is local's, not Maven's.
bin/quotaflow --version > /dev/null

echo "load average (before): $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/machine.txt"
start=$(date +%s.%N)
bin/quotaflow local --examples "$manifests" --http-port "$port" > "$out/stdout.txt" 2> "$out/log.txt" &
pid=$!
deadline=$(( $(date +%s) + max_seconds ))
until grep -q "quotaflow local is ready" "$out/stdout.txt"; do
  if ! kill -0 "$pid" 2>/dev/null || [[ $(date +%s) -gt $deadline ]]; then
    echo "local did not become ready within ${max_seconds} s; see $out/log.txt" >&2
    exit 1
  fi
  sleep 0.2
done
wall=$(echo "$(date +%s.%N) - $start" | bc)
grep -E "LocalRun - (Demo cluster|Connectors|Engine)" "$out/log.txt" | cut -c1-160 || true
grep "quotaflow local is ready" "$out/stdout.txt"
printf 'wall time from launch to ready: %.1f s\n' "$wall"
groups=$(curl -s "http://127.0.0.1:$port/api/v1/clusters/demo/quotas" | grep -o '"name":' | wc -l)
echo "groups the query API serves now: $groups (2,020 ElasticQuotas and 3 of quotaflow's own)"
echo "load average (after): $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
