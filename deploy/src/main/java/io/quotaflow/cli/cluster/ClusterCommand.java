package io.quotaflow.cli.cluster;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code quotaflow cluster}: operations on one cluster's state; the work is in the subcommands. */
@Command(
    name = "cluster",
    mixinStandardHelpOptions = true,
    description = "Operations on one cluster's state in quotaflow's topics.",
    subcommands = {ForgetCommand.class})
public final class ClusterCommand implements Runnable {

  @Spec private CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing a command: forget");
  }
}
