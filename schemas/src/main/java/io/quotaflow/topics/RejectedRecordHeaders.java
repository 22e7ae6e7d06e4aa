package io.quotaflow.topics;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Headers of a dead letter on the rejected topic. They are the ones Kafka Streams' own dead-letter
 * queue ({@code errors.dead.letter.queue.topic.name}, KIP-1034) writes, all UTF-8 strings, so the
 * engine can let Streams write dead letters while connectors write the same headers with {@link
 * #write}. The record's key and value are the original bytes, untouched.
 */
public final class RejectedRecordHeaders {
  /**
   * Fully qualified class name of the failure (Kafka Streams 4.3 writes {@code
   * getClass().getName()}).
   */
  public static final String EXCEPTION = "__streams.errors.exception";

  /** The failure's message alone. */
  public static final String MESSAGE = "__streams.errors.message";

  /** The failure's stack trace. */
  public static final String STACKTRACE = "__streams.errors.stacktrace";

  /** The topic the rejected record was read from. */
  public static final String SOURCE_TOPIC = "__streams.errors.topic";

  /** The partition the rejected record was read from, in decimal. */
  public static final String SOURCE_PARTITION = "__streams.errors.partition";

  /** The offset of the rejected record, in decimal. */
  public static final String SOURCE_OFFSET = "__streams.errors.offset";

  private RejectedRecordHeaders() {}

  /** What a dead letter's headers say about where it came from and why it was rejected. */
  public record Rejection(
      String sourceTopic,
      int sourcePartition,
      long sourceOffset,
      String exceptionClass,
      String message) {
    /** Requires the text fields; a missing text is an empty string. */
    public Rejection {
      Objects.requireNonNull(sourceTopic, "sourceTopic");
      Objects.requireNonNull(exceptionClass, "exceptionClass");
      Objects.requireNonNull(message, "message");
    }
  }

  /**
   * Adds the dead-letter headers for a record read from {@code topic}, rejected by {@code error}.
   */
  public static void write(
      final Headers headers,
      final String topic,
      final int partition,
      final long offset,
      final Throwable error) {
    final StringWriter trace = new StringWriter();
    try (PrintWriter out = new PrintWriter(trace)) {
      error.printStackTrace(out);
    }
    add(headers, EXCEPTION, error.getClass().getName());
    add(headers, MESSAGE, Objects.toString(error.getMessage(), ""));
    add(headers, STACKTRACE, trace.toString());
    add(headers, SOURCE_TOPIC, topic);
    add(headers, SOURCE_PARTITION, Integer.toString(partition));
    add(headers, SOURCE_OFFSET, Long.toString(offset));
  }

  /**
   * Reads the dead-letter headers; empty when the source topic header is missing (not a dead
   * letter). A missing or unparsable partition or offset reads as -1.
   */
  public static Optional<Rejection> read(final Headers headers) {
    return text(headers, SOURCE_TOPIC)
        .map(
            topic ->
                new Rejection(
                    topic,
                    (int) number(headers, SOURCE_PARTITION),
                    number(headers, SOURCE_OFFSET),
                    text(headers, EXCEPTION).orElse(""),
                    text(headers, MESSAGE).orElse("")));
  }

  private static void add(final Headers headers, final String key, final String value) {
    headers.add(key, value.getBytes(StandardCharsets.UTF_8));
  }

  private static Optional<String> text(final Headers headers, final String key) {
    final Header header = headers.lastHeader(key);
    if (header == null || header.value() == null) {
      return Optional.empty();
    }
    return Optional.of(new String(header.value(), StandardCharsets.UTF_8));
  }

  private static long number(final Headers headers, final String key) {
    try {
      return text(headers, key).map(String::trim).map(Long::parseLong).orElse(-1L);
    } catch (NumberFormatException e) {
      return -1L;
    }
  }
}
