package io.quotaflow.admission.state;

import java.util.List;
import java.util.Optional;

/**
 * Where the admission plugin reads cluster state: the engine's queryable stores in production, a
 * computed snapshot in tests and benchmarks. Implementations are thread-safe.
 */
public interface ClusterStateReader {

  /** Whether the process can serve at all (liveness): false once the engine has died. */
  boolean alive();

  /** Empty when ready to answer (the engine runs and its stores are queryable), else why not. */
  Optional<String> notReadyReason();

  /** Whether to receive traffic ({@code /readyz}), with the engine's state for people. */
  default Readiness readiness() {
    return notReadyReason().map(Readiness::notReady).orElseGet(() -> Readiness.ready("ready"));
  }

  /**
   * The loops of the process that have been silent longer than they may be ({@code /healthz} fails
   * while there is one), for people; empty while every loop beats.
   */
  default List<String> silentLoops() {
    return List.of();
  }

  /**
   * Whether {@code cluster} is assigned to this instance now, its task running or still restoring
   * ({@code /readyz}); unlike {@link #owner}, also during a rebalance.
   */
  default boolean assignedHere(String cluster) {
    return owner(cluster) instanceof Ownership.Local;
  }

  /** Which instance holds {@code cluster}. */
  Ownership owner(String cluster);

  /** The clusters whose state this instance holds, by name. */
  List<String> localClusters();

  /** The other instances of the application, as {@code host:port} pairs. */
  default List<Ownership.Remote> peers() {
    return List.of();
  }

  /**
   * The state of {@code cluster} if this instance holds it and knows the cluster; empty for a
   * cluster it has never seen.
   *
   * @throws StateUnavailableException when the state cannot be read right now
   */
  Optional<ClusterView> cluster(String cluster);

  /**
   * The clusters held by another instance whose standby copy this one keeps (issue 40.10): Kafka
   * Streams' standby replicas, with {@code num.standby.replicas} at least 1. None by default.
   */
  default List<String> standbyClusters() {
    return List.of();
  }

  /**
   * The state of {@code cluster} as this instance's standby copy holds it (its own stores too);
   * empty when it keeps none.
   *
   * @throws StateUnavailableException when the state cannot be read right now
   */
  default Optional<ClusterView> standbyCluster(String cluster) {
    return Optional.empty();
  }

  /**
   * The other instances that keep a standby replica of {@code cluster}, to ask when its owner does
   * not answer and this instance keeps no copy (issue 40.10); none by default or when unknown.
   */
  default List<Ownership.Remote> standbyHosts(String cluster) {
    return List.of();
  }
}
