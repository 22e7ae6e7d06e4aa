package io.quotaflow.cli.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.broker.EmbeddedKafkaExtension;
import io.quotaflow.fixtures.CommandRun;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodPhase;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.serde.SchemaHistory;
import io.quotaflow.topics.RejectedRecordHeaders;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * {@code quotaflow topics tail} against a real broker: records of every kind a quotaflow topic
 * holds (values, tombstones, undecodable bytes, records of an older schema, dead letters) printed
 * as JSON lines.
 */
@Tag("system")
@ExtendWith(EmbeddedKafkaExtension.class)
class TopicsTailIT {

  private static final JsonMapper JSON = new JsonMapper();
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private EmbeddedKafkaBroker broker;
  private String prefix;
  private TopicCatalogue topics;

  @BeforeEach
  void createTopics(final EmbeddedKafkaBroker broker) throws Exception {
    this.broker = broker;
    prefix = "tail-" + UUID.randomUUID().toString().substring(0, 8) + ".";
    topics = TopicCatalogue.withPrefix(prefix);
    try (Admin admin =
        Admin.create(
            Map.<String, Object>of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
      admin
          .createTopics(topics.all().stream().map(topic -> topic.newTopic(2, (short) 1)).toList())
          .all()
          .get();
    }
  }

  @Test
  void printsEveryRecordFromTheBeginningWithTombstonesAndUndecodableBytes() throws Exception {
    send(pods(), podKey("a"), pod("uid-a"), 0);
    send(pods(), podKey("b"), pod("uid-b"), 1);
    send(pods(), podKey("a"), null, 2);
    sendRaw(topics.pods().name(), serialize(pods(), podKey("c"), true), "garbage".getBytes(), 3);

    final List<JsonNode> lines = tail("pods.v1", "--from-beginning");

    assertThat(lines).hasSize(4);
    // pods.v1 is an input topic, stamped by the broker (LogAppendTime): records are told apart by
    // key and kind, not by the timestamps the producer set.
    assertThat(lines).allSatisfy(line -> assertThat(line.get("timestamp").asText()).isNotEmpty());
    final JsonNode first = line(lines, "a", false);
    assertThat(first.get("topic").asText()).isEqualTo(topics.pods().name());
    assertThat(first.get("key").get("name").asText()).isEqualTo("a");
    assertThat(first.get("value").get("uid").asText()).isEqualTo("uid-a");
    assertThat(first.get("value").get("phase").asText()).isEqualTo("RUNNING");
    assertThat(first.get("value").get("requests").get("cpu").asLong()).isEqualTo(500);
    assertThat(first.get("value").get("creationTime").asText()).isEqualTo(T0.toString());
    assertThat(first.has("tombstone")).isFalse();
    final JsonNode tombstone = line(lines, "a", true);
    assertThat(tombstone.get("key").get("name").asText()).isEqualTo("a");
    assertThat(tombstone.get("value").isNull()).isTrue();
    assertThat(tombstone.get("tombstone").asBoolean()).isTrue();
    final JsonNode garbage = line(lines, "c", false);
    assertThat(garbage.get("key").get("name").asText()).isEqualTo("c");
    assertThat(garbage.get("value").get("base64").asText()).isEqualTo("Z2FyYmFnZQ==");
    assertThat(garbage.get("valueError").asText()).contains("not single-object encoded Avro");
  }

  @Test
  void printsTheLastRecordsInTimestampOrder() throws Exception {
    for (int i = 0; i < 6; i++) {
      send(pods(), podKey("p" + i), pod("uid-" + i), i);
    }

    final List<JsonNode> lines = tail("pods.v1", "-n", "3");

    assertThat(lines)
        .extracting(line -> line.get("key").get("name").asText())
        .containsExactly("p3", "p4", "p5");
  }

  @Test
  void decodesARecordWrittenWithAnOlderSchemaVersion() throws Exception {
    final Schema v1 = SchemaHistory.of(GroupRuntime.class).versions().get(0);
    final GenericRecord old =
        new GenericRecordBuilder(v1)
            .set("runtime", Map.of("cpu", 4_000L))
            .set("computedAt", T0.toEpochMilli())
            .build();
    final byte[] value =
        new BinaryMessageEncoder<GenericRecord>(GenericData.get(), v1).encode(old).array();
    sendRaw(
        topics.runtime().name(),
        serialize(topics.runtime(), new QuotaKey("east", "team-a"), true),
        value,
        0);

    final List<JsonNode> lines = tail(topics.runtime().name(), "--from-beginning");

    assertThat(lines)
        .singleElement()
        .satisfies(
            line -> {
              assertThat(line.get("key").get("name").asText()).isEqualTo("team-a");
              assertThat(line.get("value").get("computedAt").asText()).isEqualTo(T0.toString());
              assertThat(line.get("value").get("runtime").get("cpu").asLong()).isEqualTo(4_000);
              assertThat(line.has("valueError")).isFalse();
            });
  }

  @Test
  void printsDeadLettersDecodedAsTheirSourceTopicWithTheReason() throws Exception {
    final RecordHeaders headers = new RecordHeaders();
    RejectedRecordHeaders.write(
        headers,
        topics.pods().name(),
        1,
        42,
        new IllegalArgumentException("pod team/a has no uid"));
    sendRaw(
        topics.rejected().name(),
        serialize(pods(), podKey("a"), true),
        serialize(pods(), pod(""), false),
        0,
        headers);

    final List<JsonNode> lines = tail("rejected.v1", "--from-beginning");

    assertThat(lines)
        .singleElement()
        .satisfies(
            line -> {
              assertThat(line.get("key").get("name").asText()).isEqualTo("a");
              assertThat(line.get("value").get("uid").asText()).isEmpty();
              final JsonNode rejection = line.get("rejection");
              assertThat(rejection.get("sourceTopic").asText()).isEqualTo(topics.pods().name());
              assertThat(rejection.get("sourcePartition").asInt()).isEqualTo(1);
              assertThat(rejection.get("sourceOffset").asLong()).isEqualTo(42);
              assertThat(rejection.get("exception").asText())
                  .isEqualTo(IllegalArgumentException.class.getName());
              assertThat(rejection.get("message").asText()).isEqualTo("pod team/a has no uid");
              assertThat(line.has("headers")).as("the stack trace is left out").isFalse();
            });
  }

  @Test
  void followsNewRecordsUntilStopped() throws Exception {
    send(pods(), podKey("old"), pod("uid-old"), 0);
    final StringWriter out = new StringWriter();
    final TailCommand command = new TailCommand(Map.of());
    final CommandLine commandLine = new CommandLine(command);
    commandLine.setOut(new PrintWriter(out, true));
    final CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () ->
                commandLine.execute(
                    "pods.v1",
                    "--bootstrap-servers",
                    broker.bootstrapServers(),
                    "--topic-prefix",
                    prefix,
                    "--follow"));
    await().atMost(WAIT).until(() -> out.toString().contains("uid-old"));

    send(pods(), podKey("new"), pod("uid-new"), 1);

    await().atMost(WAIT).until(() -> out.toString().contains("uid-new"));
    command.stop();
    assertThat(exit).succeedsWithin(WAIT).isEqualTo(0);
    assertThat(out.toString().lines()).hasSize(2);
  }

