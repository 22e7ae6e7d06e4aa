package io.quotaflow.engine;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.topics.TopicCatalogue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Engine instances of one application on the shared test broker: its own topic prefix and
 * application id, each instance its own state directory, settings tuned for fast tests (short
 * commits, no record cache, short group sessions). Closes every instance it started.
 */
public final class EngineInstances implements AutoCloseable {
  private final String bootstrapServers;
  private final String applicationId;
  private final String prefix;
  private final Map<String, String> extra;
  private final List<Engine> started = new ArrayList<>();

  public EngineInstances(final String bootstrapServers, final Map<String, String> extra) {
    final String id = UUID.randomUUID().toString().substring(0, 8);
    this.bootstrapServers = bootstrapServers;
    this.applicationId = "quotaflow-it-" + id;
    this.prefix = "it-" + id + ".";
    this.extra = Map.copyOf(extra);
  }

  public String applicationId() {
    return applicationId;
  }

  /** The topics of this application. */
  public TopicCatalogue topics() {
    return TopicCatalogue.withPrefix(prefix);
  }

  /** The configuration of an instance whose state lives in {@code stateDir}. */
  public EngineConfig config(final Path stateDir, final Map<String, String> more) {
    return EngineConfig.builder()
        .set(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)
        .set(StreamsConfig.APPLICATION_ID_CONFIG, applicationId)
        .set(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString())
        .set(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100")
        .set(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0")
        .set(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), "6000")
        .set(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), "500")
        .set(EngineSettings.TOPIC_PREFIX.key(), prefix)
        // Inputs are written by the tests without the connectors' markers.
        .set(EngineSettings.INPUTS_MARKERS_REQUIRED.key(), "false")
        .set(EngineSettings.TOPIC_PARTITIONS.key(), "3")
        .set(EngineSettings.SHUTDOWN_TIMEOUT.key(), "10s")
        .setAll(extra)
        .setAll(more)
        .build();
  }

  /** A new state directory. */
  public static Path stateDir() {
    try {
      return Files.createTempDirectory("quotaflow-it-state");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts an instance (creating the topics first) on {@code stateDir}. */
  public Engine start(final Path stateDir, final Map<String, String> more) {
    return start(config(stateDir, more), new SimpleMeterRegistry());
  }

  /**
   * Starts an instance of {@code config} (one of {@link #config}), creating the topics first, with
   * its meters in {@code registry}.
   */
  public Engine start(final EngineConfig config, final MeterRegistry registry) {
    final Engine engine = new Engine(config, registry);
    started.add(engine);
    engine.provisionTopics();
    engine.start();
    return engine;
  }

  /** Whether an instance is running (not rebalancing, not failed). */
  public static boolean running(final Engine engine) {
    return engine.streams().state() == KafkaStreams.State.RUNNING;
  }

  public static Duration timeout() {
    return Duration.ofSeconds(60);
  }

  @Override
  public void close() {
    for (int i = started.size() - 1; i >= 0; i--) {
      started.get(i).close();
    }
  }
}
