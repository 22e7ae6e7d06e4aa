package io.quotaflow.cli.topics;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.topics.RejectedRecordHeaders;
import io.quotaflow.topics.RejectedRecordHeaders.Rejection;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;

/**
 * One JSON line per record of a quotaflow topic, decoded with the topic's serdes from the catalogue
 * (which read every released schema version):
 *
 * <pre>{@code
 * {"topic", "partition", "offset", "timestamp", "key", "value", "headers"}
 * }</pre>
 *
 * A tombstone has {@code "value": null} and {@code "tombstone": true}. Bytes that do not decode are
 * shown in base64 with the reason in {@code "keyError"} or {@code "valueError"}. A dead letter (on
 * the rejected topic) has its original key and value decoded with the serdes of the topic it was
 * read from, where that is one of ours, and a {@code "rejection"} object from its headers (source
 * topic, partition, offset, exception, message); its stack trace header is left out.
 */
final class RecordLines {

  private static final JsonMapper JSON = new JsonMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Set<String> DEAD_LETTER_HEADERS =
      Set.of(
          RejectedRecordHeaders.EXCEPTION,
          RejectedRecordHeaders.MESSAGE,
          RejectedRecordHeaders.STACKTRACE,
          RejectedRecordHeaders.SOURCE_TOPIC,
          RejectedRecordHeaders.SOURCE_PARTITION,
          RejectedRecordHeaders.SOURCE_OFFSET);

  private final TopicCatalogue catalogue;
  private final Topic<?, ?> topic;

  RecordLines(final TopicCatalogue catalogue, final Topic<?, ?> topic) {
    this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
    this.topic = Objects.requireNonNull(topic, "topic");
  }

  /** The record as one line of JSON, without a line break. */
  String line(final ConsumerRecord<byte[], byte[]> record) {
    try {
      return JSON.writeValueAsString(node(record));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The record as a JSON object. */
  ObjectNode node(final ConsumerRecord<byte[], byte[]> record) {
    final ObjectNode line = NODES.objectNode();
    line.put("topic", record.topic());
    line.put("partition", record.partition());
    line.put("offset", record.offset());
    line.put("timestamp", Instant.ofEpochMilli(record.timestamp()).toString());
    final Optional<Rejection> rejection =
        topic.name().equals(catalogue.rejected().name())
            ? RejectedRecordHeaders.read(record.headers())
            : Optional.empty();
    final Topic<?, ?> decodedAs =
        rejection.flatMap(r -> catalogue.byName(r.sourceTopic())).orElse(topic);
    decode(line, "key", decodedAs, true, record.key());
    decode(line, "value", decodedAs, false, record.value());
    if (record.value() == null) {
      line.put("tombstone", true);
    }
    rejection.ifPresent(r -> line.set("rejection", rejection(r)));
    final ObjectNode headers = headers(record, rejection.isPresent());
    if (!headers.isEmpty()) {
      line.set("headers", headers);
    }
    return line;
  }

  private static void decode(
      final ObjectNode line,
      final String field,
      final Topic<?, ?> as,
      final boolean key,
      final byte[] bytes) {
    if (bytes == null) {
      line.putNull(field);
      return;
    }
    try {
      final Object decoded =
          key
              ? as.keyDeserializer().deserialize(as.name(), bytes)
              : as.valueDeserializer().deserialize(as.name(), bytes);
      line.set(field, AvroJson.of(decoded));
    } catch (SerializationException e) {
      line.set(field, AvroJson.base64(bytes));
      line.put(field + "Error", e.getMessage());
    }
  }

  private static ObjectNode rejection(final Rejection rejection) {
    final ObjectNode node = NODES.objectNode();
    node.put("sourceTopic", rejection.sourceTopic());
    node.put("sourcePartition", rejection.sourcePartition());
    node.put("sourceOffset", rejection.sourceOffset());
    node.put("exception", rejection.exceptionClass());
    node.put("message", rejection.message());
    return node;
  }

  /** Headers as text; a dead letter's own headers are in {@code "rejection"} already. */
  private static ObjectNode headers(
      final ConsumerRecord<byte[], byte[]> record, final boolean deadLetter) {
    final ObjectNode headers = NODES.objectNode();
    for (final Header header : record.headers()) {
      if (deadLetter && DEAD_LETTER_HEADERS.contains(header.key())) {
        continue;
      }
      headers.set(
          header.key(),
          header.value() == null
              ? NODES.nullNode()
              : (JsonNode) NODES.textNode(new String(header.value(), StandardCharsets.UTF_8)));
    }
    return headers;
  }
}
