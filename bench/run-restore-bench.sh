#!/usr/bin/env bash
# The restart of an engine holding one large cluster (about 3-5 minutes): the 100,000-group
# synthetic cluster of the quota core benchmarks (382,967 pods, 30,084 nodes) written to an
# in-process broker, read by a first engine instance, which is then closed; a second instance of the
# same application starts on the same state directory. Prints how long until the cluster's tree is
# queryable again, how much of that restoring the stores took, how long the task took to rebuild the
# cluster's state from them, and how many runtime records the restarted instance wrote; for
# in-memory stores (restored from their changelogs) and RocksDB stores (from their checkpoints).
#
# Usage: bench/run-restore-bench.sh [--groups 100000] [--stores in_memory|rocksdb|both]
#                                   [--max-seconds 600]
# Environment: MVN_ARGS (default none; "-o" for offline), SKIP_BUILD=1 to reuse the compiled classes,
#   BENCH_JAVA_OPTS for more JVM options (default -Xmx6g).
set -euo pipefail

# shellcheck source=bench/bench-build.sh
source "$(dirname "$0")/bench-build.sh"
bench_prepare restore-bench

echo "load average (before): $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/machine.txt"
# shellcheck disable=SC2086
LC_ALL=C timeout 3600 java ${BENCH_JAVA_OPTS:--Xmx6g} \
  -cp "bench/target/classes:$(cat "$out/classpath.txt")" \
  io.quotaflow.bench.pipeline.RestoreBench "$@" | tee "$out/report.txt"
echo "load average (after): $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
