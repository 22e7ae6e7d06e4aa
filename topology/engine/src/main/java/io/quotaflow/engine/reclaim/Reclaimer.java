package io.quotaflow.engine.reclaim;

import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.store.GroupId;
import io.quotaflow.engine.store.PodId;
import io.quotaflow.eviction.OverUse;
import io.quotaflow.eviction.Victim;
import io.quotaflow.eviction.VictimPlan;
import io.quotaflow.eviction.VictimSelector;
import io.quotaflow.quota.PodRef;
import io.quotaflow.reservation.Intruder;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
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
 *
 * <p>The executor's results close the loop: a result other than EVICTED for the pod's latest
 * command releases the pod for a later round after the retry backoff (store {@code
 * eviction-retry-at}); if it is still a victim then, it gets the next attempt, a command with its
 * own id. After {@code maxAttempts} commands the pod is not commanded again. Results for commands
 * the ledger does not hold (unknown pods, earlier attempts, repeats) change nothing. A command with
 * no result after the result timeout is given up (issue 40): not an attempt, the pod decided again.
 */
public final class Reclaimer {
  private static final Logger LOG = LoggerFactory.getLogger(Reclaimer.class);
  // The retry-at value of a pod whose attempts are used up.
  private static final long NEVER = Long.MAX_VALUE;

  private final ProcessorContext<SpecificRecord, SpecificRecord> context;
  private final KeyValueStore<GroupId, Long> overUsedSince;
  private final KeyValueStore<PodId, EvictionCommand> ledger;
  private final KeyValueStore<PodId, Long> retryAt;
  // The ledger's keys, so that the pod events of the many pods never evicted skip the store.
  private final Set<PodId> inLedger = new HashSet<>();
  private final EngineMetrics metrics;
  private final QuotaOptions options;
  private final ReclaimPolicy policy;
  private final String sink;

  /**
   * @param context where commands are forwarded
   * @param overUsedSince the over-used-since store
   * @param ledger the eviction-ledger store
   * @param retryAt the eviction-retry-at store
   * @param metrics counts commands
   * @param options the quota options the victims' requests are computed with
   * @param policy the revoke delay, retry backoff and attempts
   * @param sink the name of the evictions sink
   */
  private final IssuedCommands onIssued;

