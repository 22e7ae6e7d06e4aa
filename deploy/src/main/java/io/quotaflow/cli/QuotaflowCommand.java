package io.quotaflow.cli;

import io.quotaflow.cli.cluster.ClusterCommand;
import io.quotaflow.cli.explain.ExplainCommand;
import io.quotaflow.cli.report.ReportCommand;
import io.quotaflow.cli.topics.TopicsCommand;
import io.quotaflow.cli.tree.TreeCommand;
import io.quotaflow.connect.ConnectCommand;
import io.quotaflow.simulate.SimulateCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The root command {@code quotaflow}. It does nothing itself: the work is in its subcommands, which
 * are listed in {@code subcommands} below, and {@code local}, which is added only where its classes
 * are on the class path (the local jar, not the production one).
 */
@Command(
    name = "quotaflow",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description =
        "Elastic quotas for Kubernetes clusters, computed by a Kafka Streams application.",
    subcommands = {
      CommandLine.HelpCommand.class,
      SimulateCommand.class,
      ConnectCommand.class,
      EngineCommand.class,
      TreeCommand.class,
      ExplainCommand.class,
      ReportCommand.class,
      TopicsCommand.class,
      ClusterCommand.class,
      CompletionCommand.class
    })
public final class QuotaflowCommand implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(QuotaflowCommand.class);

  @Spec private CommandSpec spec;

  /**
   * The command line that {@link Main} runs: the root command, its subcommands, and the error
   * handling shared by all of them.
   */
  public static CommandLine commandLine() {
    final CommandLine commandLine = new CommandLine(new QuotaflowCommand());
    LocalOnly.command().ifPresent(commandLine::addSubcommand);
    commandLine.setExecutionExceptionHandler(
        (exception, failed, parseResult) -> {
          // A failed command explains itself in one line; the stack trace is for debugging.
          LOG.debug("{} failed", failed.getCommandName(), exception);
          failed.getErr().println(failed.getCommandName() + ": " + exception.getMessage());
          return failed.getCommandSpec().exitCodeOnExecutionException();
        });
    return commandLine;
  }

  /** Without a subcommand there is nothing to do: show what there is, as for a wrong option. */
  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing a command");
  }
}