  @Test
  void anUnknownTopicIsAUsageErrorListingTheTopics() {
    final CommandRun run =
        CommandRun.of(
            "topics", "tail", "podz.v1", "--bootstrap-servers", broker.bootstrapServers());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("Unknown topic 'podz.v1'; quotaflow's topics are quotaflow.pods.v1,");
  }

  @Test
  void aBadBootstrapAddressIsAnErrorThatSaysWhy() {
    final CommandRun run =
        CommandRun.of("topics", "tail", "pods.v1", "--bootstrap-servers", "127.0.0.1:9092.");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .startsWith("tail: cannot create a Kafka consumer: ")
        .contains("127.0.0.1:9092.");
  }

  @Test
  void theLastRecordsOfATransactionalTopicAreFoundPastItsCommitMarkers() throws Exception {
    try (KafkaProducer<byte[], byte[]> producer = transactional()) {
      producer.initTransactions();
      for (int i = 0; i < 3; i++) {
        producer.beginTransaction();
        producer.send(
            new ProducerRecord<>(
                topics.evictionResults().name(),
                0,
                T0.plusSeconds(i).toEpochMilli(),
                serialize(topics.pods(), podKey("r" + i), true),
                "not a result".getBytes(StandardCharsets.UTF_8)));
        producer.commitTransaction();
      }
    }

    final List<JsonNode> lines = tail("eviction-results.v1", "-n", "2");

    assertThat(lines)
        .extracting(line -> line.get("key").get("name").asText())
        .containsExactly("r1", "r2");
  }