  /**
   * @param onIssued told of every command issued, with its cluster, when it is forwarded (the
   *     history counts evictions by group and reason)
   */
  public Reclaimer(
      final ProcessorContext<SpecificRecord, SpecificRecord> context,
      final KeyValueStore<GroupId, Long> overUsedSince,
      final KeyValueStore<PodId, EvictionCommand> ledger,
      final KeyValueStore<PodId, Long> retryAt,
      final EngineMetrics metrics,
      final QuotaOptions options,
      final ReclaimPolicy policy,
      final String sink,
      final IssuedCommands onIssued) {
    this.onIssued = Objects.requireNonNull(onIssued, "onIssued");
    this.context = Objects.requireNonNull(context, "context");
    this.overUsedSince = Objects.requireNonNull(overUsedSince, "overUsedSince");
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.retryAt = Objects.requireNonNull(retryAt, "retryAt");
    try (KeyValueIterator<PodId, EvictionCommand> all = ledger.all()) {
      all.forEachRemaining(entry -> inLedger.add(entry.key));
    }
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.options = Objects.requireNonNull(options, "options");
    this.policy = Objects.requireNonNull(policy, "policy");
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
      retryAt.delete(id);
      inLedger.remove(id);
    }
  }

  /**
   * Takes in the executor's result for a command to pod {@code ref}, read at {@code now}. Only a
   * result for the pod's latest command counts, and only once: EVICTED keeps the pod in the ledger
   * (it is never commanded again); any other outcome releases it for a later round after the retry
   * backoff, unless that command was its last allowed attempt.
   */
  public void resultArrived(
      final String cluster, final PodRef ref, final EvictionResult result, final Instant now) {
    final PodId id = PodId.of(cluster, ref);
    final EvictionCommand issued = inLedger.contains(id) ? ledger.get(id) : null;
    if (issued == null
        || !issued.getId().equals(result.getCommandId())
        || !issued.getPodUid().equals(result.getPodUid())) {
      LOG.debug(
          "Result {} of command {} for {}/{} answers no pending command; ignored",
          result.getOutcome(),
          result.getCommandId(),
          cluster,
          ref);
      return;
    }
    if (retryAt.get(id) != null) {
      return;
    }
    if (result.getOutcome() == EvictionOutcome.EVICTED) {
      // Answered for good: the pod is about to go, and is never commanded again (nor given up on
      // as unanswered while it terminates).
      retryAt.put(id, NEVER);
      return;
    }
    final String notEvicted =
        String.format(
            "Pod %s/%s (uid %s) of group %s was not evicted",
            cluster, ref, issued.getPodUid(), issued.getGroup());
    if (result.getOutcome() == EvictionOutcome.PROTECTED) {
      // The executor never evicts such a pod; commanding it again would only be refused again.
      retryAt.put(id, NEVER);
      LOG.warn(
          "{}: the executor refused, the pod is protected ({}); it is not commanded again",
          notEvicted,
          result.getMessage());
      return;
    }
    final Optional<String> notThePods = notThePods(cluster, result.getOutcome());
    if (notThePods.isPresent()) {
      // The cluster or the pipeline, not the pod: the command does not count (issues 26 and 40).
      // It is kept with one more uncounted command, so the next one carries the tally, and the pod
      // is tried again if it is still chosen then.
      ledger.put(id, uncounted(issued));
      final Instant retry = now.plus(policy.retryBackoff());
      retryAt.put(id, retry.toEpochMilli());
      LOG.warn(
          "{}: {} ({}); not counted as an attempt, it may be commanded again from {}",
          notEvicted,
          notThePods.get(),
          result.getMessage(),
          retry);
      return;
    }
    if (issued.getAttempt() - issued.getUnreachableRetries() >= policy.maxAttempts()) {
      retryAt.put(id, NEVER);
      metrics.evictions().exhausted(cluster);
      LOG.warn(
          "{} after {} attempts ({}: {}); it is not commanded again",
          notEvicted,
          issued.getAttempt(),
          result.getOutcome(),
          result.getMessage());
      return;
    }
    final Instant retry = now.plus(policy.retryBackoff());
    retryAt.put(id, retry.toEpochMilli());
    LOG.info(
        "{} by attempt {} ({}: {}); it may be commanded again from {}",
        notEvicted,
        issued.getAttempt(),
        result.getOutcome(),
        result.getMessage(),
        retry);
  }

  /**
   * Why {@code outcome} says nothing about the pod (and counts it), or empty when the pod itself
   * refused or failed: the outcomes that do not use up one of its attempts.
   */
  private Optional<String> notThePods(final String cluster, final EvictionOutcome outcome) {
    switch (outcome) {
      case UNREACHABLE:
        metrics.evictions().unreachable(cluster);
        return Optional.of("its cluster's API server could not be reached");
      case STALE:
        metrics.evictions().stale(cluster);
        return Optional.of("the executor found the inputs it was decided on possibly incomplete");
      case EXPIRED:
        metrics.evictions().expired(cluster);
        return Optional.of("the command was too old when the executor read it");
      default:
        return Optional.empty();
    }
  }

  /** {@code issued} with one more command that is not one of the pod's attempts. */
  private static EvictionCommand uncounted(final EvictionCommand issued) {
    return EvictionCommand.newBuilder(issued)
        .setUnreachableRetries(issued.getUnreachableRetries() + 1)
        .build();
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
      if (overFor.compareTo(policy.revokeDelay()) >= 0) {
        evict(cluster, state, status.get(), overFor, now);
      }
    }
  }

  /**
   * Pauses the over-use clocks of one cluster whose inputs cannot be trusted now: each clock is
   * moved on by {@code elapsed}, never past {@code now}, so time without fresh inputs does not
   * count toward the revoke delay.
   *
   * @param cluster the cluster
   * @param since its over-used-since entries (mirror of the store, updated here)
   * @param elapsed milliseconds since the last check
   * @param now the time of this check
   */
  public void pauseClocks(
      final String cluster, final Map<String, Long> since, final long elapsed, final Instant now) {
    if (elapsed <= 0) {
      return;
    }
    for (final Map.Entry<String, Long> entry : since.entrySet()) {
      final long moved = Math.min(now.toEpochMilli(), entry.getValue() + elapsed);
      if (moved != entry.getValue()) {
        entry.setValue(moved);
        overUsedSince.put(new GroupId(cluster, entry.getKey()), moved);
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
    for (final Victim victim : plan.victims()) {
      issue(
          cluster,
          PodId.of(cluster, victim.pod()),
          victim.uid(),
          now,
          (attempt, allowed) ->
              EvictionCommands.command(cluster, plan, victim, overFor, now, attempt, allowed));
    }
  }

  /**
   * Commands the eviction of a pod of another group from a node a Guaranteed reservation locks,
   * through the same ledger, attempts and retries as a victim of over-use: once per pod uid, again
   * only after a result other than EVICTED and the retry backoff.
   *
   * @param cluster the cluster
   * @param intruder the pod, its node and the reserving group
   * @param group the status of the pod's own group (its used and runtime go on the command)
   * @param onLockedNodeFor how long the pod has run on the locked node
   * @param now the time of the check
   */
  public void evictIntruder(
      final String cluster,
      final Intruder intruder,
      final Optional<GroupStatus> group,
      final Duration onLockedNodeFor,
      final Instant now) {
    issue(
        cluster,
        PodId.of(cluster, intruder.pod()),
        intruder.uid(),
        now,
        (attempt, allowed) ->
            EvictionCommands.reservationCommand(
                cluster, intruder, group, onLockedNodeFor, now, attempt, allowed));
  }

  /**
   * Issues attempt n of evicting pod {@code id} with {@code uid}, unless a command for that uid is
   * pending: the first for a uid the ledger does not hold, the next once a result released it.
   */
  private void issue(
      final String cluster,
      final PodId id,
      final String uid,
      final Instant now,
      final CommandOfAttempt commandOfAttempt) {
    final EvictionCommand issued = inLedger.contains(id) ? ledger.get(id) : null;
    final int attempt;
    final int unreachable;
    if (issued == null || !issued.getPodUid().equals(uid)) {
      attempt = 1;
      unreachable = 0;
    } else if (released(id, now)) {
      attempt = issued.getAttempt() + 1;
      unreachable = issued.getUnreachableRetries();
    } else if (unanswered(id, issued, now)) {
      // Issue 40: no result will come (connectors renamed, results lost or past their retention);
      // the executor no longer carries it out either, so it is given up, and not as an attempt.
      metrics.evictions().unanswered(cluster);
      LOG.warn(
          "Command {} for {}/{}/{} (attempt {}) got no result since {}, more than {}"
              + " (revoke.result.timeout): given up, not counted as an attempt",
          issued.getId(),
          cluster,
          id.namespace(),
          id.name(),
          issued.getAttempt(),
          issued.getIssuedAt(),
          policy.resultTimeout());
      attempt = issued.getAttempt() + 1;
      unreachable = issued.getUnreachableRetries() + 1;
    } else {
      return;
    }
    // Commands that found the API server unreachable are not the pod's attempts: they extend the
    // number allowed, each command keeping an id of its own.
    final EvictionCommand command =
        EvictionCommand.newBuilder(
                commandOfAttempt.apply(attempt, policy.maxAttempts() + unreachable))
            .setUnreachableRetries(unreachable)
            .build();
    // The ledger entry and the command are committed together: a crash loses or keeps both.
    ledger.put(id, command);
    retryAt.delete(id);
    inLedger.add(id);
    context.forward(
        new Record<SpecificRecord, SpecificRecord>(
            new PodKey(cluster, id.namespace(), id.name()), command, now.toEpochMilli()),
        sink);
    final String reason = EvictionReasons.of(command);
    onIssued.issued(cluster, command, now);
    metrics.evictions().issued(cluster, reason);
    if (attempt > 1) {
      metrics.evictions().retried(cluster, reason);
    }
    LOG.info(
        "Evicting {}/{}/{} (uid {}) of group {}, attempt {}, {}: {}",
        cluster,
        id.namespace(),
        id.name(),
        uid,
        command.getGroup(),
        attempt,
        reason,
        command.getReason());
  }

  /** Hears of each eviction command as it is issued. */
  @FunctionalInterface
  public interface IssuedCommands {
    /** {@code command} was issued for a pod of {@code cluster} at {@code at}. */
    void issued(String cluster, EvictionCommand command, Instant at);
  }

  /** The command of attempt {@code attempt}, of {@code allowed} in all. */
  @FunctionalInterface
  private interface CommandOfAttempt {
    EvictionCommand apply(int attempt, int allowed);
  }

  /**
   * Whether the command {@code issued} for pod {@code id} has had no result for longer than the
   * result timeout at {@code now} (by the engine's clock, which stamped its issuedAt).
   */
  private boolean unanswered(final PodId id, final EvictionCommand issued, final Instant now) {
    return retryAt.get(id) == null
        && !now.isBefore(issued.getIssuedAt().plus(policy.resultTimeout()));
  }

  /** Whether a result released pod {@code id} and its backoff has passed at {@code now}. */
  private boolean released(final PodId id, final Instant now) {
    final Long at = retryAt.get(id);
    return at != null && at != NEVER && now.toEpochMilli() >= at;
  }

  private void forget(final String cluster, final String group, final Map<String, Long> since) {
    if (since.remove(group) != null) {
      overUsedSince.delete(new GroupId(cluster, group));
      LOG.info("Group {}/{} is no longer over-used", cluster, group);
    }
  }
}
