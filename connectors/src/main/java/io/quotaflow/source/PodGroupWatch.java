package io.quotaflow.source;

import java.util.Locale;

/**
 * Whether the source watches the PodGroup objects that give scheduler-plugins' and Volcano's gangs
 * their minMember (setting {@code source.podgroups}).
 */
public enum PodGroupWatch {
  /**
   * Each PodGroup API the cluster serves (asked at start, by API discovery); one it does not serve
   * is not watched. A discovery that fails is asked again until it answers.
   */
  AUTO,
  /** Both APIs, served or not: a missing CRD shows as a watch down, as for any other kind. */
  ALWAYS,
  /** Neither: such gangs keep their minMember unknown. */
  NEVER;

  /**
   * {@code auto}, {@code true} or {@code false}, any case.
   *
   * @throws IllegalArgumentException for anything else
   */
  public static PodGroupWatch parse(final String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "auto" -> AUTO;
      case "true" -> ALWAYS;
      case "false" -> NEVER;
      default ->
          throw new IllegalArgumentException("expected auto, true or false, got \"" + value + "\"");
    };
  }
}
