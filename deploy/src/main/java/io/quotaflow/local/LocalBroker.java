package io.quotaflow.local;

import io.quotaflow.broker.BrokerPortInUseException;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import java.nio.file.Path;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Local's embedded broker: on {@code --kafka-port} when given, else on the port of the last run on
 * the same data directory ({@link BrokerPortFile}), else on a free one.
 */
final class LocalBroker {

  private static final Logger LOG = LoggerFactory.getLogger(LocalBroker.class);

  private LocalBroker() {}

  /**
   * Starts the broker with its data under {@code dataDir}/kafka and keeps its port for the next
   * run.
   *
   * @throws PortInUseException when {@code kafkaPort} is given and taken
   */
  static EmbeddedKafkaBroker start(final Path dataDir, final OptionalInt kafkaPort) {
    final BrokerPortFile portFile = BrokerPortFile.in(dataDir);
    final EmbeddedKafkaBroker broker;
    if (kafkaPort.isPresent()) {
      broker = start(dataDir, kafkaPort.getAsInt());
    } else if (portFile.previous().isPresent()) {
      broker = startOnPreviousPort(dataDir, portFile.previous().getAsInt());
    } else {
      broker = start(dataDir, 0);
    }
    portFile.keep(broker.port());
    return broker;
  }

  /** On the port of the last run on this data directory, or a free one when it is taken. */
  private static EmbeddedKafkaBroker startOnPreviousPort(final Path dataDir, final int port) {
    try {
      return start(dataDir, port);
    } catch (final PortInUseException taken) {
      LOG.warn(
          "Kafka's port of the last run on this data directory, {}, is taken: using a free one",
          port);
      return start(dataDir, 0);
    }
  }

  /** The embedded broker on {@code port}, 0 for a free one; closed again if it cannot start. */
  private static EmbeddedKafkaBroker start(final Path dataDir, final int port) {
    final EmbeddedKafkaBroker.Builder builder =
        EmbeddedKafkaBroker.builder().dataDir(dataDir.resolve("kafka"));
    if (port != 0) {
      builder.port(port);
    }
    try {
      return builder.build().start();
    } catch (final BrokerPortInUseException e) {
      throw new PortInUseException(e.port(), "--kafka-port", "the embedded Kafka broker");
    }
  }
}
