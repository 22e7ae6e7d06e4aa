package io.quotaflow.engine.writers;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.store.StoreKind;
import io.quotaflow.engine.task.ClusterFeature;
import io.quotaflow.engine.task.ClusterTask;
import io.quotaflow.schemas.internal.ClusterEvent;
import java.time.Duration;
import java.util.Set;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Fencing of each cluster's writers (issue 40.12, {@link ClusterWriterBook}) as a feature of the
 * cluster's task: an old leader's record, or a second cluster's under the same name, stops here
 * before it reaches the trees.
 */
public final class WritersFeature implements ClusterFeature {
  private final Duration maxStaleness;
  private final StoreKind kind;
  private ClusterTask task;
  private ClusterWriterBook writers;

  /** Fencing as {@code config} sets it, its store of {@code kind}. */
  public WritersFeature(final EngineConfig config, final StoreKind kind) {
    this.maxStaleness = config.get(EngineSettings.INPUTS_MAX_STALENESS);
    this.kind = kind;
  }

  @Override
  public Set<StoreBuilder<?>> stores() {
    return Set.of(ClusterWriterBook.storeBuilder(kind::supplier));
  }

  @Override
  public void init(final ClusterTask task) {
    this.task = task;
  }

  /** Quarantines again the clusters stored with two identities, once the task's are released. */
  @Override
  public void restored() {
    writers =
        new ClusterWriterBook(
            task.context().getStateStore(ClusterWriterBook.STORE),
            task.metrics().quarantine(),
            task.metrics().registry(),
            maxStaleness);
    writers.restore();
  }

  @Override
  public boolean offered(final Record<String, ClusterEvent> record, final long now) {
    return !writers.admit(record.key(), record.value(), record.headers(), record.timestamp());
  }
}
