package io.quotaflow.serde;

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
  private final AvroSerializer<T> serializer;
  private final AvroDeserializer<T> deserializer;

  private AvroSerde(final Class<T> type, final RecordRole role) {
    this.type = Objects.requireNonNull(type, "type");
    this.role = Objects.requireNonNull(role, "role");
    this.serializer = new AvroSerializer<>(type, role);
    this.deserializer = new AvroDeserializer<>(type, role);
  }

  /** A serde for record keys of the generated class {@code type}. */
  public static <T extends SpecificRecord> AvroSerde<T> forKeys(final Class<T> type) {
    return new AvroSerde<>(type, RecordRole.KEY);
  }

  /** A serde for record values of the generated class {@code type}. */
  public static <T extends SpecificRecord> AvroSerde<T> forValues(final Class<T> type) {
    return new AvroSerde<>(type, RecordRole.VALUE);
  }

  /** The generated record class this serde reads and writes. */
  public Class<T> type() {
    return type;
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
    return "AvroSerde[" + type.getSimpleName() + " " + role + "]";
  }
}
