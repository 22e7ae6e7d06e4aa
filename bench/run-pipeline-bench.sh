#!/usr/bin/env bash
# The engine's pipeline benchmark (about 11 minutes): an in-process Kafka broker, the catalogue's
# topics filled with a generated workload (default 10 clusters x 1,000 groups, 100,000 pods, 400,000
# pod updates; written through ClusterPartitioner, as the connectors write them by default), then in
# one run: a plain consumer's throughput over the pod topic; the "Kafka Streams floors" (a minimal
# Streams application with the engine's settings: read and count; + changelogged store; +
# repartition by cluster; both; each with exactly_once_v2, then the engine's own input path with
# at_least_once; one unreported pass first; --floor 0 skips them); unreported warm-up runs of the
# engine, right before its measured runs; the engine's throughput over
# the same records with exactly_once_v2 and with at_least_once, with its output per pod event
# (runtime and pod-class records) and CPU per pod event by thread; the latency from a pod event's
# send time to its runtime record at a fixed rate; and the scale-out phase (the same amounts over 40
# clusters read by 1, 2 and 4 instances of one application; --scale-out 0 skips it); last, the
# I/O-matched floor (what each measured engine run wrote per store changelog and output topic is
# read back from the broker; a Streams application with the engine's input path then writes as many
# records of the same sizes to as many changelogged stores and output topics; exactly_once_v2,
# one unreported pass first, and at_least_once; with the floors, and inputs partitioned by
# cluster). Prints a table
# and the targets: >= 50,000 pod events/s with exactly_once_v2, >= 75 % of the I/O-matched floor
# with each guarantee (the share of the input path's floor, formerly >= 60 %, for reference),
# p99 <= 250 ms at 2,000 events/s. The output starts with the CPU's model name, family and model.
#
# Usage: bench/run-pipeline-bench.sh [--clusters 10] [--groups 1000] [--pods 100000]
#          [--updates 400000] [--partitions 6] [--rate 2000] [--latency-seconds 30]
#          [--warmup-seconds 5] [--max-seconds 180] [--floor 1] [--scale-out 1]
#          [--scale-clusters 40]
#          [--engine-warmups N] (default: warm up until a run's CPU per event is steady)
#          and, to try an engine setting: [--commit-interval-ms N] [--threads N]
#          [--max-task-idle-ms N] [--recompute-ms N] [--backlog-ms N] [--batch-size N]
#          [--fetch-min-bytes N] [--history 0] (without the history store) [--partitioned-inputs 0] (inputs placed by key, the repartition
#          topology)
#          [--heartbeats 1] (the connectors' markers in the inputs: each cluster's first snapshot
#          between start and end markers, a heartbeat per cluster every 10 s; the engine requires
#          them, inputs.markers.required=true, with inputs.max.staleness 1h so later runs stay fresh)
# Environment: MVN_ARGS (default none; "-o" for offline), SKIP_BUILD=1 to reuse the compiled classes,
#   JFR=1 to record a flight recording (bench/target/pipeline-bench/pipeline.jfr),
#   BENCH_JAVA_OPTS for more JVM options (default -Xmx3g).
set -euo pipefail

# shellcheck source=bench/bench-build.sh
source "$(dirname "$0")/bench-build.sh"
bench_prepare pipeline-bench

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

jfr=()
if [[ "${JFR:-0}" == 1 ]]; then
  jfr=("-XX:StartFlightRecording=filename=$out/pipeline.jfr,settings=profile,dumponexit=true")
fi

# shellcheck disable=SC2086
LC_ALL=C timeout 1500 java ${BENCH_JAVA_OPTS:--Xmx3g} "${jfr[@]}" \
  -cp "bench/target/classes:$(cat "$out/classpath.txt")" \
  io.quotaflow.bench.pipeline.PipelineBench "$@" | tee "$out/report.txt"
echo "load average (after): $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
