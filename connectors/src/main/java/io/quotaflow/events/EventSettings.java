package io.quotaflow.events;

/**
 * Whether and how often the connectors emit Kubernetes Events.
 *
 * @param enabled emit Events at all
 * @param perObjectPerMinute Events per minute per involved object, on average, once its burst is
 *     spent; Events beyond it are dropped (a repeated Event still counts in its series)
 * @param perObjectBurst Events per involved object allowed at once after a quiet period
 */
public record EventSettings(boolean enabled, double perObjectPerMinute, int perObjectBurst) {

  /** Validates the values. */
  public EventSettings {
    if (!(perObjectPerMinute > 0) || Double.isInfinite(perObjectPerMinute)) {
      throw new IllegalArgumentException(
          "events.per.object.per.minute must be positive: " + perObjectPerMinute);
    }
    if (perObjectBurst < 1) {
      throw new IllegalArgumentException(
          "events.per.object.burst must be at least 1: " + perObjectBurst);
    }
  }

  /** On; one Event per minute per object after a burst of 5. */
  public static EventSettings defaults() {
    return new EventSettings(true, 1.0, 5);
  }

  /** No Events. */
  public static EventSettings off() {
    return new EventSettings(false, 1.0, 1);
  }
}
