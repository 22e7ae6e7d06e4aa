package io.quotaflow.engine.liveness;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The loops of a process that must keep running, each with its last beat and how long it may stay
 * silent: {@code /healthz} fails while one has been silent longer, so that a wedged loop (a thread
 * stuck in a call that never returns) gets the process restarted. A loop beats every round, idle or
 * not, from the code path that would stop if it were wedged. Thread-safe.
 */
public final class Heartbeats {

  /** The setting naming the longest silence allowed by default (every process documents it). */
  public static final String MAX_SILENCE_KEY = "health.max.silence";

  private record Loop(Beat owner, Duration allowedSilence, Instant lastBeat) {}

  private final Clock clock;
  private final Map<String, Loop> loops = new ConcurrentHashMap<>();

  /**
   * @param clock the clock beats and silences are measured with
   */
  public Heartbeats(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Starts watching the loop {@code name}, as if it had just beaten; registering a name again
   * replaces it (a loop that restarts).
   *
   * @return the loop's beat, to call every round
   */
  public Beat register(String name, Duration allowedSilence) {
    Objects.requireNonNull(name, "name");
    if (allowedSilence.isNegative() || allowedSilence.isZero()) {
      throw new IllegalArgumentException("the allowed silence of " + name + " must be positive");
    }
    final Beat beat = new Beat(name);
    loops.put(name, new Loop(beat, allowedSilence, clock.instant()));
    return beat;
  }

  /**
   * Counts every loop as having beaten now: for a time when they are known to wait on something
   * else than themselves (the stream threads block on Kafka while it is away), so that their
   * silence counts from when that ends.
   */
  public void excuseAll() {
    final Instant now = clock.instant();
    loops.replaceAll((name, loop) -> new Loop(loop.owner(), loop.allowedSilence(), now));
  }

  /** The loops watched, by name. */
  public List<String> names() {
    return loops.keySet().stream().sorted().toList();
  }

  /**
   * The loops silent longer than they may be, for people: {@code name silent for 75 s (allowed 60
   * s)}, sorted by name; empty while every loop beats.
   */
  public List<String> silent() {
    final Instant now = clock.instant();
    final List<String> silent = new ArrayList<>();
    loops.forEach(
        (name, loop) -> {
          final Duration silence = Duration.between(loop.lastBeat(), now);
          if (silence.compareTo(loop.allowedSilence()) > 0) {
            silent.add(
                name
                    + " silent for "
                    + describe(silence)
                    + " (allowed "
                    + describe(loop.allowedSilence())
                    + ")");
          }
        });
    silent.sort(null);
    return silent;
  }

  private static String describe(Duration duration) {
    return duration.compareTo(Duration.ofSeconds(10)) < 0
        ? duration.toMillis() + " ms"
        : duration.toSeconds() + " s";
  }

  /** One loop's heartbeat. */
  public final class Beat implements AutoCloseable {
    private final String name;

    private Beat(String name) {
      this.name = name;
    }

    /** The loop is alive now. */
    public void beat() {
      loops.computeIfPresent(
          name,
          (key, loop) ->
              loop.owner() == this ? new Loop(this, loop.allowedSilence(), clock.instant()) : loop);
    }

    /**
     * The loop ended on purpose (a task moved away, the process stops): it is no longer watched.
     */
    @Override
    public void close() {
      // Only this registration: a loop registered again under the name stays watched.
      loops.computeIfPresent(name, (key, loop) -> loop.owner() == this ? null : loop);
    }
  }
}
