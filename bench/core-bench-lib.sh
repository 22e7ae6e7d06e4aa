# Shared by the quota core benchmark scripts (sourced, not run): how JMH and CpuTimeProbe are
# called on a benchmarks jar, and the awk that reads JMH's CSV.

# core_jmh JAR CSV [JMH arguments...]: runs JMH from JAR, results as CSV to CSV, table to stdout.
core_jmh() {
  local jar=$1 csv=$2
  shift 2
  LC_ALL=C java -jar "$jar" "$@" -foe true -rf csv -rff "$csv"
}

# core_cpu_probe JAR [groups...]: thread CPU time per operation (see CpuTimeProbe).
core_cpu_probe() {
  local jar=$1
  shift
  java -Xms4g -Xmx4g -cp "$jar" io.quotaflow.bench.core.CpuTimeProbe "$@"
}

# Awk functions for JMH's CSV (scores in microseconds per operation): jmh_row() parses the current
# line into jmh_name (without the package), jmh_mode, jmh_score and jmh_groups; false for the header.
# shellcheck disable=SC2034
JMH_CSV_AWK='
  function unq(s) { gsub(/"/, "", s); return s }
  function jmh_row() {
    sub(/\r$/, "")  # JMH writes CRLF
    if (FNR == 1) return 0
    jmh_name = unq($1); sub(/^io\.quotaflow\.bench\.core\./, "", jmh_name)
    jmh_mode = unq($2); jmh_score = unq($5) + 0; jmh_groups = unq($8)
    return 1
  }
'
