package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cli.QuotaflowCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class LocalCommandTest {

  @Test
  void aTakenHttpPortIsRefusedNamingTheOptionThatChangesIt() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      final Run run = Run.of("local", "--http-port", Integer.toString(taken.getLocalPort()));

      assertThat(run.exitCode()).isEqualTo(1);
      assertThat(run.err())
          .contains("Port " + taken.getLocalPort() + " is already in use")
          .contains("--http-port");
    }
  }

  @Test
  void aTakenKafkaPortIsRefusedNamingTheOptionThatChangesIt() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      final Run run =
          Run.of(
              "local", "--http-port", "0", "--kafka-port", Integer.toString(taken.getLocalPort()));

      assertThat(run.exitCode()).isEqualTo(1);
      assertThat(run.err())
          .contains("Port " + taken.getLocalPort() + " is already in use")
          .contains("--kafka-port");
    }
  }

  @Test
  void scenarioListNamesEachScenarioWithItsSummary() {
    final Run run = Run.of("local", "--scenario", "list");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("gpu-borrowing").contains("team-a borrows idle GPUs");
  }

  @Test
  void anUnknownScenarioIsRefusedListingTheKnownOnes() {
    final Run run = Run.of("local", "--scenario", "no-such-scenario");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("No scenario 'no-such-scenario'").contains("gpu-borrowing");
  }

  @Test
  void aKubeconfigWithoutClustersIsRefused() {
    final Run run = Run.of("local", "--kubeconfig", "/nonexistent/kubeconfig");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("--kubeconfig needs at least one --cluster");
  }

  @Test
  void aScenarioCannotPlayOnRealClusters() {
    final Run run =
        Run.of("local", "--scenario", "gpu-borrowing", "--cluster", "east=east-context");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("--scenario plays against the demo cluster");
  }

  @Test
  void aSettingLocalDecidesItselfIsRefusedNamingTheOptionThatChangesIt() {
    final Run run = Run.of("local", "--set", "admission.port=9999");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("admission.port is set by local itself").contains("--http-port");
  }

  @Test
  void aSettingThatDoesNotParseIsRefusedNamingItBeforeAnythingStarts() {
    final Run run = Run.of("local", "--http-port", "0", "--set", "quota.guarantee.usage=maybe");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("quota.guarantee.usage").doesNotContain("ready");
  }

  @Test
  void aConfigFileThatCannotBeReadIsRefusedNamingIt() {
    final Run run = Run.of("local", "--config", "/nonexistent/local.properties");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("Cannot read --config /nonexistent/local.properties");
  }

  /** One in-process run of {@code quotaflow}, with what it printed. */
  private record Run(int exitCode, String out, String err) {

    static Run of(final String... args) {
      final CommandLine commandLine = QuotaflowCommand.commandLine();
      final StringWriter out = new StringWriter();
      final StringWriter err = new StringWriter();
      commandLine.setOut(new PrintWriter(out, true));
      commandLine.setErr(new PrintWriter(err, true));
      final int exitCode = commandLine.execute(args);
      return new Run(exitCode, out.toString(), err.toString());
    }
  }
}
