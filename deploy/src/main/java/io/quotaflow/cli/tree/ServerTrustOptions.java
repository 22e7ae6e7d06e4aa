package io.quotaflow.cli.tree;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The options every command that asks a running quotaflow shares ({@code tree}, {@code explain},
 * {@code report}): which certificates to trust, and the client they make. A picocli mixin.
 */
public final class ServerTrustOptions {

  @Option(
      names = "--cacert",
      paramLabel = "FILE",
      description =
          "PEM certificates to trust for an https URL, such as cert-manager's ca.crt"
              + " (default: the JVM's trust store).")
  private Path caFile;

  @Option(
      names = "--insecure",
      description =
          "Trust any certificate and host name, for a port-forward to a pod whose certificate"
              + " does not name localhost.")
  private boolean insecure;

  /**
   * A client of {@code server} that waits at most {@code timeout}.
   *
   * @throws CommandLine.ParameterException when the URL or the trust options are unusable
   */
  public QueryClient client(CommandSpec spec, String server, Duration timeout) {
    try {
      return QueryClient.of(
          server, ServerTrust.context(Optional.ofNullable(caFile), insecure), timeout);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
  }
}
