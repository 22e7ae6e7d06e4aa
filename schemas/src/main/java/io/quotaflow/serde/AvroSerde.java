package io.quotaflow.serde;

import java.util.Arrays;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The one serde for quotaflow's Avro records: single-object encoding, null for tombstones, every
 * released writer schema resolved, {@link RecordDecodingException} for bytes that are not a record.
 * It needs no configuration; {@link #configure} is ignored. Take serdes for topics from the topic
 * catalogue; use the factories here only for state stores and internal topics.
 */
public final class AvroSerde<T extends SpecificRecord> implements Serde<T> {
  private final Class<T> type;
  private final RecordRole role;
  private final Serializer<T> serializer;
  private final Deserializer<T> deserializer;
  private final boolean remembering;
  private final byte[] currentHeader;

  private AvroSerde(final Class<T> type, final RecordRole role, final boolean remembering) {
    this.type = Objects.requireNonNull(type, "type");
    this.role = Objects.requireNonNull(role, "role");
    this.remembering = remembering;
    final AvroSerializer<T> encoder = new AvroSerializer<>(type, role);
    final AvroDeserializer<T> decoder = new AvroDeserializer<>(type, role);
    this.currentHeader = encoder.header();
    if (remembering) {
      final RecentRecords<T> recent = new RecentRecords<>(encoder.header());
      this.serializer = recent.serializer(encoder);
      this.deserializer = recent.deserializer(decoder);
    } else {
      this.serializer = encoder;
      this.deserializer = decoder;
    }
  }

  /** A serde for record keys of the generated class {@code type}. */
  public static <T extends SpecificRecord> AvroSerde<T> forKeys(final Class<T> type) {
    return new AvroSerde<>(type, RecordRole.KEY, false);
  }

  /** A serde for record values of the generated class {@code type}. */
  public static <T extends SpecificRecord> AvroSerde<T> forValues(final Class<T> type) {
    return new AvroSerde<>(type, RecordRole.VALUE, false);
  }

  /**
   * A serde for the same records that does not encode a record again while it is among the last few
   * its thread read or wrote through this serde: share one such serde between a store and a topic
   * that receive the same records, or between a topic and the store its records are kept in.
   * Records must not be changed once built or read.
   */
  public AvroSerde<T> rememberingRecentRecords() {
    return new AvroSerde<>(type, role, true);
  }

  /** The generated record class this serde reads and writes. */
  public Class<T> type() {
    return type;
  }

  /** Whether {@code bytes} start like a record this serde writes (its current schema's header). */
  public boolean writesLike(final byte[] bytes) {
    return bytes != null
        && bytes.length >= currentHeader.length
        && Arrays.equals(bytes, 0, currentHeader.length, currentHeader, 0, currentHeader.length);
  }

  /** Whether this serde is meant for keys or values. */
  public RecordRole role() {
    return role;
  }

  @Override
  public Serializer<T> serializer() {
    return serializer;
  }

  @Override
  public Deserializer<T> deserializer() {
    return deserializer;
  }

  @Override
  public String toString() {
    return "AvroSerde["
        + type.getSimpleName()
        + " "
        + role
        + (remembering ? " remembering" : "")
        + "]";
  }
}
