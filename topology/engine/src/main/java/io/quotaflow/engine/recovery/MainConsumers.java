package io.quotaflow.engine.recovery;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * Kafka Streams' clients, made as its default supplier makes them, with each stream thread's main
 * consumer findable from that thread: a processor initialised on it can ask where the consumer will
 * read its task's partitions next ({@link ConsumerPositions}), which Kafka Streams does not tell
 * it. Only the thread that polls a consumer finds it, and only between its polls, so nothing else
 * uses it.
 */
public final class MainConsumers implements KafkaClientSupplier {
  private final ThreadLocal<Consumer<byte[], byte[]>> polledHere = new ThreadLocal<>();

  @Override
  public Admin getAdmin(final Map<String, Object> config) {
    return Admin.create(config);
  }

  @Override
  public Producer<byte[], byte[]> getProducer(final Map<String, Object> config) {
    return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }

  @Override
  public Consumer<byte[], byte[]> getConsumer(final Map<String, Object> config) {
    return new Tracked(config);
  }

  @Override
  public Consumer<byte[], byte[]> getRestoreConsumer(final Map<String, Object> config) {
    return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  @Override
  public Consumer<byte[], byte[]> getGlobalConsumer(final Map<String, Object> config) {
    return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /** The main consumer this thread polls, if it polls one. */
  public Optional<Consumer<byte[], byte[]>> ofThisThread() {
    return Optional.ofNullable(polledHere.get());
  }

  /** A main consumer that notes, at each poll, the thread polling it. */
  private final class Tracked extends KafkaConsumer<byte[], byte[]> {
    Tracked(final Map<String, Object> config) {
      super(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Override
    public ConsumerRecords<byte[], byte[]> poll(final Duration timeout) {
      polledHere.set(this);
      return super.poll(timeout);
    }
  }
}
