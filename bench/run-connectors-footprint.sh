#!/usr/bin/env bash
# The connectors' heap at a large cluster (issue 40.3): the pod and node sources list a mock API
# server of realistic pods and nodes until each publishes its first snapshot; prints the time to it,
# the live heap after a full GC, the heap's peak and the LIST requests
# (io.quotaflow.source.ConnectorsFootprint). Each size runs twice, in its own JVM: "after" with this
# checkout's connectors, "before" with BASE's PodKind, NodeKind, DraKind and PodGroupCompanions
# (full objects, unpaged lists) compiled over them.
#
# Usage: bench/run-connectors-footprint.sh [PODS:NODES ...]   (default 10000:1000 30000:3000)
# Environment: BASE (default 4d48e7b, the commit before trimming), HEAP (default 1434m: the
# manifest's 2Gi limit at MaxRAMPercentage=70), BEFORE_HEAP (default 4g), MVN_ARGS, SKIP_BUILD=1.
set -euo pipefail

# shellcheck source=bench/bench-build.sh
source "$(dirname "$0")/bench-build.sh"
bench_prepare connectors-footprint

base=${BASE:-4d48e7b}
cp="bench/target/classes:$(cat "$out/classpath.txt")"
before="$out/before-classes"
rm -rf "$before" "$out/before-src" && mkdir -p "$before" "$out/before-src"
for class in PodKind NodeKind DraKind PodGroupCompanions; do
  git show "$base:connectors/src/main/java/io/quotaflow/source/$class.java" \
    >"$out/before-src/$class.java"
done
javac -nowarn -d "$before" -cp "$cp" "$out/before-src"/*.java

sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(10000:1000 30000:3000)
{
  echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), base $base"
  for size in "${sizes[@]}"; do
    pods=${size%%:*} nodes=${size##*:}
    echo -n "after  (-Xmx${HEAP:-1434m}): "
    java -Xmx"${HEAP:-1434m}" -XX:+UseG1GC -cp "$cp" io.quotaflow.source.ConnectorsFootprint \
      "$pods" "$nodes" 2>/dev/null | grep '^pods=' || echo "pods=$pods nodes=$nodes failed"
    echo -n "before (-Xmx${BEFORE_HEAP:-4g}): "
    java -Xmx"${BEFORE_HEAP:-4g}" -XX:+UseG1GC -cp "$before:$cp" \
      io.quotaflow.source.ConnectorsFootprint "$pods" "$nodes" 2>/dev/null | grep '^pods=' \
      || echo "pods=$pods nodes=$nodes failed"
  done
} | tee "$out/report.txt"
