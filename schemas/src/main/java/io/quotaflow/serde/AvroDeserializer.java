package io.quotaflow.serde;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.message.BadHeaderException;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.MissingSchemaException;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads single-object encoded Avro records into the current generated class, resolving records
 * written with any released version of its schema (see {@link SchemaHistory}). A null byte array (a
 * tombstone) reads as null. Anything else that is not a valid record raises {@link
 * RecordDecodingException}. Thread-safe.
 */
public final class AvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {
  private static final int MARKER_LENGTH = 2;
  private static final int HEADER_LENGTH = MARKER_LENGTH + Long.BYTES;
  private static final byte MARKER_0 = (byte) 0xC3;
  private static final byte MARKER_1 = (byte) 0x01;

  private final Class<T> type;
  private final RecordRole role;
  private final BinaryMessageDecoder<T> decoder;

  /** A deserializer for {@code type} that knows every version in its classpath history. */
  public AvroDeserializer(final Class<T> type, final RecordRole role) {
    this(type, role, SchemaHistory.of(type));
  }

  /** A deserializer for {@code type} that resolves writer schemas from {@code history}. */
  public AvroDeserializer(final Class<T> type, final RecordRole role, final SchemaHistory history) {
    this.type = Objects.requireNonNull(type, "type");
    this.role = Objects.requireNonNull(role, "role");
    final SpecificData model = SpecificData.getForClass(type);
    final Schema readerSchema = model.getSchema(type);
    this.decoder = new BinaryMessageDecoder<>(model, readerSchema, history.store());
  }

  @Override
  public T deserialize(final String topic, final byte[] data) {
    if (data == null) {
      return null;
    }
    final ByteArrayInputStream in = new ByteArrayInputStream(data);
    final T record;
    try {
      record = decoder.decode(in, null);
    } catch (BadHeaderException e) {
      throw failure(topic, headerProblem(data), e);
    } catch (MissingSchemaException e) {
      throw failure(
          topic,
          String.format(
              "unknown schema fingerprint %s: neither the current %s schema nor any released"
                  + " version of it",
              fingerprint(data), type.getSimpleName()),
          e);
    } catch (IOException | RuntimeException e) {
      throw failure(
          topic,
          String.format(
              "%d bytes with schema fingerprint %s are not a valid %s: %s",
              data.length, fingerprint(data), type.getSimpleName(), Failures.describe(e)),
          e);
    }
    if (in.available() > 0) {
      throw failure(
          topic,
          String.format(
              "%d trailing bytes after a complete %s record", in.available(), type.getSimpleName()),
          null);
    }
    return record;
  }

  private RecordDecodingException failure(
      final String topic, final String reason, final Throwable cause) {
    return new RecordDecodingException(topic, role, reason, cause);
  }

  private static String headerProblem(final byte[] data) {
    if (data.length >= MARKER_LENGTH && (data[0] != MARKER_0 || data[1] != MARKER_1)) {
      return String.format(
          "not single-object encoded Avro: starts with 0x%02X 0x%02X instead of the marker"
              + " 0xC3 0x01",
          data[0], data[1]);
    }
    return String.format(
        "not single-object encoded Avro: %d bytes, shorter than the %d-byte header",
        data.length, HEADER_LENGTH);
  }

  /** The writer's schema fingerprint as hex, as {@code SchemaNormalization} computes it. */
  private static String fingerprint(final byte[] data) {
    if (data.length < HEADER_LENGTH) {
      return "(none)";
    }
    final long value =
        ByteBuffer.wrap(data, MARKER_LENGTH, Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).getLong();
    return String.format("0x%016X", value);
  }
}
