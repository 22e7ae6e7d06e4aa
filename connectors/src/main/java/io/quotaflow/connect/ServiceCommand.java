package io.quotaflow.connect;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Option;

/**
 * What the long-running commands ({@code quotaflow connect}, {@code quotaflow engine}) share: the
 * brokers option, the environment their {@code QUOTAFLOW_*} settings come from, the registry their
 * meters go to, and taking their SIGTERM hook off again when they stop by themselves.
 */
public abstract class ServiceCommand implements Callable<Integer> {

  @Option(
      names = "--bootstrap-servers",
      required = true,
      paramLabel = "HOST:PORT",
      description = "Kafka brokers to connect to.")
  private String bootstrapServers;

  private final Map<String, String> environment;
  private final PrometheusMeterRegistry registry;

  /**
   * @param environment where {@code QUOTAFLOW_*} variables are read
   * @param registry where meters go
   */
  protected ServiceCommand(
      final Map<String, String> environment, final PrometheusMeterRegistry registry) {
    this.environment = Map.copyOf(environment);
    this.registry = registry;
  }

  /** The {@code --bootstrap-servers} option. */
  protected final String bootstrapServers() {
    return bootstrapServers;
  }

  protected final Map<String, String> environment() {
    return environment;
  }

  protected final PrometheusMeterRegistry registry() {
    return registry;
  }

  /** Takes a shutdown hook off again, unless the JVM is already shutting down and running it. */
  public static void removeShutdownHook(final Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down: the hook is running.
    }
  }
}
