package io.quotaflow.admission.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Readiness per cluster (issue 40.11): an instance is ready when the engine is (see {@link
 * ClusterStateReader#readiness()}) and every cluster assigned to it can be answered, from its live
 * stores or from a last state no older than {@code admission.max.staleness}. A cluster assigned
 * here whose task is restoring (or whose stores cannot be read) without a young enough last state
 * makes it not ready, named with why. The clusters looked at are those this instance knows: the
 * ones its stores list and the ones it keeps a last state of; of these, the ones {@link
 * ClusterStateReader#assignedHere} says are assigned here.
 */
public final class ClusterReadiness {

  private final ClusterStateReader reader;
  private final LastKnownState lastKnown;

  /**
   * @param reader where the clusters are read and which are assigned here
   * @param lastKnown the last state of each cluster read here
   */
  public ClusterReadiness(ClusterStateReader reader, LastKnownState lastKnown) {
    this.reader = reader;
    this.lastKnown = lastKnown;
  }

  /** Whether to receive traffic now, and why, for people. */
  public Readiness now() {
    final Readiness engine = reader.readiness();
    if (!engine.ready()) {
      return engine;
    }
    final TreeSet<String> known = new TreeSet<>(lastKnown.clusters());
    try {
      known.addAll(reader.localClusters());
    } catch (StateUnavailableException e) {
      // Restoring: the clusters of the last state are all that is known.
    }
    int assigned = 0;
    final List<String> fromLastState = new ArrayList<>();
    final List<String> unanswerable = new ArrayList<>();
    for (final String cluster : known) {
      final Optional<String> unreadable;
      try {
        if (!reader.assignedHere(cluster)) {
          continue;
        }
        unreadable = unreadable(cluster);
      } catch (RuntimeException e) {
        unanswerable.add(cluster + " (" + e.getMessage() + ")");
        continue;
      }
      assigned++;
      if (unreadable.isEmpty()) {
        continue;
      }
      final LastKnownState.Recall recall = lastKnown.recall(cluster);
      if (recall instanceof LastKnownState.Usable) {
        fromLastState.add(cluster);
      } else if (recall instanceof LastKnownState.TooOld old) {
        unanswerable.add(
            cluster
                + " ("
                + unreadable.get()
                + "; its last state is "
                + old.staleness().age().toMillis()
                + " ms old, older than admission.max.staleness "
                + old.maxStaleness()
                + ")");
      } else {
        unanswerable.add(
            cluster + " (" + unreadable.get() + "; no last state of it was read here)");
      }
    }
    if (!unanswerable.isEmpty()) {
      return Readiness.notReady(
          engine.detail()
              + "; clusters assigned here that cannot be answered: "
              + String.join(", ", unanswerable));
    }
    return Readiness.ready(
        engine.detail()
            + "; "
            + assigned
            + " clusters assigned here"
            + (fromLastState.isEmpty()
                ? ""
                : ", answered from the last state: " + String.join(", ", fromLastState)));
  }

  /** Why the live state of {@code cluster} cannot be read now; empty when it can. */
  private Optional<String> unreadable(String cluster) {
    try {
      reader.cluster(cluster);
      return Optional.empty();
    } catch (StateUnavailableException e) {
      return Optional.of(e.getMessage());
    }
  }
}
