package io.quotaflow.admission.http.peers;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.admission.state.Ownership;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link CircuitBreaker} per peer ({@code host:port}), created on first use, with its meters: a
 * gauge of its position and counters of the requests that failed and of those not forwarded while
 * it was open (each answered by the fallback instead). Thread-safe.
 */
public final class PeerBreakers {

  /** Gauge, tag {@code peer}: 0 closed, 1 half open, 2 open. */
  public static final String STATE = "quotaflow.admission.peer.breaker.state";

  /** Counter, tag {@code peer}: forwarded requests that failed (refused, timed out, cut). */
  public static final String FAILURES = "quotaflow.admission.forward.failures";

  /** Counter, tag {@code peer}: requests not forwarded because the peer's breaker was open. */
  public static final String SKIPPED = "quotaflow.admission.forward.skipped";

  private record Peer(CircuitBreaker breaker, Counter failures, Counter skipped) {}

  private final ForwardPolicy policy;
  private final Clock clock;
  private final MeterRegistry registry;
  private final Map<String, Peer> peers = new ConcurrentHashMap<>();

  /**
   * @param policy the failures that open a breaker and how long it stays open
   * @param clock the breakers' clock
   * @param registry where the meters go
   */
  public PeerBreakers(ForwardPolicy policy, Clock clock, MeterRegistry registry) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /** The forwarding policy the breakers follow. */
  public ForwardPolicy policy() {
    return policy;
  }

  /** {@code peer}'s breaker. */
  public CircuitBreaker of(Ownership.Remote peer) {
    return peer(peer).breaker();
  }

  /**
   * Whether {@code peer} is taken as reachable: its breaker is closed. While it is not, this
   * instance may be answering for the peer's clusters (their in-flight holds are kept here).
   */
  public boolean reachable(Ownership.Remote peer) {
    final Peer known = peers.get(name(peer));
    return known == null || known.breaker().state() == CircuitBreaker.State.CLOSED;
  }

  /** Counts a request to {@code peer} that failed, and reports it to the breaker. */
  public void failed(Ownership.Remote peer) {
    final Peer known = peer(peer);
    known.failures().increment();
    known.breaker().failed();
  }

  /** Counts a request not forwarded to {@code peer}, its breaker open. */
  public void skipped(Ownership.Remote peer) {
    peer(peer).skipped().increment();
  }

  private Peer peer(Ownership.Remote peer) {
    return peers.computeIfAbsent(
        name(peer),
        name -> {
          final CircuitBreaker breaker =
              new CircuitBreaker(policy.failuresToOpen(), policy.retryAfter(), clock);
          Gauge.builder(STATE, breaker, PeerBreakers::position)
              .description("Position of the circuit breaker of forwarding to a peer")
              .tag("peer", name)
              .register(registry);
          return new Peer(
              breaker,
              Counter.builder(FAILURES)
                  .description("Requests forwarded to a peer that failed or timed out")
                  .tag("peer", name)
                  .register(registry),
              Counter.builder(SKIPPED)
                  .description("Requests not forwarded to a peer whose breaker was open")
                  .tag("peer", name)
                  .register(registry));
        });
  }

  private static double position(CircuitBreaker breaker) {
    return switch (breaker.state()) {
      case CLOSED -> 0;
      case HALF_OPEN -> 1;
      case OPEN -> 2;
    };
  }

  private static String name(Ownership.Remote peer) {
    return peer.host() + ":" + peer.port();
  }
}
