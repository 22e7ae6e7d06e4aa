package io.quotaflow.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Provisioning against a real broker: create what is missing, verify what exists, alter nothing.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class TopicProvisionerIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final int PARTITIONS = 3;
  private static final short REPLICATION = 1;

  private Admin admin;
  private TopicCatalogue catalogue;
  private TopicProvisioner provisioner;

  @BeforeEach
  void connect(final EmbeddedKafkaBroker broker, final TestInfo test) {
    admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    // The broker is shared by the whole test JVM: each test gets topics of its own.
    catalogue =
        TopicCatalogue.withPrefix("it-" + test.getTestMethod().orElseThrow().getName() + ".");
    provisioner = new TopicProvisioner(admin, TIMEOUT);
  }

  @AfterEach
  void close() {
    admin.close();
  }

  @Test
  void missingTopicsAreCreatedWithTheirRecommendedConfigs() throws Exception {
    final ProvisioningReport report =
        provisioner.provision(catalogue.all(), PARTITIONS, REPLICATION);

    assertThat(report.created())
        .containsExactlyElementsOf(catalogue.all().stream().map(Topic::name).toList());
    assertThat(report.allMatch()).isTrue();
    for (final Topic<?, ?> topic : catalogue.all()) {
      assertThat(partitionCount(topic.name())).as(topic.name()).isEqualTo(PARTITIONS);
      final Config config = config(topic.name());
      topic
          .configs()
          .forEach(
              (key, value) ->
                  assertThat(config.get(key).value()).as(topic + " " + key).isEqualTo(value));
    }
  }

  @Test
  void topicsThatExistAsExpectedAreReportedOk() {
    provisioner.provision(catalogue.all(), PARTITIONS, REPLICATION);

    final ProvisioningReport again =
        provisioner.provision(catalogue.all(), PARTITIONS, REPLICATION);

    assertThat(again.created()).isEmpty();
    assertThat(again.ok()).hasSize(catalogue.all().size());
  }

  @Test
  void aTopicWithOtherPartitionsAndPolicyIsReportedAndLeftAlone() throws Exception {
    final String pods = catalogue.pods().name();
    admin
        .createTopics(
            List.of(
                new NewTopic(pods, 1, REPLICATION)
                    .configs(
                        Map.of(
                            TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE))))
        .all()
        .get(30, TimeUnit.SECONDS);

    final ProvisioningReport report =
        provisioner.provision(catalogue.all(), PARTITIONS, REPLICATION);

    assertThat(report.mismatched())
        .singleElement()
        .satisfies(
            check -> {
              assertThat(check.topic()).isEqualTo(pods);
              assertThat(check.differences())
                  .containsExactly(
                      "has 1 partitions, expected 3", "cleanup.policy is delete, expected compact");
            });
    assertThat(report.created()).hasSize(catalogue.all().size() - 1).doesNotContain(pods);
    assertThat(report.allMatch()).isFalse();
    assertThat(partitionCount(pods)).isEqualTo(1);
    assertThat(config(pods).get(TopicConfig.CLEANUP_POLICY_CONFIG).value()).isEqualTo("delete");
  }

  @Test
  void aCompactDeletePolicyIsAMismatchForACompactedTopic() throws Exception {
    final String runtime = catalogue.runtime().name();
    admin
        .createTopics(
            List.of(
                new NewTopic(runtime, PARTITIONS, REPLICATION)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, "compact,delete"))))
        .all()
        .get(30, TimeUnit.SECONDS);

    final ProvisioningReport report =
        provisioner.provision(List.of(catalogue.runtime()), PARTITIONS, REPLICATION);

    assertThat(report.check(runtime))
        .hasValueSatisfying(
            check ->
                assertThat(check.differences())
                    .containsExactly("cleanup.policy is compact,delete, expected compact"));
  }

  @Test
  void anUnreachableClusterFailsWithinTheTimeout() {
    try (Admin nowhere =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 1000,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 500))) {
      final TopicProvisioner blind = new TopicProvisioner(nowhere, Duration.ofSeconds(1));

      assertThatThrownBy(() -> blind.provision(catalogue.all(), PARTITIONS, REPLICATION))
          .isInstanceOf(TopicProvisioningException.class)
          .hasMessageStartingWith("Cannot describe topic");
    }
  }

  private int partitionCount(final String topic) throws Exception {
    return admin
        .describeTopics(Set.of(topic))
        .allTopicNames()
        .get(30, TimeUnit.SECONDS)
        .get(topic)
        .partitions()
        .size();
  }

  private Config config(final String topic) throws Exception {
    final ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    return admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
  }
}
