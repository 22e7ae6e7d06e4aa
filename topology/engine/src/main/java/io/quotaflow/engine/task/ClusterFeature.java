package io.quotaflow.engine.task;

import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.internal.ClusterEvent;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.streams.processor.ConnectedStoreProvider;
import org.apache.kafka.streams.processor.api.Record;

/**
 * One feature of a cluster's task (history, fair share's memory, reservations, freshness, reclaim,
 * ...): the cluster-quota processor only routes, and each feature does its work from the hooks
 * below. A feature declares the stores it owns beside it ({@link #stores()}, Kafka Streams' {@link
 * ConnectedStoreProvider}), so that the topology adds and connects them; one instance lives per
 * task and is initialised again, from its stores only, whenever the task is (re)initialised.
 *
 * <p>The hooks run in the order the features are registered ({@code ClusterFeatures}), on the
 * task's stream thread. Every hook has a default that does nothing.
 */
public interface ClusterFeature extends ConnectedStoreProvider {

  /**
   * The task starts (or starts again): open the stores and forget everything held in memory; the
   * trees are not rebuilt yet.
   */
  default void init(final ClusterTask task) {}

  /**
   * One tree was rebuilt from the stores, with {@code groups} the specs of every group stored for
   * its cluster. A failure here leaves the cluster out (quarantined), as a failure of the tree's
   * own rebuild does.
   */
  default void treeRestored(final ClusterTree tree, final List<QuotaGroup> groups) {}

  /**
   * Every tree is rebuilt, and the clusters the task holds are about to be let out of quarantine: a
   * feature whose stores make the task hold a cluster says so here ({@link ClusterTask#hold}).
   */
  default void rebuilt() {}

  /** Every tree is rebuilt: rebuild what the feature keeps from its stores. */
  default void restored() {}

  /**
   * Schedule the feature's punctuations ({@link ClusterTask#schedule}); after {@link #restored}.
   */
  default void schedule(final ClusterTask task) {}

  /**
   * An event reached the task, before it is read as an input of the trees.
   *
   * @param record the event, keyed by its cluster; its timestamp is the broker's log-append time
   * @param now the task's wall-clock time
   * @return true when the event stops here: it was the feature's own (an eviction result, a denial)
   *     or is refused; later features and the trees do not see it
   */
  default boolean offered(final Record<String, ClusterEvent> record, final long now) {
    return false;
  }

  /** An input of the trees changed ({@code value} null: deleted), already applied to the trees. */
  default void inputChanged(final String cluster, final InputId id, final Object value) {}

  /**
   * {@code tree} was recomputed, before its changes are written.
   *
   * @return the groups whose runtime records must be written again although their status did not
   *     change (what the feature adds to the record changed)
   */
  default Set<String> recomputed(final ClusterTree tree, final Instant now) {
    return Set.of();
  }

  /**
   * Fills in the fields of {@code group}'s runtime record that the feature owns (a node
   * reservation's state, say) before the record is written.
   */
  default void completeRuntime(final GroupId group, final GroupRuntime.Builder record) {}

  /**
   * A group's runtime record is about to be written ({@code after}; null when the group is gone).
   *
   * @param before the record it replaces, read from the store only when asked
   */
  default void runtimeWritten(
      final GroupId group,
      final Instant at,
      final Supplier<GroupRuntime> before,
      final GroupRuntime after) {}

  /** The task is closed (its punctuations are already cancelled). */
  default void close() {}
}
