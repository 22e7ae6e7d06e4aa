#!/usr/bin/env bash
# Load test of the admission plugin over TLS on loopback (about 125 s): the pod webhook and a no-op
# endpoint of the same server, at a fixed rate (latency p50/p99/p99.9) and at full speed
# (throughput; each endpoint flat out once unreported first), with N concurrent connections. Prints
# the figures and the targets (p99 <= 2 ms at 1,000 req/s; pod webhook throughput >= 70 % of the
# no-op's).
#
# Usage: bench/run-admission-bench.sh [--rate 1000] [--seconds 20] [--warmup 20] [--connections 16]
#                                     [--max-seconds 10]
# Environment: MVN_ARGS (default none; "-o" for offline), SKIP_BUILD=1 to reuse the compiled classes,
#   JFR=1 to record a flight recording (bench/target/admission-bench/admission.jfr).
set -euo pipefail

# shellcheck source=bench/bench-build.sh
source "$(dirname "$0")/bench-build.sh"
bench_prepare admission-bench

jfr=()
if [[ "${JFR:-0}" == 1 ]]; then
  jfr=("-XX:StartFlightRecording=filename=$out/admission.jfr,settings=profile,dumponexit=true")
fi

LC_ALL=C java -Xmx1g "${jfr[@]}" -cp "bench/target/classes:$(cat "$out/classpath.txt")" \
  io.quotaflow.bench.admission.AdmissionLoad "$@" | tee "$out/report.txt"
