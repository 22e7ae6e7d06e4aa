package io.quotaflow.serde;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads single-object encoded Avro records into the current generated class, resolving records
 * written with any released version of its schema (see {@link SchemaHistory}). A null byte array (a
 * tombstone) reads as null. Anything else that is not exactly one valid record raises {@link
 * RecordDecodingException}. Thread-safe.
 */
public final class AvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {
  private static final int MARKER_LENGTH = 2;
  private static final int HEADER_LENGTH = MARKER_LENGTH + Long.BYTES;
  private static final byte MARKER_0 = (byte) 0xC3;
  private static final byte MARKER_1 = (byte) 0x01;

  private final Class<T> type;
  private final RecordRole role;
  private final Map<Long, Schema> writerSchemas;
  private final BinaryMessageDecoder<T> decoder;

  /** A deserializer for {@code type} that knows every version in its classpath history. */
  public AvroDeserializer(final Class<T> type, final RecordRole role) {
    this(type, role, SchemaHistory.of(type));
  }

  /** A deserializer for {@code type} that resolves writer schemas from {@code history}. */
  public AvroDeserializer(final Class<T> type, final RecordRole role, final SchemaHistory history) {
    this.type = Objects.requireNonNull(type, "type");
    this.role = Objects.requireNonNull(role, "role");
    GeneratedClasses.initialize(type);
    final SpecificData model = SpecificData.getForClass(type);
    final Schema readerSchema = model.getSchema(type);
    final Map<Long, Schema> schemas = new HashMap<>();
    history.versions().forEach(schema -> schemas.put(fingerprintOf(schema), schema));
    schemas.put(fingerprintOf(readerSchema), readerSchema);
    this.writerSchemas = Map.copyOf(schemas);
    this.decoder = new BinaryMessageDecoder<>(model, readerSchema, history.store());
  }

  @Override
  public T deserialize(final String topic, final byte[] data) {
    if (data == null) {
      return null;
    }
    final Schema writer = writerSchema(topic, data);
    checkBody(topic, data, writer);
    try {
      return decoder.decode(data);
    } catch (IOException | RuntimeException e) {
      throw undecodable(topic, data, "do not resolve to a", e);
    }
  }

  /** The writer's schema named by the header, or a failure saying what is wrong with it. */
  private Schema writerSchema(final String topic, final byte[] data) {
    if (data.length >= MARKER_LENGTH && (data[0] != MARKER_0 || data[1] != MARKER_1)) {
      throw failure(
          topic,
          String.format(
              "not single-object encoded Avro: starts with 0x%02X 0x%02X instead of the marker"
                  + " 0xC3 0x01",
              data[0], data[1]),
          null);
    }
    if (data.length < HEADER_LENGTH) {
      throw failure(
          topic,
          String.format(
              "not single-object encoded Avro: %d bytes, shorter than the %d-byte header",
              data.length, HEADER_LENGTH),
          null);
    }
    final Schema writer = writerSchemas.get(fingerprint(data));
    if (writer == null) {
      throw failure(
          topic,
          String.format(
              "unknown schema fingerprint %s: neither the current %s schema nor any released"
                  + " version of it",
              fingerprintHex(data), type.getSimpleName()),
          null);
    }
    return writer;
  }

  /**
   * Walks the body with the writer's schema without building anything: a corrupted length fails
   * here on the bytes actually present, instead of making the decoder allocate what it claims.
   */
  private void checkBody(final String topic, final byte[] data, final Schema writer) {
    final BinaryDecoder body =
        DecoderFactory.get().binaryDecoder(data, HEADER_LENGTH, data.length - HEADER_LENGTH, null);
    try {
      GenericDatumReader.skip(writer, body);
      if (!body.isEnd()) {
        throw failure(
            topic,
            String.format("trailing bytes after a complete %s record", type.getSimpleName()),
            null);
      }
    } catch (IOException | RuntimeException e) {
      if (e instanceof RecordDecodingException decoding) {
        throw decoding;
      }
      throw undecodable(topic, data, "are not a valid", e);
    }
  }

  private RecordDecodingException failure(
      final String topic, final String reason, final Throwable cause) {
    return new RecordDecodingException(topic, role, reason, cause);
  }

  /** {@code data} has a known header but a body that is not a {@code type}, as {@code e} says. */
  private RecordDecodingException undecodable(
      final String topic, final byte[] data, final String problem, final Exception e) {
    return failure(
        topic,
        String.format(
            "%d bytes with schema fingerprint %s %s %s: %s",
            data.length, fingerprintHex(data), problem, type.getSimpleName(), Failures.describe(e)),
        e);
  }

  private static long fingerprintOf(final Schema schema) {
    return SchemaNormalization.parsingFingerprint64(schema);
  }

  /**
   * The writer's schema fingerprint from the header, as {@code SchemaNormalization} computes it.
   */
  private static long fingerprint(final byte[] data) {
    return ByteBuffer.wrap(data, MARKER_LENGTH, Long.BYTES)
        .order(ByteOrder.LITTLE_ENDIAN)
        .getLong();
  }

  private static String fingerprintHex(final byte[] data) {
    return String.format("0x%016X", fingerprint(data));
  }
}
