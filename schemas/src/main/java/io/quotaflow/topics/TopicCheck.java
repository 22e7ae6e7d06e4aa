package io.quotaflow.topics;

import java.util.List;
import java.util.Objects;

/**
 * What provisioning found or did for one topic.
 *
 * @param topic the topic name
 * @param status created, as expected, or different from what the catalogue asks for
 * @param differences one readable line per difference; empty unless {@code MISMATCHED}
 * @param warnings settings that differ from the catalogue's without making the topic unusable (a
 *     topic whose records the producers stamp, not the broker), each with the command that fixes
 *     it; they do not make the check {@code MISMATCHED}, so a process still starts on the topic
 */
public record TopicCheck(
    String topic, Status status, List<String> differences, List<String> warnings) {
  /** The outcome for one topic. */
  public enum Status {
    /** The topic was missing and has been created. */
    CREATED,
    /** The topic existed with the expected partition count and cleanup policy. */
    OK,
    /** The topic existed but differs; it was left unchanged. */
    MISMATCHED
  }

  /** A check without warnings. */
  public TopicCheck(final String topic, final Status status, final List<String> differences) {
    this(topic, status, differences, List.of());
  }

  /** Requires the fields and copies {@code differences} and {@code warnings}. */
  public TopicCheck {
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(status, "status");
    differences = List.copyOf(differences);
    warnings = List.copyOf(warnings);
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
    return topic
        + ": "
        + status
        + (differences.isEmpty() ? "" : " " + differences)
        + (warnings.isEmpty() ? "" : " warnings " + warnings);
  }
}
