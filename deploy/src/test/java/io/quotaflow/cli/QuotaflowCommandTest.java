package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

class QuotaflowCommandTest {

  @Test
  void helpExitsZeroAndPrintsUsageToStdout() {
    final Run run = Run.of(QuotaflowCommand.commandLine(), "--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("Usage: quotaflow").contains("--version").contains("Commands:");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void versionPrintsTheProjectVersion() {
    final String expected = System.getProperty("quotaflow.expected.version");
    assertThat(expected).as("set by the build").isNotBlank();

    final Run run = Run.of(QuotaflowCommand.commandLine(), "--version");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("quotaflow " + expected + System.lineSeparator());
  }

  @Test
  void unknownOptionExitsTwoWithUsageOnStderr() {
    final Run run = Run.of(QuotaflowCommand.commandLine(), "--no-such-option");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("Unknown option: '--no-such-option'")
        .contains("Usage: quotaflow");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void noCommandExitsTwoWithUsageOnStderr() {
    final Run run = Run.of(QuotaflowCommand.commandLine());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("Missing a command").contains("Usage: quotaflow");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void simulateRunsTheExampleOrganisationThroughTheRootCommand() {
    final Run run =
        Run.of(
            QuotaflowCommand.commandLine(),
            "simulate",
            "-f",
            "../deploy/local/examples",
            "--output",
            "json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .startsWith("{")
        .contains("\"koordinator-root-quota\"")
        .contains("\"quotas\"");
  }

  @Test
  void exitCodeOfASubcommandPassesThrough() {
    final CommandLine commandLine = QuotaflowCommand.commandLine();
    commandLine.addSubcommand(new ExitWith(7));

    assertThat(Run.of(commandLine, "exit-with").exitCode()).isEqualTo(7);
  }

  @Test
  void failingSubcommandPrintsItsMessageToStderrAndExitsOne() {
    final CommandLine commandLine = QuotaflowCommand.commandLine();
    commandLine.addSubcommand(new Failing());

    final Run run = Run.of(commandLine, "failing");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).isEqualToIgnoringNewLines("failing: the cluster is unreachable");
  }

  /** One in-process run of a command line, with what it printed. */
  private record Run(int exitCode, String out, String err) {

    static Run of(final CommandLine commandLine, final String... args) {
      final StringWriter out = new StringWriter();
      final StringWriter err = new StringWriter();
      commandLine.setOut(new PrintWriter(out, true));
      commandLine.setErr(new PrintWriter(err, true));
      final int exitCode = commandLine.execute(args);
      return new Run(exitCode, out.toString(), err.toString());
    }
  }

  @Command(name = "exit-with")
  private static final class ExitWith implements Callable<Integer> {
    private final int code;

    ExitWith(final int code) {
      this.code = code;
    }

    @Override
    public Integer call() {
      return code;
    }
  }

  @Command(name = "failing")
  private static final class Failing implements Callable<Integer> {
    @Override
    public Integer call() {
      throw new IllegalStateException("the cluster is unreachable");
    }
  }
}
