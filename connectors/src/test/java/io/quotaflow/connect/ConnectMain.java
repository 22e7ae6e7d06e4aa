package io.quotaflow.connect;

import picocli.CommandLine;

/** {@code quotaflow connect} as a process of its own, for tests that kill it. */
public final class ConnectMain {

  private ConnectMain() {}

  public static void main(final String[] args) {
    System.exit(new CommandLine(new ConnectCommand()).execute(args));
  }
}
