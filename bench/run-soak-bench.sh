#!/usr/bin/env bash
# The engine's soak benchmark (about --minutes plus one or two): an in-process Kafka broker, 10
# generated clusters (1,000 quota groups each, 100,000 pods) written as the connectors' first
# snapshot, then the real engine (exactly_once_v2, inputs.markers.required=true) under steady pod
# churn: --rate pod events/s, the connectors' heartbeats every 10 s per cluster and input kind, and
# one quota group flapping (its min and max up with 50 new pods, then down with those pods deleted,
# every --flap-seconds). Every minute after --warmup-minutes: heap used after a full GC, resident
# set, the engine's state directory, its changelog topics and the input/output topics on the
# broker's disk, open file descriptors, live threads, the offered and read rates, the engine's input
# lag, the p99 latency from a pod event to its runtime record, the oldest heartbeat and the clusters
# whose reclaim is suspended. Writes bench/target/soak/samples.csv (as it goes) and soak.png (one
# panel per series), prints a table of the first and last samples and whether each series is flat
# (the last quarter's mean within 10 % of the second quarter's, or the series' slack). A run of 60
# minutes or more also copies the chart to docs/soak.png. The output starts with the CPU's model
# name, family and model.
#
# Usage: bench/run-soak-bench.sh [--minutes 60] [--rate 2000] [--clusters 10] [--groups 1000]
#          [--pods 100000] [--partitions 6] [--warmup-minutes 2] [--flap-seconds 60]
#          [--segment-mib 16] (the broker's log.segment.bytes) [--rocksdb 0] (1: RocksDB stores)
# Environment: MVN_ARGS (default none; "-o" for offline), SKIP_BUILD=1 to reuse the compiled classes,
#   BENCH_JAVA_OPTS for more JVM options (default -Xms2g -Xmx2g: a fixed heap, so the
#   resident set shows what grows beside it).
set -euo pipefail

# shellcheck source=bench/bench-build.sh
source "$(dirname "$0")/bench-build.sh"
bench_prepare soak

minutes=60
args=("$@")
for ((i = 0; i + 1 < ${#args[@]}; i++)); do
  if [[ "${args[$i]}" == --minutes ]]; then minutes=${args[$((i + 1))]}; fi
done

# Machine and load at the time, for the record.
{
  echo "date: $(date -u +%FT%TZ)"
  echo "nproc: $(nproc)"
  cpuinfo() { grep -m1 "^$1[[:space:]]*:" /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'; }
  echo "cpu: $(cpuinfo 'model name') (cpu family $(cpuinfo 'cpu family'), model $(cpuinfo model))"
  echo "memory: $(grep MemTotal /proc/meminfo | awk '{printf "%.1f GiB", $2/1048576}')"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "load average (before): $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/machine.txt"

# shellcheck disable=SC2086
LC_ALL=C timeout $(((minutes + 15) * 60)) java ${BENCH_JAVA_OPTS:--Xms2g -Xmx2g} -Djava.awt.headless=true \
  -Dsoak.out="$out" -cp "bench/target/classes:$(cat "$out/classpath.txt")" \
  io.quotaflow.bench.pipeline.SoakBench "$@" | tee "$out/report.txt"
echo "load average (after): $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
if ((minutes >= 60)); then
  cp "$out/soak.png" docs/soak.png
  echo "chart copied to docs/soak.png"
fi
