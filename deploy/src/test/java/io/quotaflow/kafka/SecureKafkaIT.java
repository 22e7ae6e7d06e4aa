package io.quotaflow.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.fixtures.RunningSystem;
import io.quotaflow.local.DemoClusters;
import io.quotaflow.topics.TopicCatalogue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine and the connectors on a broker that authenticates clients (SASL) and enforces ACLs,
 * each with the credentials of its KafkaUser read from a mounted Secret through Kafka's directory
 * config provider, and with exactly the ACLs of {@code deploy/kubernetes/strimzi/users.yaml}: they
 * start, compute the tree, evict and write status.
 */
@Tag("system")
class SecureKafkaIT {

  private static final String ENGINE = "quotaflow-engine";
  private static final String CONNECTORS = "quotaflow-connectors";
  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;

  @Test
  void theEngineAndTheConnectorsRunWithTheirKafkaUsersCredentialsAndAclsOnly() throws Exception {
    try (EmbeddedKafkaBroker broker =
        EmbeddedKafkaBroker.builder()
            .saslPlain(
                "admin",
                Map.of(
                    "admin",
                    "admin-password",
                    ENGINE,
                    "engine-password",
                    CONNECTORS,
                    "connectors-password"))
            .build()
            .start()) {
      try (Admin admin = Admin.create(new HashMap<>(broker.clientSettings("admin")))) {
        admin.createAcls(StrimziExamples.aclBindings()).all().get();
      }

      try (RunningSystem system =
          RunningSystem.builder(broker.bootstrapServers(), dir)
              .topicPrefix(TopicCatalogue.DEFAULT_PREFIX)
              .names(ENGINE, "quotaflow-eviction-executor", "quotaflow-status-writer")
              .engineKafka(fromMountedSecret(broker, ENGINE))
              .connectorsKafka(fromMountedSecret(broker, CONNECTORS))
              .start()) {
        await()
            .ignoreExceptions()
            .atMost(WAIT)
            .until(
                () ->
                    system
                        .get(
                            system.pluginUrl()
                                + "/api/v1/clusters/"
                                + DemoClusters.NAME
                                + "/quotas")
                        .body()
                        .contains("\"research-vision\""));
        await()
            .ignoreExceptions()
            .atMost(WAIT)
            .until(
                () ->
                    system
                        .connectorsMetrics()
                        .body()
                        .contains(
                            "quotaflow_evictions_results_total{cluster=\"demo\",outcome=\"EVICTED\","
                                + "reason=\"reclaimed-after-delay\"}"));
        assertThat(system.cluster().evicted()).isNotEmpty();
        await()
            .ignoreExceptions()
            .atMost(WAIT)
            .until(
                () -> system.connectorsMetrics().body().contains("quotaflow_status_patches_total"));
      }
      // Issue 25: only the engine writes eviction commands, only the connectors write inputs.
      assertThat(refusedToWrite(broker, CONNECTORS, "quotaflow.evictions.v1"))
          .as("the connectors' user commands an eviction")
          .isTrue();
      assertThat(refusedToWrite(broker, ENGINE, "quotaflow.pods.v1"))
          .as("the engine's user forges a pod")
          .isTrue();
      assertThat(refusedToWrite(broker, ENGINE, "quotaflow.runtime.v1"))
          .as("the engine's user writes its own topic")
          .isFalse();
    }
  }

  /** Whether {@code user}'s write of one record to {@code topic} is refused by the ACLs. */
  private static boolean refusedToWrite(
      final EmbeddedKafkaBroker broker, final String user, final String topic) throws Exception {
    final Map<String, Object> settings = new HashMap<>(broker.clientSettings(user));
    settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
    settings.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000);
    settings.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(topic, new byte[] {1}, new byte[] {2})).get();
      return false;
    } catch (ExecutionException e) {
      return e.getCause() instanceof TopicAuthorizationException;
    } catch (TopicAuthorizationException e) {
      return true;
    }
  }

  /**
   * The Kafka settings of a deployment whose KafkaUser Secret is mounted as files: the JAAS
   * configuration is read from the Secret's key {@code sasl.jaas.config} by Kafka's directory
   * config provider, never written into the settings.
   */
  private Map<String, String> fromMountedSecret(final EmbeddedKafkaBroker broker, final String user)
      throws IOException {
    final Map<String, String> client = broker.clientSettings(user);
    final Path secret = Files.createDirectories(dir.resolve("secrets").resolve(user));
    Files.writeString(secret.resolve("sasl.jaas.config"), client.get("sasl.jaas.config"));
    final Map<String, String> settings = new HashMap<>();
    settings.put("security.protocol", client.get("security.protocol"));
    settings.put("sasl.mechanism", client.get("sasl.mechanism"));
    settings.put("config.providers", "secret");
    settings.put(
        "config.providers.secret.class",
        "org.apache.kafka.common.config.provider.DirectoryConfigProvider");
    settings.put("sasl.jaas.config", "${secret:" + secret + ":sasl.jaas.config}");
    return settings;
  }
}
