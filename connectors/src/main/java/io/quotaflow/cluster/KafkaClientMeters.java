package io.quotaflow.cluster;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;

/**
 * The Kafka client metrics of a connector's long-lived producers and consumers, bound to its meter
 * registry ({@code kafka_producer_*}, {@code kafka_consumer_*}, tagged with the client id). Close
 * it before the clients: that removes their meters and stops the refresh.
 */
public final class KafkaClientMeters implements AutoCloseable {

  private final MeterRegistry registry;
  private final List<KafkaClientMetrics> bound = new ArrayList<>();

  /**
   * @param registry where the clients' meters go
   */
  public KafkaClientMeters(final MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /** Binds the producer's metrics and returns it. */
  public synchronized <P extends Producer<?, ?>> P producer(final P producer) {
    bind(new KafkaClientMetrics(producer));
    return producer;
  }

  /** Binds the consumer's metrics and returns it. */
  public synchronized <C extends Consumer<?, ?>> C consumer(final C consumer) {
    bind(new KafkaClientMetrics(consumer));
    return consumer;
  }

  /** Removes the clients' meters. Idempotent. */
  @Override
  public synchronized void close() {
    bound.forEach(KafkaClientMetrics::close);
    bound.clear();
  }

  private void bind(final KafkaClientMetrics metrics) {
    metrics.bindTo(registry);
    bound.add(metrics);
  }
}
