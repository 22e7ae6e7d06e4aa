package io.quotaflow.engine;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.recovery.InputResumeAudit;
import io.quotaflow.engine.recovery.RestoreAudit;
import io.quotaflow.schemas.internal.ClusterEvent;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * The cluster-quota processor of each task, with its stores declared beside it: Kafka Streams adds
 * and connects every store the trees and the registered features declare ({@link
 * ClusterFeatures#stores}), so the topology lists none by hand.
 */
final class ClusterQuotaSupplier
    implements ProcessorSupplier<String, ClusterEvent, SpecificRecord, SpecificRecord> {
  private final EngineConfig config;
  private final EngineMetrics metrics;
  private final RestoreAudit restores;
  private final InputResumeAudit resumes;

  ClusterQuotaSupplier(
      final EngineConfig config,
      final EngineMetrics metrics,
      final RestoreAudit restores,
      final InputResumeAudit resumes) {
    this.config = config;
    this.metrics = metrics;
    this.restores = restores;
    this.resumes = resumes;
  }

  @Override
  public Set<StoreBuilder<?>> stores() {
    return ClusterFeatures.stores(
        ClusterFeatures.create(config, metrics), config.get(EngineSettings.STATE_STORES));
  }

  @Override
  public Processor<String, ClusterEvent, SpecificRecord, SpecificRecord> get() {
    return new ClusterQuotaProcessor(config, metrics, restores, resumes);
  }
}
