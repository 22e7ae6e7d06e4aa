package io.quotaflow.cli.explain;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.http.AdmissionServer;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.fixtures.CommandRun;
import io.quotaflow.quota.Quantities;
import io.quotaflow.simulate.ManifestCluster;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code quotaflow explain group} (issue 27) on the example organisation of {@code
 * deploy/local/examples}: from the manifests and from a server holding the same state, the
 * derivation of the runtime simulate computes.
 */
class ExplainGroupCommandTest {

  private static final Path EXAMPLES = Path.of("local", "examples");
  private static final String GPU = "nvidia.com/gpu";

  private final SnapshotClusterState state = new SnapshotClusterState();
  private AdmissionServer server;
  private ManifestCluster examples;

  @BeforeEach
  void startServer() throws Exception {
    examples = ManifestCluster.read(List.of(EXAMPLES), InputStream.nullInputStream(), w -> {});
    state.put("demo", examples.inputs(), QuotaOptions.DEFAULTS);
    server = AdmissionServer.builder(PluginConfig.plainHttpOnLoopback(0), state).build().start();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Test
  void explainsTheRuntimeSimulateComputesFromManifestsAndFromAServerAlike() {
    final long runtime =
        QuotaCalculator.compute(examples.inputs(), QuotaOptions.DEFAULTS)
            .group("research-vision")
            .orElseThrow()
            .runtime()
            .get(GPU);

    final CommandRun offline =
        CommandRun.of(
            "explain", "group", "research-vision", "--resource", GPU, "-f", EXAMPLES.toString());
    final CommandRun live =
        CommandRun.of("explain", "group", "research-vision", "--resource", GPU, "--server", url());

    assertThat(offline.exitCode()).as(offline.err()).isZero();
    assertThat(offline.out())
        .startsWith("research-vision: runtime " + Quantities.format(GPU, runtime) + " " + GPU)
        .contains("Step 1: the cluster distributes", "→ research-vision: " + runtime);
    assertThat(live.exitCode()).as(live.err()).isZero();
    assertThat(live.out()).isEqualTo(offline.out());
  }

  @Test
  void aTargetSaysWhatTheGroupWouldNeed() {
    final CommandRun run =
        CommandRun.of(
            "explain",
            "group",
            "research-vision",
            "--resource",
            GPU,
            "--target",
            "8",
            "--server",
            url(),
            "--output",
            "json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("\"reach\"", "\"target\" : 8");
  }

  @Test
  void anUnknownGroupOrABadCommandLineSaysWhy() {
    final CommandRun unknown =
        CommandRun.of("explain", "group", "nobody", "--resource", "cpu", "--server", url());
    final CommandRun offlineUnknown =
        CommandRun.of("explain", "group", "nobody", "--resource", "cpu", "-f", EXAMPLES.toString());
    final CommandRun noSource = CommandRun.of("explain", "group", "team", "--resource", "cpu");
    final CommandRun noResource =
        CommandRun.of("explain", "group", "team", "-f", EXAMPLES.toString());

    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.err()).contains("nobody");
    assertThat(offlineUnknown.exitCode()).isEqualTo(1);
    assertThat(offlineUnknown.err()).contains("no quota group nobody");
    assertThat(noSource.exitCode()).isEqualTo(2);
    assertThat(noSource.err()).contains("--filename", "--server");
    assertThat(noResource.exitCode()).isEqualTo(2);
    assertThat(noResource.err()).contains("--resource");
  }

  private String url() {
    return "http://127.0.0.1:" + server.port();
  }
}
