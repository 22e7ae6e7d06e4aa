package io.quotaflow.admission.state;

import java.util.Objects;

/** Which instance holds a cluster's state right now. */
public sealed interface Ownership {

  /** This instance: answer from the local stores. */
  record Local() implements Ownership {}

  /**
   * Another instance, reachable at {@code host:port} (its {@code application.server}).
   *
   * @param host the instance's host
   * @param port the instance's admission port
   */
  record Remote(String host, int port) implements Ownership {
    /** Requires a host. */
    public Remote {
      Objects.requireNonNull(host, "host");
    }
  }

  /**
   * Nobody can answer now (a rebalance, the stores not queryable yet).
   *
   * @param reason for people
   */
  record Unavailable(String reason) implements Ownership {
    /** Requires a reason. */
    public Unavailable {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** This instance. */
  static Ownership local() {
    return new Local();
  }
}
