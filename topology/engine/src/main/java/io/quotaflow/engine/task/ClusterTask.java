package io.quotaflow.engine.task;

import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.schemas.internal.ClusterEvent;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * What the cluster-quota processor offers its {@link ClusterFeature features}: the task's context
 * and meters, the trees it holds, and the few of its own actions a feature may ask for.
 */
public interface ClusterTask {

  /** The processor's context: stores, forwarding to the sinks, the task's id and time. */
  ProcessorContext<SpecificRecord, SpecificRecord> context();

  /** The instance's meters, quarantine included. */
  EngineMetrics metrics();

  /** Every tree the task holds. */
  Collection<ClusterTree> trees();

  /** The clusters the task holds, by name. */
  Set<String> clusters();

  /** Holds {@code cluster} from now on, even before it has a tree. */
  void hold(String cluster);

  /**
   * Whether {@code cluster}'s stored state could not be rebuilt when the task started: it stays
   * quarantined, and a feature takes none of its stored state up.
   */
  boolean leftOut(String cluster);

  /** The tree {@code group} is in now, if the task holds it. */
  Optional<ClusterTree> treeOfGroup(GroupId group);

  /** {@code cluster}'s default tree (the one node reservations are planned over), created empty. */
  ClusterTree defaultTree(String cluster);

  /** Recomputes {@code tree} at the next recompute tick. */
  void markDirty(TreeKey tree);

  /** Whether {@code tree} waits for a recomputation. */
  boolean isDirty(TreeKey tree);

  /** Recomputes now the trees waiting for it whose cluster {@code chosen} accepts. */
  void recompute(long timestamp, Predicate<String> chosen);

  /** Whether {@code cluster} has read its backlog and its last events are computed. */
  boolean caughtUp(String cluster, long timestamp);

  /** Whether {@code cluster} is working through a backlog. */
  boolean inBacklog(String cluster, long timestamp);

  /**
   * Deletes {@code cluster}'s stored inputs of {@code kind} that {@code gone} accepts, and removes
   * them from the trees.
   *
   * @return the inputs dropped
   */
  List<InputId> dropInputs(String cluster, InputId.InputKind kind, Predicate<ClusterEvent> gone);

  /** Runs {@code punctuator} every {@code interval} of wall-clock time, until the task closes. */
  void schedule(Duration interval, Punctuator punctuator);
}
