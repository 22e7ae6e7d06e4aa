#!/usr/bin/env bash
# What parsing a large review costs (issue 40.14, about 1 minute): bytes allocated per parse and kept
# per parsed review (64 held), for pod, ElasticQuota and ExtenderArgs reviews of about 3 MB, read
# whole and as the plugin reads them (io.quotaflow.admission.machine.ReviewFootprint).
#
# Usage: bench/run-review-footprint.sh
# Environment: MVN_ARGS (default none; "-o" for offline), SKIP_BUILD=1 to reuse the compiled classes.
set -euo pipefail

# shellcheck source=bench/bench-build.sh
source "$(dirname "$0")/bench-build.sh"
bench_prepare review-footprint

LC_ALL=C java -Xmx2g -XX:+UseG1GC -cp "bench/target/classes:$(cat "$out/classpath.txt")" \
  io.quotaflow.admission.machine.ReviewFootprint | tee "$out/report.txt"
