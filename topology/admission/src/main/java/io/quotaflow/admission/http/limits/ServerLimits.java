package io.quotaflow.admission.http.limits;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * How much of the plugin any one client may take (issue 25): slow or many clients must never stop
 * the webhooks from answering, nor fail readiness.
 *
 * @param requestTimeout how long a request may take to arrive, headers and body, from its first
 *     byte (or from the connection's opening, for its first request); slower ones are closed
 * @param maxConnections open connections on the main port at most; beyond, new ones wait to be
 *     accepted and idle ones are closed sooner
 * @param healthPort a plain-HTTP port serving only /healthz and /readyz, so that a flood of the
 *     main port cannot fail the probes; empty: they are served on the main port only
 * @param streamsPerClient live streams of the web view one client address may hold at once
 * @param whatIfMaxPods pods a what-if may add in total
 * @param whatIfMaxEdits group edits (min, max, weight) a what-if may make
 * @param people the threads answering people's requests, and how many may call how often (issue 39)
 */
public record ServerLimits(
    Duration requestTimeout,
    int maxConnections,
    OptionalInt healthPort,
    int streamsPerClient,
    int whatIfMaxPods,
    int whatIfMaxEdits,
    People people) {

  /**
   * People's doors (the query API, the web view, the sign-in, the what-if): their own threads, so
   * that however many call, the webhooks keep the server's.
   *
   * @param threads threads answering people's requests
   * @param queue people's requests waiting for one of them at most; beyond, 503
   * @param ratePerClient requests a second one client address may make to {@code /api/} (bursts of
   *     twice as many); beyond, 429
   */
  public record People(int threads, int queue, int ratePerClient) {
    /** The defaults of the settings. */
    public static final People DEFAULTS = new People(4, 64, 20);

    /** Checks every bound is positive. */
    public People {
      if (threads < 1 || queue < 1 || ratePerClient < 1) {
        throw new IllegalArgumentException(
            "people's threads, queue and rate must be at least 1: "
                + threads
                + ", "
                + queue
                + ", "
                + ratePerClient);
      }
    }
  }

  /** The defaults of the settings. */
  public static final ServerLimits DEFAULTS =
      new ServerLimits(Duration.ofSeconds(5), 1024, OptionalInt.empty(), 4, 10_000, 100);

  /** These limits, people's at their defaults. */
  public ServerLimits(
      Duration requestTimeout,
      int maxConnections,
      OptionalInt healthPort,
      int streamsPerClient,
      int whatIfMaxPods,
      int whatIfMaxEdits) {
    this(
        requestTimeout,
        maxConnections,
        healthPort,
        streamsPerClient,
        whatIfMaxPods,
        whatIfMaxEdits,
        People.DEFAULTS);
  }

  /** Checks every bound is positive. */
  public ServerLimits {
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    Objects.requireNonNull(healthPort, "healthPort");
    Objects.requireNonNull(people, "people");
    if (requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw new IllegalArgumentException("requestTimeout must be positive: " + requestTimeout);
    }
    if (maxConnections < 1 || streamsPerClient < 1 || whatIfMaxPods < 1 || whatIfMaxEdits < 1) {
      throw new IllegalArgumentException("every limit must be at least 1: " + maxConnections);
    }
  }

  /** These limits with the health port {@code port} (0: a free one). */
  public ServerLimits withHealthPort(int port) {
    return new ServerLimits(
        requestTimeout,
        maxConnections,
        OptionalInt.of(port),
        streamsPerClient,
        whatIfMaxPods,
        whatIfMaxEdits,
        people);
  }

  /** These limits with people's {@code value}. */
  public ServerLimits withPeople(People value) {
    return new ServerLimits(
        requestTimeout,
        maxConnections,
        healthPort,
        streamsPerClient,
        whatIfMaxPods,
        whatIfMaxEdits,
        value);
  }
}
