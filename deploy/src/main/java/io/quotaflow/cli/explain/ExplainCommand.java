package io.quotaflow.cli.explain;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code quotaflow explain}: why a number is what it is (issue 27). */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    description = "Explains quotaflow's numbers step by step: why a group has its runtime.",
    subcommands = {
      CommandLine.HelpCommand.class,
      ExplainGroupCommand.class,
      ExplainPodCommand.class
    })
public final class ExplainCommand implements Runnable {

  @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(),
        "say what to explain, e.g. quotaflow explain group NAME --resource cpu");
  }
}
