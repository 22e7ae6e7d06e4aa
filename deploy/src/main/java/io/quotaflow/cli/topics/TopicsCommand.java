package io.quotaflow.cli.topics;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code quotaflow topics}: tools for quotaflow's Kafka topics; the work is in the subcommands. */
@Command(
    name = "topics",
    mixinStandardHelpOptions = true,
    description = "Tools for quotaflow's Kafka topics.",
    subcommands = {TopicsListCommand.class, TailCommand.class})
public final class TopicsCommand implements Runnable {

  @Spec private CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing a command: list or tail");
  }
}
