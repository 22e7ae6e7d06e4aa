#!/usr/bin/env bash
# What one refresh of the admission plugin's last state costs (issue 40.4, about 1 minute): time
# and bytes allocated per refresh of a cluster of 10,000 groups and 100,000 pods, reading the view
# alone, capturing it whole (before) and capturing it reusing the previous snapshot (after), in the
# same run (io.quotaflow.bench.admission.LastStateRefresh).
#
# Usage: bench/run-last-state-bench.sh [--groups 10000] [--pods 100000] [--changed 10] [--stores engine]
#                                      [--warmup 20] [--refreshes 50]
# Environment: MVN_ARGS (default none; "-o" for offline), SKIP_BUILD=1 to reuse the compiled classes.
set -euo pipefail

# shellcheck source=bench/bench-build.sh
source "$(dirname "$0")/bench-build.sh"
bench_prepare last-state-bench

LC_ALL=C java -Xmx2g -XX:+UseG1GC -cp "bench/target/classes:$(cat "$out/classpath.txt")" \
  io.quotaflow.bench.admission.LastStateRefresh "$@" | tee "$out/report.txt"