  @Test
  void aTopicMissingFromKafkaIsAnErrorAndIsNotCreated() throws Exception {
    final String missing = "missing-" + UUID.randomUUID().toString().substring(0, 8) + ".";

    final CommandRun run =
        CommandRun.of(
            "topics",
            "tail",
            "pods.v1",
            "--bootstrap-servers",
            broker.bootstrapServers(),
            "--topic-prefix",
            missing);

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .isEqualToIgnoringNewLines(
            "tail: topic " + missing + "pods.v1 does not exist in this Kafka");
    try (Admin admin =
        Admin.create(
            Map.<String, Object>of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
      assertThat(admin.listTopics().names().get()).doesNotContain(missing + "pods.v1");
    }
  }

  private List<JsonNode> tail(final String topic, final String... options) throws Exception {
    final List<String> args =
        new ArrayList<>(
            List.of(
                "topics",
                "tail",
                topic,
                "--bootstrap-servers",
                broker.bootstrapServers(),
                "--topic-prefix",
                prefix));
    args.addAll(List.of(options));
    final CommandRun run = CommandRun.of(args.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.err()).isZero();
    final List<JsonNode> lines = new ArrayList<>();
    for (final String line : run.out().lines().toList()) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }

  /** The line of the record of pod {@code name}, the tombstone or not. */
  private static JsonNode line(final List<JsonNode> lines, final String name, final boolean tomb) {
    return lines.stream()
        .filter(line -> line.get("key").get("name").asText().equals(name))
        .filter(line -> line.path("tombstone").asBoolean(false) == tomb)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no record of " + name + " in " + lines));
  }

  private Topic<PodKey, PodState> pods() {
    return topics.pods();
  }

  private static PodKey podKey(final String name) {
    return new PodKey("east", "team", name);
  }

  private static PodState pod(final String uid) {
    return PodState.newBuilder()
        .setUid(uid)
        .setPhase(PodPhase.RUNNING)
        .setNodeName("n1")
        .setRequests(Map.of("cpu", 500L))
        .setCreationTime(T0)
        .build();
  }

  private <K, V> void send(final Topic<K, V> topic, final K key, final V value, final int second)
      throws Exception {
    sendRaw(topic.name(), serialize(topic, key, true), serialize(topic, value, false), second);
  }

  @SuppressWarnings("unchecked")
  private static <K, V> byte[] serialize(
      final Topic<K, V> topic, final Object data, final boolean key) {
    return key
        ? topic.keySerializer().serialize(topic.name(), (K) data)
        : topic.valueSerializer().serialize(topic.name(), (V) data);
  }

  private KafkaProducer<byte[], byte[]> transactional() {
    return new KafkaProducer<>(
        Map.<String, Object>of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            broker.bootstrapServers(),
            ProducerConfig.TRANSACTIONAL_ID_CONFIG,
            "tail-" + UUID.randomUUID()),
        new ByteArraySerializer(),
        new ByteArraySerializer());
  }

  private void sendRaw(final String topic, final byte[] key, final byte[] value, final int second)
      throws Exception {
    sendRaw(topic, key, value, second, new RecordHeaders());
  }

  private void sendRaw(
      final String topic,
      final byte[] key,
      final byte[] value,
      final int second,
      final RecordHeaders headers)
      throws Exception {
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            Map.<String, Object>of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
            new ByteArraySerializer(),
            new ByteArraySerializer())) {
      producer
          .send(
              new ProducerRecord<>(
                  topic, null, T0.plusSeconds(second).toEpochMilli(), key, value, headers))
          .get();
    }
  }
}
