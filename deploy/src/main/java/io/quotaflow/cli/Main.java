package io.quotaflow.cli;

/** Entry point of the executable jar: runs {@code quotaflow} and exits with its exit code. */
public final class Main {

  private Main() {}

  /**
   * Runs the command line.
   *
   * @param args the command line arguments
   */
  public static void main(final String[] args) {
    System.exit(QuotaflowCommand.commandLine().execute(args));
  }
}
