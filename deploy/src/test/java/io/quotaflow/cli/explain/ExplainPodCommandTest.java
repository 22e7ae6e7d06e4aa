package io.quotaflow.cli.explain;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.http.AdmissionServer;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.fixtures.CommandRun;
import io.quotaflow.simulate.ManifestCluster;
import io.quotaflow.tree.QuotaOptions;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code quotaflow explain pod} (issue 27) on the example organisation: a running pod's group and
 * class, a pending pod's failing checks, the same from manifests and from a server.
 */
class ExplainPodCommandTest {

  private static final Path EXAMPLES = Path.of("local", "examples");

  private AdmissionServer server;

  @BeforeEach
  void startServer() throws Exception {
    final SnapshotClusterState state = new SnapshotClusterState();
    state.put(
        "demo",
        ManifestCluster.read(List.of(EXAMPLES), InputStream.nullInputStream(), w -> {}).inputs(),
        QuotaOptions.DEFAULTS);
    server = AdmissionServer.builder(PluginConfig.plainHttpOnLoopback(0), state).build().start();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Test
  void aRunningPodOverItsGroupsMinIsExplainedAlikeFromManifestsAndAServer() {
    final CommandRun offline =
        CommandRun.of("explain", "pod", "vision/train-vit-1", "-f", EXAMPLES.toString());
    final CommandRun live =
        CommandRun.of("explain", "pod", "vision/train-vit-1", "--server", url());

    assertThat(offline.exitCode()).as(offline.err()).isZero();
    assertThat(offline.out())
        .startsWith("pod vision/train-vit-1: running, on node ")
        .contains("Group: research-vision, named by its quota-name label", "Class: over-quota");
    assertThat(live.exitCode()).as(live.err()).isZero();
    assertThat(live.out()).isEqualTo(offline.out());
  }

  @Test
  void aPendingPodThatDoesNotFitSaysWhatWouldAdmitIt() {
    final CommandRun run =
        CommandRun.of("explain", "pod", "vision/train-vit-2", "-f", EXAMPLES.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("Admission now: it does not fit.", "exceeds-runtime: group research-vision")
        .contains("It fits once pods of research-vision holding");
  }

  @Test
  void anUnknownPodOrABadNameSaysWhy() {
    final CommandRun unknown = CommandRun.of("explain", "pod", "vision/nobody", "--server", url());
    final CommandRun badName =
        CommandRun.of("explain", "pod", "no-slash", "-f", EXAMPLES.toString());

    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.err()).contains("vision/nobody");
    assertThat(badName.exitCode()).isEqualTo(2);
    assertThat(badName.err()).contains("NAMESPACE/NAME");
  }

  private String url() {
    return "http://127.0.0.1:" + server.port();
  }
}
