package io.quotaflow.cli.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.admission.http.AdmissionServer;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.http.PluginSettings;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.fixtures.CommandRun;
import io.quotaflow.fixtures.SelfSignedCertificate;
import io.quotaflow.kube.ElasticQuotaAdapter;
import io.quotaflow.kube.ElasticQuotaProfileAdapter;
import io.quotaflow.kube.ElasticQuotaProfileApi;
import io.quotaflow.kube.NodeAdapter;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.simulate.Manifest;
import io.quotaflow.simulate.ManifestReader;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.QuotaOptions;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quotaflow tree} against a real admission server over HTTP (and HTTPS), whose state is the
 * example organisation of {@code deploy/local/examples}: what it prints is what {@code simulate}
 * prints for the same manifests.
 */
class TreeCommandTest {

  private static final Path EXAMPLES = Path.of("local", "examples");

  @TempDir Path dir;

  private final SnapshotClusterState state = new SnapshotClusterState();
  private AdmissionServer server;

  @BeforeEach
  void startServer() throws Exception {
    final ClusterInputs examples = inputs(EXAMPLES);
    state.put("demo", examples, QuotaOptions.DEFAULTS).put("west", examples, QuotaOptions.DEFAULTS);
    server = AdmissionServer.builder(PluginConfig.plainHttpOnLoopback(0), state).build().start();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Test
  void printsTheLiveTreeOfAClusterAsSimulatePrintsTheSameManifests() {
    final CommandRun tree = CommandRun.of("tree", "--server", url(), "--cluster", "demo");
    final CommandRun simulate = CommandRun.of("simulate", "-f", EXAMPLES.toString());

    assertThat(tree.exitCode()).as(tree.err()).isZero();
    assertThat(tree.err()).isEmpty();
    assertThat(tree.out()).matches("(?s)\\n=== cluster demo at \\d\\d:\\d\\d:\\d\\d ===\\n.*");
    assertThat(afterHeader(tree.out())).isEqualTo(simulate.out());
    assertThat(simulate.out()).contains("research-vision").contains("over-quota");
  }

  @Test
  void aClusterWithNodePoolsIsPrintedATreeAtATimeAsSimulatePrintsItsTrees() throws Exception {
    final Path pools = EXAMPLES.resolve("node-pools");
    state.put("pools", inputs(pools), profiles(pools), QuotaOptions.DEFAULTS);

    final CommandRun tree = CommandRun.of("tree", "--server", url(), "--cluster", "pools");
    final CommandRun simulate = CommandRun.of("simulate", "-f", pools.toString());

    assertThat(tree.exitCode()).as(tree.err()).isZero();
    assertThat(tree.out())
        .contains("=== Tree default: the groups outside every profile's tree, all nodes")
        .contains("=== Tree gpu-pool: ElasticQuotaProfile")
        .contains("=== Tree cpu-pool: ElasticQuotaProfile");
    // Each tree's table, total and pods, is simulate's for that tree (simulate's headings also
    // count the pool's Ready nodes, which the query API does not give).
    assertThat(tables(tree.out())).isEqualTo(tables(simulate.out()));
  }

  /** The text of each tree's table, without the heading lines. */
  private static List<String> tables(final String printed) {
    return java.util.Arrays.stream(printed.split("(?m)^=== .*$"))
        .map(String::strip)
        .filter(table -> !table.isEmpty())
        .toList();
  }

  @Test
  void withoutAClusterPrintsEveryClusterTheServerKnows() {
    final CommandRun tree = CommandRun.of("tree", "--server", url() + "/");

    assertThat(tree.exitCode()).as(tree.err()).isZero();
    assertThat(tree.out().lines().filter(line -> line.startsWith("=== cluster ")))
        .hasSize(2)
        .satisfiesExactly(
            line -> assertThat(line).startsWith("=== cluster demo at "),
            line -> assertThat(line).startsWith("=== cluster west at "));
  }

  @Test
  void withoutPodsPrintsTheGroupsAndAnEmptyPodTable() {
    final CommandRun tree =
        CommandRun.of("tree", "--server", url(), "--cluster", "demo", "--no-pods");

    assertThat(tree.exitCode()).as(tree.err()).isZero();
    assertThat(tree.out()).contains("research-vision").doesNotContain("over-quota");
  }

  @Test
  void anUnknownClusterIsAnErrorNamingTheKnownOnes() {
    final CommandRun tree = CommandRun.of("tree", "--server", url(), "--cluster", "east");

    assertThat(tree.exitCode()).isEqualTo(1);
    assertThat(tree.out()).isEmpty();
    assertThat(tree.err())
        .isEqualToIgnoringNewLines("tree: unknown cluster 'east'; the server knows demo, west");
  }

  @Test
  void aClusterWhoseStateWasNeverReadIsAnErrorWithTheServersReason() throws Exception {
    final SnapshotClusterState unread =
        new SnapshotClusterState()
            .put("demo", inputs(EXAMPLES), QuotaOptions.DEFAULTS)
            .unavailable("demo", "the engine is rebalancing");
    try (AdmissionServer rebalancing =
        AdmissionServer.builder(PluginConfig.plainHttpOnLoopback(0), unread).build().start()) {
      final String url = "http://127.0.0.1:" + rebalancing.port();

      final CommandRun tree = CommandRun.of("tree", "--server", url, "--cluster", "demo");

      assertThat(tree.exitCode()).isEqualTo(1);
      assertThat(tree.err())
          .startsWith("tree: " + url + "/api/v1/clusters/demo/quotas answered 503: ")
          .contains("the engine is rebalancing");
    }
  }

  @Test
  void aClusterAnsweredFromItsLastStateIsPrintedWithANote() {
    server.refreshLastState();
    state.unavailable("demo", "the engine is rebalancing");

    final CommandRun tree =
        CommandRun.of("tree", "--server", url(), "--cluster", "demo", "--no-pods");

    assertThat(tree.exitCode()).as(tree.err()).isZero();
    assertThat(tree.out()).contains("research-vision");
    assertThat(tree.err())
        .startsWith("note: cluster demo answered from its last state (as of ")
        .contains("the engine is rebalancing");
  }

  @Test
  void anUnreachableServerIsAnErrorNamingTheUrl() throws Exception {
    final int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    final String unreachable = "http://127.0.0.1:" + closed;

    final CommandRun tree = CommandRun.of("tree", "--server", unreachable);

    assertThat(tree.exitCode()).isEqualTo(1);
    assertThat(tree.err())
        .isEqualToIgnoringNewLines(
            "tree: cannot reach " + unreachable + "/api/v1/clusters: connection refused");
  }

  @Test
  void aServerThatIsNotQuotaflowIsAnError() {
    final CommandRun tree = CommandRun.of("tree", "--server", url() + "/healthz");

    assertThat(tree.exitCode()).isEqualTo(1);
    assertThat(tree.err()).startsWith("tree: " + url() + "/healthz/api/v1/clusters answered 404");
  }

  @Test
  void aServerThatIsNotAnHttpUrlIsAUsageError() {
    for (final String bad : List.of("ftp://127.0.0.1:8080", "127.0.0.1:8080", "http://", "::")) {
      final CommandRun tree = CommandRun.of("tree", "--server", bad);

      assertThat(tree.exitCode()).as(bad).isEqualTo(2);
      assertThat(tree.err()).as(bad).startsWith("--server '" + bad + "'").contains("Usage:");
    }
  }

  @Test
  void readsAnHttpsServerWhoseCertificateItIsToldToTrust() throws Exception {
    final SelfSignedCertificate certificate =
        SelfSignedCertificate.create(dir.resolve("tls"), "dns:localhost,ip:127.0.0.1");
    try (AdmissionServer https = httpsServer(certificate)) {
      final String url = "https://127.0.0.1:" + https.port();

      final CommandRun untrusted = CommandRun.of("tree", "--server", url, "--no-pods");
      final CommandRun trusted =
          CommandRun.of(
              "tree",
              "--server",
              url,
              "--cacert",
              certificate.certificate().toString(),
              "--no-pods");

      assertThat(untrusted.exitCode()).isEqualTo(1);
      assertThat(untrusted.err()).startsWith("tree: TLS with " + url).contains("--cacert");
      assertThat(trusted.exitCode()).as(trusted.err()).isZero();
      assertThat(trusted.out()).contains("=== cluster demo at ");
    }
  }

  @Test
  void insecureReadsAnHttpsServerWhoseCertificateNamesAnotherHost() throws Exception {
    final SelfSignedCertificate certificate =
        SelfSignedCertificate.create(dir.resolve("tls"), "dns:quotaflow-admission.quotaflow.svc");
    try (AdmissionServer https = httpsServer(certificate)) {
      final String url = "https://127.0.0.1:" + https.port();

      final CommandRun verified =
          CommandRun.of(
              "tree",
              "--server",
              url,
              "--cacert",
              certificate.certificate().toString(),
              "--no-pods");
      final CommandRun insecure = CommandRun.of("tree", "--server", url, "--insecure", "--no-pods");

      assertThat(verified.exitCode()).as("the host name is checked").isEqualTo(1);
      assertThat(insecure.exitCode()).as(insecure.err()).isZero();
      assertThat(insecure.out()).contains("=== cluster west at ");
    }
  }

  private AdmissionServer httpsServer(final SelfSignedCertificate certificate) {
    return AdmissionServer.builder(
            PluginSettings.config(
                Map.of(
                    PluginSettings.TLS_CERT_FILE.key(),
                    certificate.certificate().toString(),
                    PluginSettings.TLS_KEY_FILE.key(),
                    certificate.key().toString(),
                    PluginSettings.BIND_ADDRESS.key(),
                    "127.0.0.1",
                    PluginSettings.PORT.key(),
                    "0")),
            state)
        .build()
        .start();
  }

  private String url() {
    return "http://127.0.0.1:" + server.port();
  }

  /** What follows the first line of the output (a blank line) and the header. */
  private static String afterHeader(final String out) {
    final int header = out.indexOf("===", out.indexOf("=== cluster") + 3);
    return out.substring(out.indexOf('\n', header) + 1);
  }

  private static ClusterInputs inputs(final Path manifests) throws Exception {
    final List<Manifest> read = new ManifestReader(warning -> {}).read(List.of(manifests));
    return new ClusterInputs(
        read.stream()
            .filter(m -> m.object() instanceof GenericKubernetesResource)
            .map(m -> (GenericKubernetesResource) m.object())
            .filter(r -> !ElasticQuotaProfileApi.isProfile(r.getApiVersion(), r.getKind()))
            .map(ElasticQuotaAdapter::toQuotaGroup)
            .toList(),
        read.stream()
            .filter(m -> m.object() instanceof Pod)
            .map(m -> PodAdapter.toQuotaPod((Pod) m.object()))
            .toList(),
        read.stream()
            .filter(m -> m.object() instanceof Node)
            .map(m -> NodeAdapter.toQuotaNode((Node) m.object()))
            .toList());
  }

  private static List<QuotaProfile> profiles(final Path manifests) throws Exception {
    return new ManifestReader(warning -> {})
        .read(List.of(manifests)).stream()
            .filter(m -> m.object() instanceof GenericKubernetesResource)
            .map(m -> (GenericKubernetesResource) m.object())
            .filter(r -> ElasticQuotaProfileApi.isProfile(r.getApiVersion(), r.getKind()))
            .map(ElasticQuotaProfileAdapter::toQuotaProfile)
            .toList();
  }
}
