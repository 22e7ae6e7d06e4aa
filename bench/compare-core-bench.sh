#!/usr/bin/env bash
# Compares the quota core benchmarks of two benchmark jars in one run, e.g. the commit before a
# change and the commit after it. The jars take turns (before, after, before, after, ...), so the
# drift of a shared machine (other builds, thermal state) hits both sides alike. Each turn runs JMH's
# FullRecomputeBenchmark, RuntimeRecomputeBenchmark and IncrementalUpdateBenchmark at one size
# (and RuntimeRecomputeBenchmark at a larger one), then CpuTimeProbe, whose thread CPU time a busy
# machine does not inflate. Prints a before/after table: the mean over the rounds of each side, the
# ratio after/before (above 1: the after-jar is slower) and each round's figure, to judge the noise.
# About 4-5 minutes per round on a quiet 2-core machine with the defaults.
#
# Usage: bench/compare-core-bench.sh BEFORE_JAR AFTER_JAR
#   a jar is a shaded bench/target/benchmarks.jar, built with
#   mvn -B -q -pl bench -am package -Pbench -DskipTests -Dspotless.check.skip=true
# Environment: ROUNDS (default 2: turns per jar), BENCH_GROUPS (default 10000),
#              LARGE_GROUPS (default 100000, RuntimeRecomputeBenchmark only; empty to skip),
#              JMH_SETTINGS (default "-f 1 -wi 3 -w 1s -i 5 -r 1s"),
#              CPU_PROBE_GROUPS (default 10000; empty to skip),
#              OUT (default bench/target/compare-core: raw JMH output, CSVs, probe output, table),
#              TABLE_ONLY=1 to print the table of the run in OUT again without running anything.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  sed -n '2,/^set /p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
before_jar=$(realpath "$1")
after_jar=$(realpath "$2")
cd "$(dirname "$0")/.."
# shellcheck source=bench/core-bench-lib.sh
. bench/core-bench-lib.sh
out=${OUT:-bench/target/compare-core}
if [[ "${TABLE_ONLY:-0}" != 1 ]]; then
rm -rf "$out"
mkdir -p "$out"

{
  echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
  echo "started: $(date -u '+%Y-%m-%d %H:%M UTC'), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "before: $before_jar"
  echo "after:  $after_jar"
} | tee "$out/run.txt"

# One turn of one jar: JMH at both sizes, then the CPU time probe.
turn() {
  local side=$1 jar=$2 round=$3
  local tag="$side-$round"
  echo "== round $round, $side ($(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg))" | tee -a "$out/run.txt"
  # shellcheck disable=SC2086
  core_jmh "$jar" "$out/jmh-$tag.csv" \
    'io.quotaflow.bench.core.(FullRecomputeBenchmark|RuntimeRecomputeBenchmark|IncrementalUpdateBenchmark)' \
    -p groups="${BENCH_GROUPS:-10000}" ${JMH_SETTINGS:--f 1 -wi 3 -w 1s -i 5 -r 1s} \
    >"$out/jmh-$tag.txt"
  if [[ -n "${LARGE_GROUPS-100000}" ]]; then
    # shellcheck disable=SC2086
    core_jmh "$jar" "$out/jmh-large-$tag.csv" 'io.quotaflow.bench.core.RuntimeRecomputeBenchmark' \
      -p groups="${LARGE_GROUPS-100000}" ${JMH_SETTINGS:--f 1 -wi 3 -w 1s -i 5 -r 1s} \
      >"$out/jmh-large-$tag.txt"
  fi
  if [[ -n "${CPU_PROBE_GROUPS-10000}" ]]; then
    # shellcheck disable=SC2086
    core_cpu_probe "$jar" ${CPU_PROBE_GROUPS-10000} >"$out/cpu-$tag.txt"
  fi
}

for ((round = 1; round <= ${ROUNDS:-2}; round++)); do
  turn before "$before_jar" "$round"
  turn after "$after_jar" "$round"
done
echo "finished: $(date -u '+%Y-%m-%d %H:%M UTC')" | tee -a "$out/run.txt"
fi

# The table: one row per figure, the mean of each side's rounds, and every round's figure.
{
  # JMH: average time, and the median and p99 of sample mode (microseconds per operation).
  for csv in "$out"/jmh-*.csv; do
    side=$(basename "$csv" .csv)
    side=${side%-*}
    awk -F, -v side="${side##*-}" "$JMH_CSV_AWK"'
      jmh_row() && (jmh_mode == "avgt" || jmh_name ~ /:p0\.(50|99)$/) {
        label = jmh_name (jmh_mode == "avgt" ? " (avg)" : "")
        sub(/:p0\.50$/, " (p50)", label); sub(/:p0\.99$/, " (p99)", label)
        printf "%s|%s|%s|%.1f\n", label, jmh_groups, side, jmh_score
      }' "$csv"
  done
  # CpuTimeProbe: "operation groups ops p50 ms max ms"; the median, in microseconds.
  for probe in "$out"/cpu-*.txt; do
    side=$(basename "$probe" .txt)
    side=${side#cpu-}
    awk -v side="${side%-*}" '
      NR > 1 && $NF == "ms" {
        label = $1; for (i = 2; i <= NF - 6; i++) label = label " " $i
        printf "cpu: %s (p50)|%s|%s|%.1f\n", label, $(NF - 5), side, $(NF - 3) * 1000
      }' "$probe"
  done
} | LC_ALL=C sort -s -t'|' -k1,1 -k2,2n | awk -F'|' '
  {
    key = $1 "|" $2
    if (!(key in seen)) { seen[key] = 1; keys[++n] = key }
    sum[key, $3] += $4; count[key, $3]++
    rounds[key, $3] = rounds[key, $3] (count[key, $3] > 1 ? " " : "") $4
  }
  END {
    printf "\n| %-45s | %7s | %12s | %12s | %11s | %-21s | %-21s |\n", "figure (us per operation)", "groups", "before", "after", "after/before", "before, each round", "after, each round"
    printf "|%s|%s:|%s:|%s:|%s:|%s|%s|\n", "---", "---", "---", "---", "---", "---", "---"
    for (i = 1; i <= n; i++) {
      k = keys[i]; split(k, part, "|")
      b = count[k, "before"] ? sum[k, "before"] / count[k, "before"] : 0
      a = count[k, "after"] ? sum[k, "after"] / count[k, "after"] : 0
      printf "| %-45s | %7s | %12.1f | %12.1f | %11s | %-21s | %-21s |\n", part[1], part[2], b, a, (b > 0 ? sprintf("%.3f", a / b) : "-"), rounds[k, "before"], rounds[k, "after"]
    }
  }' | tee "$out/table.md"
