package io.quotaflow.engine.reclaim;

import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.PodId;
import io.quotaflow.eviction.OverUse;
import io.quotaflow.eviction.Victim;
import io.quotaflow.eviction.VictimPlan;
import io.quotaflow.eviction.VictimSelector;
import io.quotaflow.quota.PodRef;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reclaim by eviction (SPEC 11), run on a wall-clock punctuator. It remembers since when each group
 * has been over-used (store {@code over-used-since}); once a group has stayed over-used for the
 * revoke delay, the core picks victims and each becomes one eviction command, unless a command was
 * already issued for that pod uid (store {@code eviction-ledger}, an entry kept until the pod is
 * gone). The core never picks from invalid groups, the system group or non-preemptible pods.
 */
public final class Reclaimer {
  private static final Logger LOG = LoggerFactory.getLogger(Reclaimer.class);

  private final ProcessorContext<SpecificRecord, SpecificRecord> context;
  private final KeyValueStore<GroupId, Long> overUsedSince;
  private final KeyValueStore<PodId, EvictionCommand> ledger;
  // The ledger's keys, so that the pod events of the many pods never evicted skip the store.
  private final Set<PodId> inLedger = new HashSet<>();
  private final EngineMetrics metrics;
  private final QuotaOptions options;
  private final Duration revokeDelay;
  private final String sink;

  /**
   * @param context where commands are forwarded
   * @param overUsedSince the over-used-since store
   * @param ledger the eviction-ledger store
   * @param metrics counts commands
   * @param options the quota options the victims' requests are computed with
   * @param revokeDelay how long a group stays over-used before pods are evicted
   * @param sink the name of the evictions sink
   */
  public Reclaimer(
      final ProcessorContext<SpecificRecord, SpecificRecord> context,
      final KeyValueStore<GroupId, Long> overUsedSince,
      final KeyValueStore<PodId, EvictionCommand> ledger,
      final EngineMetrics metrics,
      final QuotaOptions options,
      final Duration revokeDelay,
      final String sink) {
    this.context = Objects.requireNonNull(context, "context");
    this.overUsedSince = Objects.requireNonNull(overUsedSince, "overUsedSince");
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    try (KeyValueIterator<PodId, EvictionCommand> all = ledger.all()) {
      all.forEachRemaining(entry -> inLedger.add(entry.key));
    }
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.options = Objects.requireNonNull(options, "options");
    this.revokeDelay = Objects.requireNonNull(revokeDelay, "revokeDelay");
    this.sink = Objects.requireNonNull(sink, "sink");
  }

  /**
   * Forgets the command issued for a pod once the pod is gone ({@code state} null) or its name now
   * belongs to another pod (another uid).
   */
  public void podChanged(final String cluster, final PodRef ref, final PodState state) {
    final PodId id = PodId.of(cluster, ref);
    if (!inLedger.contains(id)) {
      return;
    }
    final EvictionCommand issued = ledger.get(id);
    if (issued != null && (state == null || !issued.getPodUid().equals(state.getUid()))) {
      ledger.delete(id);
      inLedger.remove(id);
    }
  }

  /**
   * Checks the over-used groups of one cluster at {@code now}: starts the clock of a group newly
   * over-used, evicts from one over-used for the revoke delay, and stops the clock of every other.
   *
   * @param cluster the cluster
   * @param state its quota state, recomputed
   * @param overUsed the names of its groups whose current status is over-used
   * @param since the cluster's over-used-since entries (mirror of the store, updated here)
   */
  public void check(
      final String cluster,
      final ClusterQuotaState state,
      final Set<String> overUsed,
      final Map<String, Long> since,
      final Instant now) {
    for (final String cleared : new ArrayList<>(since.keySet())) {
      if (!overUsed.contains(cleared)) {
        forget(cluster, cleared, since);
      }
    }
    for (final String name : overUsed) {
      final Optional<GroupStatus> status = state.group(name);
      final Optional<OverUse> overUse = status.flatMap(OverUse::of);
      if (overUse.isEmpty()) {
        forget(cluster, name, since);
        continue;
      }
      final Long start = since.get(name);
      if (start == null) {
        since.put(name, now.toEpochMilli());
        overUsedSince.put(new GroupId(cluster, name), now.toEpochMilli());
        LOG.info("Group {}/{} is over-used in {}", cluster, name, overUse.get().overDimensions());
        continue;
      }
      final Duration overFor = Duration.ofMillis(now.toEpochMilli() - start);
      if (overFor.compareTo(revokeDelay) >= 0) {
        evict(cluster, state, status.get(), overFor, now);
      }
    }
  }

  private void evict(
      final String cluster,
      final ClusterQuotaState state,
      final GroupStatus status,
      final Duration overFor,
      final Instant now) {
    final VictimPlan plan = VictimSelector.select(status, state.podsOf(status.name()), options);
    final List<Victim> victims = plan.victims();
    for (final Victim victim : victims) {
      final PodId id = PodId.of(cluster, victim.pod());
      final EvictionCommand issued = ledger.get(id);
      if (issued != null && issued.getPodUid().equals(victim.uid())) {
        continue;
      }
      final EvictionCommand command = EvictionCommands.command(cluster, plan, victim, overFor, now);
      ledger.put(id, command);
      inLedger.add(id);
      context.forward(
          new Record<SpecificRecord, SpecificRecord>(
              new PodKey(cluster, id.namespace(), id.name()), command, now.toEpochMilli()),
          sink);
      metrics.evictionIssued(cluster);
      LOG.info(
          "Evicting {}/{} (uid {}) of group {}: {}",
          cluster,
          victim.pod(),
          victim.uid(),
          status.name(),
          command.getReason());
    }
  }

  private void forget(final String cluster, final String group, final Map<String, Long> since) {
    if (since.remove(group) != null) {
      overUsedSince.delete(new GroupId(cluster, group));
    }
  }
}
