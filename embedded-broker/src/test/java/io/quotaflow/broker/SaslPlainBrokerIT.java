package io.quotaflow.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A broker built with {@code saslPlain}: clients authenticate, and ACLs decide what they may do.
 */
class SaslPlainBrokerIT {

  private static EmbeddedKafkaBroker broker;

  @BeforeAll
  static void start() {
    broker =
        EmbeddedKafkaBroker.builder()
            .saslPlain("admin", Map.of("admin", "admin-secret", "alice", "alice-secret"))
            .build()
            .start();
  }

  @AfterAll
  static void stop() {
    broker.close();
  }

  @Test
  void aUserMayWriteATopicOnlyOnceAnAclAllowsIt() throws Exception {
    final String topic = KafkaClients.uniqueTopic("acl");
    try (Admin admin = Admin.create(new HashMap<>(broker.clientSettings("admin")))) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();

      assertThatThrownBy(() -> send("alice", topic))
          .hasRootCauseInstanceOf(TopicAuthorizationException.class);

      admin
          .createAcls(
              List.of(
                  new AclBinding(
                      new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
                      new AccessControlEntry(
                          "User:alice", "*", AclOperation.WRITE, AclPermissionType.ALLOW))))
          .all()
          .get();
    }

    send("alice", topic);
  }

  @Test
  void aWrongPasswordIsRefused() {
    final Map<String, Object> settings = new HashMap<>(broker.clientSettings("alice"));
    settings.put(
        "sasl.jaas.config",
        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"alice\""
            + " password=\"wrong\";");

    assertThatThrownBy(() -> send(settings, KafkaClients.uniqueTopic("denied")))
        .hasRootCauseInstanceOf(SaslAuthenticationException.class);
  }

  @Test
  void clientSettingsNameTheSaslListener() {
    assertThat(broker.clientSettings("alice"))
        .containsEntry("security.protocol", "SASL_PLAINTEXT")
        .containsEntry("sasl.mechanism", "PLAIN")
        .containsEntry("bootstrap.servers", broker.bootstrapServers());
  }

  private static void send(final String user, final String topic) throws Exception {
    send(new HashMap<>(broker.clientSettings(user)), topic);
  }

  private static void send(final Map<String, Object> settings, final String topic)
      throws ExecutionException, InterruptedException {
    settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) Duration.ofSeconds(10).toMillis());
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(settings, new StringSerializer(), new StringSerializer())) {
      producer.send(new ProducerRecord<>(topic, "k", "v")).get();
    }
  }
}
