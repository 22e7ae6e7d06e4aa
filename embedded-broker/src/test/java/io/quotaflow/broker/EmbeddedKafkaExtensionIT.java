package io.quotaflow.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedKafkaExtension.class)
class EmbeddedKafkaExtensionIT {

  private static EmbeddedKafkaBroker beforeAllBroker;

  private final EmbeddedKafkaBroker constructorBroker;
  private EmbeddedKafkaBroker beforeEachBroker;

  EmbeddedKafkaExtensionIT(final EmbeddedKafkaBroker broker) {
    this.constructorBroker = broker;
  }

  @BeforeAll
  static void rememberBeforeAll(final EmbeddedKafkaBroker broker) {
    beforeAllBroker = broker;
  }

  @BeforeEach
  void rememberBeforeEach(final EmbeddedKafkaBroker broker) {
    beforeEachBroker = broker;
  }

  @Test
  void everyInjectionPointGetsTheSameBroker(final EmbeddedKafkaBroker broker) {
    assertThat(broker)
        .isSameAs(constructorBroker)
        .isSameAs(beforeAllBroker)
        .isSameAs(beforeEachBroker);
  }

  @Test
  void injectedBrokerIsRunning(final EmbeddedKafkaBroker broker)
      throws ExecutionException, InterruptedException {
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
      assertThat(admin.describeCluster().nodes().get()).hasSize(1);
    }
  }
}
