package io.quotaflow.cli.topics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;

/**
 * A decoded Avro record as plain JSON, field by field in schema order: strings, numbers and
 * booleans as themselves, enums by symbol, timestamps as ISO-8601 text, maps with their keys sorted
 * (Avro's maps have no order), bytes in base64. Unlike Avro's own JSON encoding, a union value is
 * the value itself, not an object naming its branch.
 */
final class AvroJson {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private AvroJson() {}

  /** The JSON of any value a deserializer of ours returns: a record, raw bytes, or null. */
  static JsonNode of(final Object value) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof IndexedRecord record) {
      return record(record);
    }
    if (value instanceof CharSequence text) {
      return NODES.textNode(text.toString());
    }
    if (value instanceof Integer number) {
      return NODES.numberNode(number);
    }
    if (value instanceof Long number) {
      return NODES.numberNode(number);
    }
    if (value instanceof Float number) {
      return Float.isFinite(number) ? NODES.numberNode(number) : NODES.textNode(number.toString());
    }
    if (value instanceof Double number) {
      return Double.isFinite(number) ? NODES.numberNode(number) : NODES.textNode(number.toString());
    }
    if (value instanceof Boolean flag) {
      return NODES.booleanNode(flag);
    }
    if (value instanceof Instant instant) {
      return NODES.textNode(instant.toString());
    }
    if (value instanceof Enum<?> symbol) {
      return NODES.textNode(symbol.name());
    }
    if (value instanceof GenericEnumSymbol<?> symbol) {
      return NODES.textNode(symbol.toString());
    }
    if (value instanceof Map<?, ?> map) {
      final Map<String, Object> sorted = new TreeMap<>();
      map.forEach((key, entry) -> sorted.put(String.valueOf(key), entry));
      final ObjectNode node = NODES.objectNode();
      sorted.forEach((key, entry) -> node.set(key, of(entry)));
      return node;
    }
    if (value instanceof Collection<?> items) {
      final ArrayNode node = NODES.arrayNode();
      items.forEach(item -> node.add(of(item)));
      return node;
    }
    if (value instanceof ByteBuffer buffer) {
      final ByteBuffer copy = buffer.duplicate();
      final byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      return base64(bytes);
    }
    if (value instanceof GenericFixed fixed) {
      return base64(fixed.bytes());
    }
    if (value instanceof byte[] bytes) {
      return base64(bytes);
    }
    return NODES.textNode(value.toString());
  }

  /** Bytes that are not a record: {@code {"base64": "..."}}. */
  static ObjectNode base64(final byte[] bytes) {
    final ObjectNode node = NODES.objectNode();
    node.put("base64", Base64.getEncoder().encodeToString(bytes));
    return node;
  }

  private static ObjectNode record(final IndexedRecord record) {
    final ObjectNode node = NODES.objectNode();
    for (final Schema.Field field : record.getSchema().getFields()) {
      node.set(field.name(), of(record.get(field.pos())));
    }
    return node;
  }
}
