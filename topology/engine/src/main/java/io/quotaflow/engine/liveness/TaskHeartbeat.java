package io.quotaflow.engine.liveness;

import java.time.Duration;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * A stream task's heartbeat: a wall-clock punctuation that beats {@code stream task <id>}. Kafka
 * Streams runs punctuations on the task's thread between records, so a thread wedged in processing
 * (or in another punctuation) stops beating, while an idle task still beats.
 */
public final class TaskHeartbeat {

  /** How often a task beats, unless a quarter of its allowed silence is shorter. */
  public static final Duration INTERVAL = Duration.ofSeconds(5);

  private TaskHeartbeat() {}

  /**
   * Starts beating for the task of {@code context}.
   *
   * @return cancels the punctuation and stops watching the task (it closes or moves away)
   */
  public static Cancellable start(
      ProcessorContext<?, ?> context, Heartbeats heartbeats, Duration allowedSilence) {
    final Heartbeats.Beat beat =
        heartbeats.register("stream task " + context.taskId(), allowedSilence);
    final Duration quarter = allowedSilence.dividedBy(4);
    final Duration every = quarter.compareTo(INTERVAL) < 0 ? quarter : INTERVAL;
    final Cancellable punctuation =
        context.schedule(every, PunctuationType.WALL_CLOCK_TIME, timestamp -> beat.beat());
    return () -> {
      punctuation.cancel();
      beat.close();
    };
  }
}
