package io.quotaflow.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

class KafkaClientMetersTest {

  private static final String SENT = "kafka.producer.record.send.total";

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @Test
  void aBoundProducersMetricsAreMetersUntilClosed() {
    final MockProducer<byte[], byte[]> producer = new MockProducer<>();
    final MetricName sent =
        new MetricName(
            "record-send-total", "producer-metrics", "records sent", Map.of("client-id", "p-1"));
    producer.setMockMetrics(sent, metric(sent, 42.0));
    final KafkaClientMeters meters = new KafkaClientMeters(registry);

    assertThat(meters.producer(producer)).isSameAs(producer);

    assertThat(registry.find(SENT).functionCounter()).isNotNull();
    assertThat(registry.find(SENT).functionCounter().count()).isEqualTo(42.0);

    meters.close();

    assertThat(registry.find(SENT).meters()).as("closing removes the meters").isEmpty();
  }

  private static Metric metric(final MetricName name, final double value) {
    return new Metric() {
      @Override
      public MetricName metricName() {
        return name;
      }

      @Override
      public Object metricValue() {
        return value;
      }
    };
  }
}
