package io.quotaflow.topics;

import java.util.List;
import java.util.Objects;

/**
 * What provisioning found or did for one topic.
 *
 * @param topic the topic name
 * @param status created, as expected, or different from what the catalogue asks for
 * @param differences one readable line per difference; empty unless {@code MISMATCHED}
 */
public record TopicCheck(String topic, Status status, List<String> differences) {
  /** The outcome for one topic. */
  public enum Status {
    /** The topic was missing and has been created. */
    CREATED,
    /** The topic existed with the expected partition count and cleanup policy. */
    OK,
    /** The topic existed but differs; it was left unchanged. */
    MISMATCHED
  }

  /** Requires the fields and copies {@code differences}. */
  public TopicCheck {
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(status, "status");
    differences = List.copyOf(differences);
    if ((status == Status.MISMATCHED) == differences.isEmpty()) {
      throw new IllegalArgumentException(
          "a "
              + status
              + " check must "
              + (differences.isEmpty() ? "name" : "not name")
              + " differences");
    }
  }

  @Override
  public String toString() {
    return differences.isEmpty()
        ? topic + ": " + status
        : topic + ": " + status + " " + differences;
  }
}
