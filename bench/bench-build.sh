# Sourced by the bench scripts that run from compiled classes rather than the JMH jar.
#
# bench_prepare NAME: moves to the repository root, sets out=bench/target/NAME (created), and
# unless SKIP_BUILD=1 compiles bench and the modules it uses in the reactor, writing the class
# path that names their classes to $out/classpath.txt; MVN_ARGS (default "-o": offline) goes to
# Maven.
bench_prepare() {
  cd "$(dirname "${BASH_SOURCE[0]}")/.."
  out=bench/target/$1
  mkdir -p "$out"
  if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    # shellcheck disable=SC2086
    mvn -B -q -pl bench -am compile dependency:build-classpath -Dmdep.outputFile="$PWD/$out/classpath.txt" \
      -Dspotless.check.skip=true ${MVN_ARGS--o}
  fi
}
