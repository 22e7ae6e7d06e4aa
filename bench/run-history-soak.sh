#!/usr/bin/env bash
# Issue 40.2's time-compressed history soak (HistorySoak): the engine's topology in Kafka Streams'
# test driver, its clock driven by the bench, plays 16 days of churn over 10,000 groups, samples
# heap after GC, state directory bytes and history windows every 12 simulated hours, and checks the
# history's totals against the exact integrals of the runtime records. By default with the heap the
# manifests give the engine (-Xmx1229m: 60 % of 2 GiB) and the history in RocksDB as they run it.
#
# Usage: bench/run-history-soak.sh [--days 16] [--clusters 10] [--groups 1000] [--pods 20000]
#                                  [--events 1000] [--sample-hours 12] [--history-stores rocksdb]
#                                  [--checked 20]
# Environment: MVN_ARGS (default none; "-o" for offline), SKIP_BUILD=1 to reuse the compiled classes,
#   BENCH_JAVA_OPTS for the JVM (default -Xmx1229m).
set -euo pipefail

# shellcheck source=bench/bench-build.sh
source "$(dirname "$0")/bench-build.sh"
bench_prepare history-soak

echo "load average (before): $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/machine.txt"
# shellcheck disable=SC2086
LC_ALL=C java ${BENCH_JAVA_OPTS:--Xmx1229m} \
  -cp "bench/target/classes:$(cat "$out/classpath.txt")" \
  io.quotaflow.bench.pipeline.HistorySoak "$@" | tee "$out/report.txt"
echo "load average (after): $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
