package io.quotaflow.serde;

import java.util.Arrays;
import java.util.Objects;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The bytes of the last few records each thread read or wrote through one serde, so that a record
 * written again soon after is not encoded again: an input the engine stores just as it arrived, a
 * result it writes to its store and then to its topic. A record is recognised by identity, so
 * records must not be changed once built or read (generated Avro records have setters; quotaflow
 * never calls them on a record it has read or passed on). Only bytes of the current schema version
 * are remembered from reads, so what is written again is always what encoding would write.
 */
final class RecentRecords<T> {
  // The engine writes a record within a few records of reading or first writing it.
  private static final int REMEMBERED = 4;

  private final byte[] currentHeader;
  private final ThreadLocal<Ring> rings = ThreadLocal.withInitial(Ring::new);

  /**
   * @param currentHeader the first bytes of every record encoded with the current schema
   */
  RecentRecords(final byte[] currentHeader) {
    this.currentHeader = currentHeader.clone();
  }

  /** {@code encoder}, answering from the recent records first. */
  Serializer<T> serializer(final Serializer<T> encoder) {
    Objects.requireNonNull(encoder, "encoder");
    return (topic, record) -> {
      if (record == null) {
        return null;
      }
      final Ring ring = rings.get();
      final byte[] known = ring.bytesOf(record);
      if (known != null) {
        return known;
      }
      final byte[] bytes = encoder.serialize(topic, record);
      ring.remember(record, bytes);
      return bytes;
    };
  }

  /** {@code decoder}, remembering what it reads. */
  Deserializer<T> deserializer(final Deserializer<T> decoder) {
    Objects.requireNonNull(decoder, "decoder");
    return (topic, bytes) -> {
      final T record = decoder.deserialize(topic, bytes);
      if (record != null && startsWithCurrentHeader(bytes)) {
        rings.get().remember(record, bytes);
      }
      return record;
    };
  }

  /** The bytes this thread recently read or wrote for exactly {@code record}, or null. */
  byte[] bytesOf(final Object record) {
    return record == null ? null : rings.get().bytesOf(record);
  }

  private boolean startsWithCurrentHeader(final byte[] bytes) {
    return bytes.length >= currentHeader.length
        && Arrays.equals(bytes, 0, currentHeader.length, currentHeader, 0, currentHeader.length);
  }

  /** One thread's last records and their bytes, oldest overwritten first. */
  private static final class Ring {
    private final Object[] records = new Object[REMEMBERED];
    private final byte[][] bytes = new byte[REMEMBERED][];
    private int next;

    byte[] bytesOf(final Object record) {
      for (int i = 0; i < REMEMBERED; i++) {
        if (records[i] == record) {
          return bytes[i];
        }
      }
      return null;
    }

    void remember(final Object record, final byte[] encoded) {
      records[next] = record;
      bytes[next] = encoded;
      next = (next + 1) % REMEMBERED;
    }
  }
}
