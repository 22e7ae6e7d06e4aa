package io.quotaflow.bench.pipeline;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.engine.Engine;
import io.quotaflow.engine.config.EngineConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The last phase of the {@link HistorySoak}: the history's changelog written to a real broker (in
 * process) and a real engine's restore of it timed on an empty state directory.
 */
final class HistoryRestore {

  private static final PrintStream OUT = System.out;

  private HistoryRestore() {}

  /**
   * The restore a task moved to a new instance would do at the end: the history's changelog on a
   * real broker (in process), and a real engine with an empty state directory started on it; the
   * time until it runs (Kafka Streams restores the stores before it runs).
   *
   * @param changelog the history stores' changelog records, store after store
   * @param changelogTopics each store's name, with the index in {@code changelog} its records end
   *     at
   */
  static void time(
      final String applicationId,
      final Map<String, String> settings,
      final List<KeyValue<byte[], byte[]>> changelog,
      final Map<String, Integer> changelogTopics) {
    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
      final Map<String, Object> kafka = Map.of("bootstrap.servers", broker.bootstrapServers());
      long bytes = 0;
      try (Admin admin = Admin.create(kafka);
          KafkaProducer<byte[], byte[]> producer =
              new KafkaProducer<>(
                  Map.of(
                      "bootstrap.servers",
                      broker.bootstrapServers(),
                      "linger.ms",
                      20,
                      "batch.size",
                      512 * 1024,
                      "compression.type",
                      "lz4"),
                  new ByteArraySerializer(),
                  new ByteArraySerializer())) {
        int from = 0;
        for (final Map.Entry<String, Integer> store : changelogTopics.entrySet()) {
          final String topic = applicationId + "-" + store.getKey() + "-changelog";
          admin
              .createTopics(
                  List.of(
                      new NewTopic(topic, 1, (short) 1)
                          .configs(
                              Map.of("cleanup.policy", "compact,delete", "retention.ms", "-1"))))
              .all()
              .get();
          for (int i = from; i < store.getValue(); i++) {
            final KeyValue<byte[], byte[]> record = changelog.get(i);
            bytes += record.key.length + record.value.length;
            producer.send(new ProducerRecord<>(topic, record.key, record.value));
          }
          from = store.getValue();
        }
        producer.flush();
      }
      final Path restored = Files.createTempDirectory("quotaflow-history-soak-restore");
      final EngineConfig engineConfig =
          EngineConfig.builder()
              .setAll(settings)
              .set(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers())
              .set(StreamsConfig.APPLICATION_ID_CONFIG, applicationId)
              .set(StreamsConfig.STATE_DIR_CONFIG, restored.toString())
              .build();
      try (Engine engine = new Engine(engineConfig, new SimpleMeterRegistry())) {
        engine.provisionTopics();
        final long started = System.nanoTime();
        engine.start();
        while (engine.streams().state() != KafkaStreams.State.RUNNING) {
          if (System.nanoTime() - started > Duration.ofMinutes(30).toNanos()) {
            throw new IllegalStateException("the engine did not run within 30 minutes");
          }
          Thread.sleep(50);
        }
        OUT.printf(
            Locale.ROOT,
            "Restore on a new instance: %,d history windows (%.1f MiB of changelog) restored, the"
                + " engine running %.1f s after its start%n",
            changelog.size(),
            bytes / 1048576.0,
            (System.nanoTime() - started) / 1e9);
      } finally {
        HistorySoak.deleteQuietly(restored);
      }
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (final java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e);
    }
  }
}
