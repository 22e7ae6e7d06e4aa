package io.quotaflow.admission.state;

import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Whether the plugin should receive traffic ({@code /readyz}), and why, for people.
 *
 * @param ready whether to answer 200
 * @param detail the engine's state and what the answers come from
 */
public record Readiness(boolean ready, String detail) {

  /** Requires a detail. */
  public Readiness {
    Objects.requireNonNull(detail, "detail");
  }

  /** Ready, with {@code detail}. */
  public static Readiness ready(String detail) {
    return new Readiness(true, detail);
  }

  /** Not ready, because of {@code reason}. */
  public static Readiness notReady(String reason) {
    return new Readiness(false, reason);
  }

  /**
   * The readiness of an engine in {@code state}. A rebalance, or stores that cannot be queried
   * while a task migrates or restores, keep it ready once it has loaded state: the plugin answers
   * from the last state it read (bounded by {@code admission.max.staleness}), so a rebalance does
   * not take every instance out of its Service at once. It is not ready before any state was
   * loaded, nor once the engine failed or is stopping.
   *
   * @param loaded whether the stores have been queryable at least once
   * @param storeProblem why the stores cannot be queried now; empty when they can
   */
  public static Readiness of(
      KafkaStreams.State state, boolean loaded, Optional<String> storeProblem) {
    final String engine = "the engine is " + state;
    return switch (state) {
      case RUNNING -> {
        if (storeProblem.isEmpty()) {
          yield ready(engine);
        }
        yield loaded
            ? ready(
                engine
                    + "; stores not queryable ("
                    + storeProblem.get()
                    + "), answering from the last state read")
            : notReady(engine + " but its stores are not queryable: " + storeProblem.get());
      }
      case REBALANCING ->
          loaded
              ? ready(
                  engine + "; answering from the last state read where stores are not queryable")
              : notReady(engine + " and has not loaded any state yet");
      default -> notReady(engine);
    };
  }
}
