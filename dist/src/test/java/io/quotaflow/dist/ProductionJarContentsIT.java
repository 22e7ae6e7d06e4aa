package io.quotaflow.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * What the production jar holds: the commands for a cluster and their dependencies, none of what
 * only {@code quotaflow local} or the tests need, and native libraries only for Linux x86_64 and
 * aarch64. The image's two jars hold the same entries, split by who wrote them.
 */
class ProductionJarContentsIT {

  private static final Path JAR = Path.of(System.getProperty("quotaflow.production.jar"));
  private static final Path IMAGE = Path.of(System.getProperty("quotaflow.image.dir"));

  /** Packages of the broker (kafka_2.13 and Scala), the demo cluster, Vert.x/Netty and tests. */
  private static final List<String> LOCAL_OR_TEST_PACKAGES =
      List.of(
          "kafka/server/",
          "kafka/log/",
          "scala/",
          "io/fabric8/mockwebserver/",
          "io/fabric8/kubernetes/client/server/mock/",
          "io/vertx/",
          "io/netty/",
          "org/bouncycastle/",
          "io/quotaflow/broker/",
          "io/quotaflow/local/",
          "org/junit/",
          "org/assertj/",
          "org/awaitility/");

  /** The Maven artifacts behind them, as their pom.properties name them. */
  private static final List<String> LOCAL_OR_TEST_ARTIFACTS =
      List.of(
          "org.apache.kafka/kafka_2.13/",
          "org.apache.kafka/kafka-server/",
          "org.apache.kafka/kafka-raft/",
          "org.scala-lang/",
          "io.fabric8/mockwebserver/",
          "io.fabric8/kubernetes-server-mock/",
          "io.fabric8/kubernetes-httpclient-vertx/",
          "io.vertx/",
          "io.netty/",
          "io.quotaflow/quotaflow-embedded-broker/");

  @Test
  void holdsNoBrokerScalaDemoClusterVertxOrTestCode() throws IOException {
    final Set<String> entries = entries(JAR);

    assertThat(entries).as("the jar was read").hasSizeGreaterThan(1000);
    assertThat(entries)
        .filteredOn(entry -> LOCAL_OR_TEST_PACKAGES.stream().anyMatch(entry::startsWith))
        .isEmpty();
    assertThat(entries)
        .filteredOn(entry -> entry.startsWith("META-INF/maven/"))
        .filteredOn(
            entry ->
                LOCAL_OR_TEST_ARTIFACTS.stream()
                    .anyMatch(artifact -> entry.startsWith("META-INF/maven/" + artifact)))
        .isEmpty();
    assertThat(entries)
        .filteredOn(entry -> entry.matches(".*(Test|IT|Properties)\\.class"))
        .filteredOn(entry -> entry.startsWith("io/quotaflow/"))
        .isEmpty();
  }

  @Test
  void holdsTheCommandsForAClusterButNotLocal() throws IOException {
    assertThat(entries(JAR))
        .contains(
            "io/quotaflow/cli/Main.class",
            "io/quotaflow/cli/EngineCommand.class",
            "io/quotaflow/connect/ConnectCommand.class",
            "io/quotaflow/simulate/SimulateCommand.class",
            "io/quotaflow/admission/http/AdmissionServer.class",
            "io/fabric8/kubernetes/client/jdkhttp/JdkHttpClientFactory.class")
        .doesNotContain("io/quotaflow/local/LocalCommand.class");
  }

  @Test
  void carriesNativeLibrariesOnlyForLinuxX86AndAarch64() throws IOException {
    final Set<String> entries = entries(JAR);

    assertThat(entries)
        .filteredOn(entry -> entry.startsWith("librocksdbjni"))
        .containsExactlyInAnyOrder("librocksdbjni-linux64.so", "librocksdbjni-linux-aarch64.so");
    assertThat(entries)
        .filteredOn(entry -> entry.contains("libzstd-jni"))
        .hasSize(2)
        .allMatch(entry -> entry.startsWith("linux/amd64/") || entry.startsWith("linux/aarch64/"));
  }

  @Test
  void theImageJarsSplitTheProductionJarIntoQuotaflowAndItsDependencies() throws IOException {
    final Set<String> app = entries(IMAGE.resolve("quotaflow-app.jar"));
    final Set<String> libs = entries(IMAGE.resolve("quotaflow-libs.jar"));

    final Set<String> both = new TreeSet<>(app);
    both.addAll(libs);
    assertThat(both).isEqualTo(entries(JAR));
    assertThat(app)
        .filteredOn(entry -> entry.endsWith(".class"))
        .isNotEmpty()
        .allMatch(entry -> entry.startsWith("io/quotaflow/"));
    assertThat(libs).noneMatch(entry -> entry.startsWith("io/quotaflow/"));
  }

  /** File entries (no directories); the manifest, which each jar has, is left out. */
  private static Set<String> entries(final Path jar) throws IOException {
    try (JarFile file = new JarFile(jar.toFile())) {
      return file.stream()
          .filter(entry -> !entry.isDirectory())
          .map(ZipEntry::getName)
          .filter(name -> !name.equals(JarFile.MANIFEST_NAME))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }
}
