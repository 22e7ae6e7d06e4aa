package io.quotaflow.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes a generated Avro record with single-object encoding: the 2-byte marker {@code C3 01}, the
 * 8-byte little-endian parsing fingerprint of the current schema, then the binary body. A null
 * record (a tombstone) is written as null. Thread-safe.
 *
 * <p>Each thread encodes into its own reused buffer through a buffered encoder and copies the
 * result out once: the serializer sits on the engine's hottest path, where a fresh small stream per
 * record (grown and copied as the record is written byte by byte) was the largest cost.
 */
public final class AvroSerializer<T extends SpecificRecord> implements Serializer<T> {
  // A buffer grown past this by one large record is dropped rather than kept by the thread.
  private static final int KEPT_BUFFER_BYTES = 64 * 1024;

  private final Class<T> type;
  private final RecordRole role;
  private final byte[] header;
  private final DatumWriter<T> writer;
  private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

  /** A serializer for records of {@code type}, used for the given role. */
  public AvroSerializer(final Class<T> type, final RecordRole role) {
    this.type = Objects.requireNonNull(type, "type");
    this.role = Objects.requireNonNull(role, "role");
    GeneratedClasses.initialize(type);
    // The generated class's own model carries its logical type conversions (Instant).
    final SpecificData model = SpecificData.getForClass(type);
    final Schema schema = model.getSchema(type);
    this.header = header(schema);
    @SuppressWarnings("unchecked")
    final DatumWriter<T> datumWriter = (DatumWriter<T>) model.createDatumWriter(schema);
    this.writer = datumWriter;
  }

  @Override
  public byte[] serialize(final String topic, final T data) {
    if (data == null) {
      return null;
    }
    final Scratch own = scratch.get();
    try {
      return own.encode(data);
    } catch (IOException | RuntimeException e) {
      scratch.remove();
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
  }

  /** The first bytes of every record this serializer writes. */
  byte[] header() {
    return header.clone();
  }

  /** The single-object encoding header of {@code schema}: marker, then fingerprint. */
  private static byte[] header(final Schema schema) {
    return ByteBuffer.allocate(10)
        .order(ByteOrder.LITTLE_ENDIAN)
        .put((byte) 0xC3)
        .put((byte) 0x01)
        .putLong(SchemaNormalization.parsingFingerprint64(schema))
        .array();
  }

  /** One thread's buffer and encoder. */
  private final class Scratch {
    private ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    private BinaryEncoder encoder;

    byte[] encode(final T data) throws IOException {
      out.reset();
      out.write(header);
      encoder = EncoderFactory.get().binaryEncoder(out, encoder);
      writer.write(data, encoder);
      encoder.flush();
      final byte[] bytes = out.toByteArray();
      if (bytes.length > KEPT_BUFFER_BYTES) {
        out = new ByteArrayOutputStream(512);
        encoder = null;
      }
      return bytes;
    }
  }
}
