package io.quotaflow.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka cluster inside this JVM: one KRaft process that is both broker and
 * controller, listening on 127.0.0.1. For tests and for running quotaflow on one machine.
 *
 * <p>Internal topics are set up for one broker (one replica, one partition), so consumer groups,
 * Kafka Streams and transactions ({@code exactly_once_v2}) work at once. Ports are chosen free
 * unless a fixed client port is asked for. Without a data directory, the broker keeps its data in a
 * temporary directory that {@link #close()} deletes.
 *
 * <pre>{@code
 * try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
 *   producerProps.put("bootstrap.servers", broker.bootstrapServers());
 * }
 * }</pre>
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

  /** Free ports can be taken by another process before the broker binds them; try again then. */
  private static final int START_ATTEMPTS = 5;

  private static final String LOG_DIR = "kafka-logs";
  private static final String CONFIG_FILE = "server.properties";

  private enum State {
    NEW,
    STARTED,
    CLOSED
  }

  private final Optional<Path> configuredDataDir;
  private final OptionalInt fixedPort;
  private final Map<String, String> extraProperties;
  private final Optional<SaslPlainUsers> users;
  private final boolean abortHangingTransactions;

  private State state = State.NEW;
  private Path dataDir;
  private KafkaRaftServer server;
  private int port;
  private HangingTransactionWatch hangingTransactions;

  private EmbeddedKafkaBroker(final Builder builder) {
    this.configuredDataDir = Optional.ofNullable(builder.dataDir);
    this.fixedPort = builder.port == null ? OptionalInt.empty() : OptionalInt.of(builder.port);
    this.extraProperties = Map.copyOf(builder.properties);
    this.users = Optional.ofNullable(builder.users);
    this.abortHangingTransactions = builder.abortHangingTransactions;
  }

  /** Starts describing a broker; {@code builder().build()} is a broker with all defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Formats the storage if needed and starts the broker; returns when it accepts clients.
   *
   * @return this broker, started
   * @throws BrokerPortInUseException if the fixed port is taken
   * @throws IllegalStateException if the broker was started before or cannot start
   */
  public synchronized EmbeddedKafkaBroker start() {
    if (state != State.NEW) {
      throw new IllegalStateException(
          "The embedded Kafka broker can be started once; it is " + state);
    }
    final long startNanos = System.nanoTime();
    fixedPort.ifPresent(EmbeddedKafkaBroker::requireFree);
    try {
      dataDir =
          configuredDataDir
              .map(EmbeddedKafkaBroker::createDirectories)
              .orElseGet(EmbeddedKafkaBroker::createTempDir);
      final boolean restarted = Files.exists(dataDir.resolve(LOG_DIR).resolve("meta.properties"));
      startWithRetries();
      if (restarted && abortHangingTransactions) {
        // A restarted broker can lose the markers of the transactions it aborts at once.
        hangingTransactions = HangingTransactionWatch.start(adminSettings());
      }
    } catch (final RuntimeException e) {
      close();
      throw e;
    }
    state = State.STARTED;
    LOG.info(
        "Embedded Kafka broker started at {} in {} ms (data in {})",
        bootstrapServers(),
        Duration.ofNanos(System.nanoTime() - startNanos).toMillis(),
        dataDir);
    return this;
  }

  /** The {@code bootstrap.servers} value for clients, {@code 127.0.0.1:<port>}. */
  public synchronized String bootstrapServers() {
    requireStarted();
    return BrokerProperties.endpoint(Ports.HOST, port);
  }

  /**
   * The Kafka client settings that connect as {@code user} to a broker built with {@link
   * Builder#saslPlain}: bootstrap servers, protocol, mechanism and JAAS configuration.
   *
   * @throws IllegalStateException when the broker does not authenticate clients
   * @throws IllegalArgumentException when {@code user} is not one of its users
   */
  public synchronized Map<String, String> clientSettings(final String user) {
    final Map<String, String> settings =
        new LinkedHashMap<>(
            users
                .orElseThrow(
                    () -> new IllegalStateException("This broker does not authenticate clients"))
                .clientSettings(user));
    settings.put("bootstrap.servers", bootstrapServers());
    return settings;
  }

  /** The port clients connect to. */
  public synchronized int port() {
    requireStarted();
    return port;
  }

  /** The directory the broker keeps its configuration and data in. */
  public synchronized Path dataDir() {
    requireStarted();
    return dataDir;
  }

  /**
   * Stops the broker and, if the data directory is a temporary one, deletes it. Calling it again,
   * or before {@link #start()}, does nothing more.
   */
  @Override
  public synchronized void close() {
    if (state == State.CLOSED) {
      return;
    }
    state = State.CLOSED;
    try {
      if (hangingTransactions != null) {
        hangingTransactions.close();
      }
      if (server != null) {
        stop(server);
        server = null;
        LOG.info(
            "Embedded Kafka broker at {} stopped", BrokerProperties.endpoint(Ports.HOST, port));
      }
    } finally {
      if (configuredDataDir.isEmpty() && dataDir != null) {
        delete(dataDir);
      }
    }
  }

  private Map<String, String> adminSettings() {
    final Map<String, String> settings =
        users
            .map(u -> new LinkedHashMap<>(u.clientSettings(u.superUser())))
            .orElseGet(LinkedHashMap::new);
    settings.put("bootstrap.servers", BrokerProperties.endpoint(Ports.HOST, port));
    return settings;
  }

  private void startWithRetries() {
    for (int attempt = 1; ; attempt++) {
      final List<Integer> ports = Ports.free(2);
      final int brokerPort = fixedPort.orElse(ports.get(0));
      final int controllerPort = ports.get(0) == brokerPort ? ports.get(1) : ports.get(0);
      try {
        server = startServer(brokerPort, controllerPort);
        port = brokerPort;
        return;
      } catch (final RuntimeException e) {
        if (!isBindFailure(e)) {
          throw new IllegalStateException("The embedded Kafka broker failed to start", e);
        }
        if (fixedPort.isPresent() && !Ports.isFree(brokerPort)) {
          throw new BrokerPortInUseException(Ports.HOST, brokerPort, e);
        }
        if (attempt == START_ATTEMPTS) {
          throw new IllegalStateException(
              "The embedded Kafka broker found no free ports in " + attempt + " attempts", e);
        }
        LOG.debug("A chosen port was taken meanwhile (attempt {}); trying other ports", attempt, e);
      }
    }
  }

  private KafkaRaftServer startServer(final int brokerPort, final int controllerPort) {
    final Path logDir = dataDir.resolve(LOG_DIR);
    final Properties props =
        BrokerProperties.of(brokerPort, controllerPort, logDir, extraProperties);
    users.ifPresent(u -> u.apply(props, brokerPort, BrokerProperties.CONTROLLER_LISTENER));
    StorageFormatter.formatIfNeeded(props, logDir, dataDir.resolve(CONFIG_FILE));
    final KafkaRaftServer raftServer =
        new KafkaRaftServer(KafkaConfig.fromProps(props), Time.SYSTEM);
    try {
      raftServer.startup();
      return raftServer;
    } catch (final RuntimeException e) {
      try {
        stop(raftServer);
      } catch (final RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  private static void stop(final KafkaRaftServer raftServer) {
    raftServer.shutdown();
    raftServer.awaitShutdown();
  }

  private static boolean isBindFailure(final Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof BindException) {
        return true;
      }
    }
    return false;
  }

  private static void requireFree(final int port) {
    if (!Ports.isFree(port)) {
      throw new BrokerPortInUseException(Ports.HOST, port, null);
    }
  }

  private void requireStarted() {
    if (state != State.STARTED) {
      throw new IllegalStateException("The embedded Kafka broker is not running; it is " + state);
    }
  }

  private static Path createTempDir() {
    try {
      return Files.createTempDirectory("quotaflow-kafka-");
    } catch (final IOException e) {
      throw new UncheckedIOException("Could not create a data directory for the Kafka broker", e);
    }
  }

  private static Path createDirectories(final Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (final IOException e) {
      throw new UncheckedIOException("Could not create the Kafka data directory " + dir, e);
    }
  }

  private static void delete(final Path dir) {
    try {
      Utils.delete(dir.toFile());
    } catch (final IOException e) {
      LOG.warn("Could not delete the embedded Kafka broker's data in {}", dir, e);
    }
  }

  /** Describes an {@link EmbeddedKafkaBroker}; every setting is optional. */
  public static final class Builder {

    private Path dataDir;
    private Integer port;
    private final Map<String, String> properties = new LinkedHashMap<>();
    private SaslPlainUsers users;
    private boolean abortHangingTransactions = true;

    private Builder() {}

    /**
     * Whether a broker restarted on its data aborts the transactions it left open in partitions for
     * a minute after it starts ({@link HangingTransactionWatch}; on by default). Off only to
     * reproduce the broker's own defect.
     */
    public Builder abortHangingTransactions(final boolean abort) {
      this.abortHangingTransactions = abort;
      return this;
    }

    /**
     * Makes clients authenticate with SASL/PLAIN as one of {@code passwords}' users and enforces
     * ACLs (the standard authorizer: a user without an ACL for a resource may not use it); {@code
     * superUser} may do anything, such as creating the others' ACLs. See {@link
     * EmbeddedKafkaBroker#clientSettings}.
     */
    public Builder saslPlain(final String superUser, final Map<String, String> passwords) {
      this.users = new SaslPlainUsers(superUser, passwords);
      return this;
    }

    /**
     * Keeps the broker's data in {@code dir} (created if missing) and leaves it there on close, so
     * a later broker on the same directory sees the same topics. Default: a temporary directory
     * deleted on close.
     */
    public Builder dataDir(final Path dir) {
      this.dataDir = Objects.requireNonNull(dir, "dir");
      return this;
    }

    /** Listens for clients on this port; {@link #start()} fails clearly if it is taken. */
    public Builder port(final int port) {
      if (port < 1 || port > 65_535) {
        throw new IllegalArgumentException("A port is between 1 and 65535, not " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * Sets a broker configuration property, over the single-broker defaults. Listeners, roles, node
     * id and directories belong to this class and cannot be set.
     */
    public Builder brokerProperty(final String key, final String value) {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
      if (BrokerProperties.RESERVED.contains(key)) {
        throw new IllegalArgumentException(
            "The embedded broker sets '" + key + "' itself; it cannot be overridden");
      }
      properties.put(key, value);
      return this;
    }

    /** Sets several broker configuration properties, as {@link #brokerProperty} does. */
    public Builder brokerProperties(final Map<String, String> props) {
      props.forEach(this::brokerProperty);
      return this;
    }

    /** Creates the broker, not yet started. */
    public EmbeddedKafkaBroker build() {
      return new EmbeddedKafkaBroker(this);
    }
  }
}
