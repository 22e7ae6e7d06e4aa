package io.quotaflow.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class BrokerPropertiesTest {

  private static final Path LOG_DIR = Path.of("/tmp/broker-test/kafka-logs");

  @Test
  void combinedBrokerAndControllerListenOnLoopbackPorts() {
    final Properties props = BrokerProperties.of(19092, 19093, LOG_DIR, Map.of());

    assertThat(props)
        .containsEntry("process.roles", "broker,controller")
        .containsEntry("listeners", "PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093")
        .containsEntry("advertised.listeners", "PLAINTEXT://127.0.0.1:19092")
        .containsEntry("controller.quorum.voters", "1@127.0.0.1:19093")
        .containsEntry("log.dirs", LOG_DIR.toString())
        .containsEntry("metadata.log.dir", LOG_DIR.toString());
  }

  @Test
  void internalTopicsFitASingleBroker() {
    final Properties props = BrokerProperties.of(19092, 19093, LOG_DIR, Map.of());

    assertThat(props)
        .containsEntry("offsets.topic.replication.factor", "1")
        .containsEntry("offsets.topic.num.partitions", "1")
        .containsEntry("transaction.state.log.replication.factor", "1")
        .containsEntry("transaction.state.log.min.isr", "1")
        .containsEntry("group.initial.rebalance.delay.ms", "0");
  }

  @Test
  void extraPropertiesOverrideTheDefaults() {
    final Properties props =
        BrokerProperties.of(
            19092,
            19093,
            LOG_DIR,
            Map.of("num.partitions", "3", "auto.create.topics.enable", "false"));

    assertThat(props)
        .containsEntry("num.partitions", "3")
        .containsEntry("auto.create.topics.enable", "false");
  }
}
