package io.quotaflow.serde;

import io.quotaflow.schemas.internal.ClusterEvent;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
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
  private final RecentRecords<T> recent;

  private AvroSerde(final Class<T> type, final RecordRole role, final boolean remembering) {
    this(type, role, remembering, plain -> plain);
  }

  /**
   * @param encoding the encoder the serde uses, given the plain one (a remembering serde asks its
   *     recent records first)
   */
  private AvroSerde(
      final Class<T> type,
      final RecordRole role,
      final boolean remembering,
      final Function<AvroSerializer<T>, Serializer<T>> encoding) {
    this.type = Objects.requireNonNull(type, "type");
    this.role = Objects.requireNonNull(role, "role");
    this.remembering = remembering;
    final AvroSerializer<T> plain = new AvroSerializer<>(type, role);
    final Serializer<T> encoder = encoding.apply(plain);
    final AvroDeserializer<T> decoder = new AvroDeserializer<>(type, role);
    this.currentHeader = plain.header();
    if (remembering) {
      this.recent = new RecentRecords<>(plain.header());
      this.serializer = recent.serializer(encoder);
      this.deserializer = recent.deserializer(decoder);
    } else {
      this.recent = null;
      this.serializer = encoder;
      this.deserializer = decoder;
    }
  }

  /**
   * A remembering serde for the engine's cluster events that, for an event carrying an input value
   * its thread just read through one of {@code values} (remembering serdes of the current schema
   * versions), copies that value's encoded body into the event instead of encoding it again: the
   * bytes are exactly those Avro writes for the event. The engine stores every input it reads as a
   * cluster event.
   */
  public static AvroSerde<ClusterEvent> clusterEvents(final List<AvroSerde<?>> values) {
    for (final AvroSerde<?> value : values) {
      if (!value.remembering) {
        throw new IllegalArgumentException(value + " does not remember what it reads");
      }
    }
    final List<AvroSerde<?>> sources = List.copyOf(values);
    return new AvroSerde<>(
        ClusterEvent.class,
        RecordRole.VALUE,
        true,
        plain -> new ClusterEventEncoder(plain, sources));
  }

  /**
   * The bytes this thread recently read or wrote through this (remembering) serde for exactly
   * {@code record}, or null: always null for a serde that does not remember.
   */
  byte[] recentBytes(final Object record) {
    return recent == null ? null : recent.bytesOf(record);
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
