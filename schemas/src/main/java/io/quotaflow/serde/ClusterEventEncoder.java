package io.quotaflow.serde;

import io.quotaflow.schemas.internal.ClusterEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes a {@link ClusterEvent} whose input value its thread just read, remembered by one of the
 * value serdes, by copying that value's encoded body instead of encoding the value again: the
 * event's fields are written in schema order with Avro's own encoder (enum, strings, union index,
 * the copied body, the null eviction result, profile and marker, source topic, partition and
 * offset, the null denial, PodGroup and DRA object), which is what Avro writes for the whole record
 * with the value as its producer wrote it (a decoded map may iterate in another order, so encoding
 * the decoded value again could order its entries differently; both read back as the same record).
 * Any other event (no value, an eviction result, a profile, a marker, a denial, a PodGroup, a DRA
 * object, a value not remembered or read with an older schema) is encoded by the plain serializer.
 * Thread-safe.
 */
final class ClusterEventEncoder implements Serializer<ClusterEvent> {
  private static final int HEADER_LENGTH = 10;

  private final AvroSerializer<ClusterEvent> plain;
  private final List<AvroSerde<?>> values;
  private final byte[] header;
  private final Schema kindSchema;
  private final Schema valueSchema;
  private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

  ClusterEventEncoder(final AvroSerializer<ClusterEvent> plain, final List<AvroSerde<?>> values) {
    this.plain = plain;
    this.values = values;
    this.header = plain.header();
    final Schema schema = ClusterEvent.getClassSchema();
    this.kindSchema = schema.getField("kind").schema();
    this.valueSchema = schema.getField("value").schema();
    // The layout written below, checked once: the fields and their order are Avro's.
    final List<String> fields = schema.getFields().stream().map(Schema.Field::name).toList();
    if (!fields.equals(
        List.of(
            "kind",
            "cluster",
            "namespace",
            "name",
            "value",
            "evictionResult",
            "profile",
            "marker",
            "sourceTopic",
            "sourcePartition",
            "sourceOffset",
            "denial",
            "podGroup",
            "dra"))) {
      throw new IllegalStateException("ClusterEvent's fields changed: " + fields);
    }
  }

  @Override
  public byte[] serialize(final String topic, final ClusterEvent event) {
    if (event == null) {
      return null;
    }
    final Object value = event.getValue().orElse(null);
    final byte[] body = value == null ? null : rememberedBytes(value);
    if (body == null
        || event.getEvictionResult().isPresent()
        || event.getProfile().isPresent()
        || event.getMarker().isPresent()
        || event.getDenial().isPresent()
        || event.getPodGroup().isPresent()
        || event.getDra().isPresent()) {
      return plain.serialize(topic, event);
    }
    final Scratch own = scratch.get();
    try {
      return own.encode(event, value, body);
    } catch (IOException | RuntimeException e) {
      scratch.remove();
      throw new SerializationException(
          "Cannot encode ClusterEvent for topic " + topic + ": " + Failures.describe(e), e);
    }
  }

  private byte[] rememberedBytes(final Object value) {
    for (final AvroSerde<?> serde : values) {
      if (serde.type().isInstance(value)) {
        return serde.recentBytes(value);
      }
    }
    return null;
  }

  /** One thread's buffer and encoder. */
  private final class Scratch {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    private BinaryEncoder encoder;

    byte[] encode(final ClusterEvent event, final Object value, final byte[] body)
        throws IOException {
      out.reset();
      out.write(header);
      encoder = EncoderFactory.get().binaryEncoder(out, encoder);
      encoder.writeEnum(kindSchema.getEnumOrdinal(event.getKind().name()));
      encoder.writeString(event.getCluster());
      encoder.writeString(event.getNamespace());
      encoder.writeString(event.getName());
      encoder.writeIndex(valueSchema.getIndexNamed(value.getClass().getName()));
      encoder.writeFixed(body, HEADER_LENGTH, body.length - HEADER_LENGTH);
      encoder.writeIndex(0);
      encoder.writeIndex(0);
      encoder.writeIndex(0);
      encoder.writeString(event.getSourceTopic());
      encoder.writeInt(event.getSourcePartition());
      encoder.writeLong(event.getSourceOffset());
      encoder.writeIndex(0);
      encoder.writeIndex(0);
      encoder.writeIndex(0);
      encoder.flush();
      return out.toByteArray();
    }
  }
}
