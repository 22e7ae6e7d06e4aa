package io.quotaflow.serde;

import java.util.Objects;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Bytes that are not a valid record for their topic: garbage, a schema fingerprint no released
 * version matches, a truncated body or trailing bytes. Every decoding failure of {@link
 * AvroDeserializer} is this one exception, so a deserialization exception handler or dead-letter
 * queue needs to know no Avro internals.
 */
public final class RecordDecodingException extends SerializationException {
  private static final long serialVersionUID = 1L;

  private final String topic;
  private final RecordRole role;
  private final String reason;

  /**
   * @param topic the topic the bytes were read from (may be null when Kafka does not say)
   * @param role whether the bytes were a key or a value
   * @param reason what is wrong with the bytes, readable by a human
   * @param cause the underlying failure, or null
   */
  public RecordDecodingException(
      final String topic, final RecordRole role, final String reason, final Throwable cause) {
    super(
        "Cannot decode " + role + " of topic " + topic + ": " + Objects.requireNonNull(reason),
        cause);
    this.topic = topic;
    this.role = Objects.requireNonNull(role);
    this.reason = reason;
  }

  /** The topic the undecodable bytes came from. */
  public String topic() {
    return topic;
  }

  /** Whether the undecodable bytes were a key or a value. */
  public RecordRole role() {
    return role;
  }

  /** What is wrong with the bytes, without the topic prefix of {@link #getMessage()}. */
  public String reason() {
    return reason;
  }
}
