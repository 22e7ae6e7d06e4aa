package io.quotaflow.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes a generated Avro record with single-object encoding: the 2-byte marker {@code C3 01}, the
 * 8-byte little-endian parsing fingerprint of the current schema, then the binary body. A null
 * record (a tombstone) is written as null. Thread-safe.
 */
public final class AvroSerializer<T extends SpecificRecord> implements Serializer<T> {
  private final Class<T> type;
  private final RecordRole role;
  private final BinaryMessageEncoder<T> encoder;

  /** A serializer for records of {@code type}, used for the given role. */
  public AvroSerializer(final Class<T> type, final RecordRole role) {
    this.type = Objects.requireNonNull(type, "type");
    this.role = Objects.requireNonNull(role, "role");
    // The generated class's own model carries its logical type conversions (Instant).
    final SpecificData model = SpecificData.getForClass(type);
    final Schema schema = model.getSchema(type);
    this.encoder = new BinaryMessageEncoder<>(model, schema);
  }

  @Override
  public byte[] serialize(final String topic, final T data) {
    if (data == null) {
      return null;
    }
    final ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    try {
      encoder.encode(data, out);
    } catch (IOException | RuntimeException e) {
      throw new SerializationException(
          "Cannot encode "
              + role
              + " "
              + type.getSimpleName()
              + " for topic "
              + topic
              + ": "
              + Failures.describe(e),
          e);
    }
    return out.toByteArray();
  }
}
