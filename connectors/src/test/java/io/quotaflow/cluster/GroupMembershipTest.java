package io.quotaflow.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

class GroupMembershipTest {

  @Test
  void aGroupConsumerUsesTheConsumerProtocolAsAStaticMember() {
    final Map<String, Object> config =
        GroupMembership.consumerGroup(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "k:9092",
                ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "connectors-0"));

    assertThat(config)
        .containsEntry(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer")
        .containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "connectors-0");
    assertThat(GroupMembership.instanceId(config)).isEqualTo("connectors-0");
  }

  @Test
  void settingsOfTheClassicProtocolAreDroppedRatherThanRefusedByTheConsumer() {
    final Map<String, Object> config =
        GroupMembership.consumerGroup(
            Map.of(
                ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6000,
                ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500));

    assertThat(config)
        .doesNotContainKeys(
            ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG)
        .containsKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
  }

  @Test
  void theInstanceIsNamedByThePodThenTheHost() {
    assertThat(GroupMembership.instanceName(Map.of("POD_NAME", "p-1", "HOSTNAME", "h")))
        .isEqualTo("p-1");
    assertThat(GroupMembership.instanceName(Map.of("POD_NAME", " ", "HOSTNAME", "h")))
        .isEqualTo("h");
    assertThat(GroupMembership.instanceName(Map.of())).isNotBlank();
  }
}
