# Sourced by the bench scripts that run from compiled classes rather than the JMH jar.
#
# bench_prepare NAME: moves to the repository root, sets out=bench/target/NAME (created), and
# unless SKIP_BUILD=1 compiles bench and the modules it uses in the reactor, writing the class
# path that names their classes to $out/classpath.txt; MVN_ARGS (default none; e.g. "-o" for
# offline once the local repository holds everything) goes to Maven. The phase is test-compile, not
# compile: the engine depends on quota-core's test classes (test scope), which the reactor only
# hands out once they are compiled, and build-classpath resolves every scope of every module.
bench_prepare() {
  cd "$(dirname "${BASH_SOURCE[0]}")/.."
  out=bench/target/$1
  mkdir -p "$out"
  if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    # shellcheck disable=SC2086
    mvn -B -q -pl bench -am test-compile dependency:build-classpath \
      -Dmdep.outputFile="$PWD/$out/classpath.txt" -Dspotless.check.skip=true ${MVN_ARGS-}
  fi
}
