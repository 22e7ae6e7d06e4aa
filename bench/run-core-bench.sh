#!/usr/bin/env bash
# Builds bench/target/benchmarks.jar and runs the quota core benchmarks with settings sized for a
# 2-core machine (8-10 minutes): full recomputation from ClusterInputs (quotaflow and the YARN peer,
# average time and sample mode) and the whole-tree recomputation of the runtimes on live state
# (RuntimeRecomputeBenchmark) at 100 / 10,000 / 100,000 groups, and one pod event or one node event followed
# by an incremental recomputation at 10,000 and 100,000 groups. Prints JMH's table, then the comparison with the peer and the targets.
#
# Usage: bench/run-core-bench.sh [extra JMH options, e.g. -p groups=10000 or -prof gc]
# Environment: MVN_ARGS (default none; "-o" for offline), SKIP_BUILD=1 to reuse the jar,
#              JMH_SETTINGS to replace the default "-f 1 -wi 3 -w 1s -i 5 -r 2s",
#              CPU_PROBE_GROUPS (default "100 10000"; empty to skip) for the thread-CPU-time probe
#              that follows JMH: on a busy machine it shows what the wall clock cannot.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=bench/core-bench-lib.sh
. bench/core-bench-lib.sh
out=bench/target/core-bench
mkdir -p "$out"

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  # shellcheck disable=SC2086
  mvn -B -q -pl bench -am package -Pbench -DskipTests -Dspotless.check.skip=true ${MVN_ARGS-}
fi

# shellcheck disable=SC2086
core_jmh bench/target/benchmarks.jar "$out/results.csv" \
  'io.quotaflow.bench.core.(FullRecomputeBenchmark|RuntimeRecomputeBenchmark|YarnPeerBenchmark|IncrementalUpdateBenchmark)' \
  ${JMH_SETTINGS:--f 1 -wi 3 -w 1s -i 5 -r 2s} "$@" | tee "$out/jmh.txt"

# Comparison and targets, from JMH's CSV (scores in microseconds per operation).
awk -F, "$JMH_CSV_AWK"'
  jmh_row() {
    groups = jmh_groups
    value[jmh_name "|" jmh_mode "|" groups] = jmh_score
    if (!(groups in seen)) { seen[groups] = 1; sizes[++n] = groups }
  }
  function ms(us) { return sprintf("%.3f ms", us / 1000) }
  function verdict(ok) { return ok ? "MET" : "MISSED" }
  function ratio(q, y) { return q < y ? sprintf("%.1fx faster", y / q) : sprintf("%.1fx SLOWER", q / y) }
  # One line a size: a quotaflow benchmark against the YARN peer, averages and medians.
  function compare(title, bench,    i, g, q, y, qm, ym) {
    print ""
    print title
    for (i = 1; i <= n; i++) {
      g = sizes[i]
      q = value[bench "|avgt|" g]
      y = value["YarnPeerBenchmark.yarnFairShares|avgt|" g]
      qm = value[bench ":p0.50|sample|" g]
      ym = value["YarnPeerBenchmark.yarnFairShares:p0.50|sample|" g]
      if (q > 0 && y > 0) {
        printf "  %7d groups: quotaflow %s, YARN %s -> quotaflow is %s", g, ms(q), ms(y), ratio(q, y)
        if (qm > 0 && ym > 0) printf "; medians %s vs %s -> %s", ms(qm), ms(ym), ratio(qm, ym)
        printf "\n"
      }
    }
  }
  END {
    compare("quotaflow vs YARN ComputeFairShares, full recomputation (average time; median of samples):", "FullRecomputeBenchmark.quotaflow")
    compare("quotaflow recomputeAll on live state (every aggregate and runtime, no ingestion) vs YARN:", "RuntimeRecomputeBenchmark.recomputeAll")
    print ""
    print "targets:"
    q10 = value["FullRecomputeBenchmark.quotaflow|avgt|10000"]
    y10 = value["YarnPeerBenchmark.yarnFairShares|avgt|10000"]
    q100 = value["FullRecomputeBenchmark.quotaflow|avgt|100000"]
    r10 = value["RuntimeRecomputeBenchmark.recomputeAll|avgt|10000"]
    r100 = value["RuntimeRecomputeBenchmark.recomputeAll|avgt|100000"]
    i99 = value["IncrementalUpdateBenchmark.podEvent:p0.99|sample|10000"]
    n50 = value["IncrementalUpdateBenchmark.nodeEvent:p0.50|sample|10000"]
    if (q10 > 0 && y10 > 0) printf "  cold start from ClusterInputs, 10,000 groups, >= 10x faster than YARN: %s  %s\n", ratio(q10, y10), verdict(y10 / q10 >= 10)
    if (q10 > 0) printf "  cold start from ClusterInputs, 10,000 groups, < 1 ms: %s  %s\n", ms(q10), verdict(q10 < 1000)
    if (q100 > 0) printf "  cold start from ClusterInputs, 100,000 groups, < 30 ms: %s  %s\n", ms(q100), verdict(q100 < 30000)
    if (r10 > 0 && y10 > 0) printf "  runtimes (recomputeAll), 10,000 groups, >= 10x faster than YARN: %s  %s\n", ratio(r10, y10), verdict(y10 / r10 >= 10)
    if (r10 > 0) printf "  runtimes (recomputeAll), 10,000 groups, < 1 ms: %s  %s\n", ms(r10), verdict(r10 < 1000)
    if (r100 > 0) printf "  runtimes (recomputeAll), 100,000 groups, < 30 ms: %s  %s\n", ms(r100), verdict(r100 < 30000)
    if (i99 > 0) printf "  incremental pod event, 10,000 groups, p99 < 1 ms: %s  %s\n", ms(i99), verdict(i99 < 1000)
    if (n50 > 0 && y10 > 0) printf "  (for scale: a node event re-splitting the whole 10,000-group tree, p50 %s; YARN %s)\n", ms(n50), ms(y10)
  }
' "$out/results.csv" | tee "$out/comparison.txt"

if [[ -n "${CPU_PROBE_GROUPS-100 10000}" ]]; then
  echo
  echo "thread CPU time per operation (waiting for a core excluded; GC threads excluded):"
  # shellcheck disable=SC2086
  core_cpu_probe bench/target/benchmarks.jar ${CPU_PROBE_GROUPS-100 10000} | tee "$out/cpu-time.txt"
fi
