package io.quotaflow.admission.machine.scheduler;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.admission.state.ClusterStateReader;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.Ownership;
import io.quotaflow.admission.state.StateUnavailableException;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.reason.Reason;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Why pods wait: the reason the scheduler filter last gave each pod it left without a node, and a
 * gauge {@value #PENDING} per cluster, group and reason of how many pods wait for it. A pod is
 * forgotten once the filter lets it through, once the state lists it on a node, once the state no
 * longer lists it (deleted; absent from two sweeps in a row, as a pod just created may not be read
 * yet), or when the filter has not refused it again for the time to live (the scheduler retries an
 * unschedulable pod at least every 5 minutes by default).
 *
 * <p>At most {@code maxGroups} groups have gauges at a time (the first ones with waiting pods; 0:
 * none), the cap of the engine's per-group gauges ({@code metrics.group.gauges.max}), so that
 * 100,000 groups cannot flood Prometheus; {@value #OMITTED} counts the groups left out. A series
 * goes once no pod waits for its reason. Thread-safe.
 */
public final class PendingPods {

  private static final Logger LOG = LoggerFactory.getLogger(PendingPods.class);

  /**
   * Gauge, tags {@code cluster}, {@code name} (the group, as the engine's per-group gauges) and
   * {@code reason}.
   */
  public static final String PENDING = "quotaflow.pods.pending";

  /** Gauge of the groups with waiting pods but no gauges because of the cap. */
  public static final String OMITTED = "quotaflow.admission.group.gauges.omitted";

  /** Twice the scheduler's longest wait before it tries an unschedulable pod again. */
  public static final Duration DEFAULT_TTL = Duration.ofMinutes(10);

  private record GroupKey(String cluster, String group) {}

  /** The filter's last refusal of one pod. */
  private static final class Refusal {
    final String group;
    final Reason reason;
    final Instant at;
    int sweepsUnseen;

    Refusal(String group, Reason reason, Instant at) {
      this.group = group;
      this.reason = reason;
      this.at = at;
    }
  }

  /** One gauged group's waiting pods by reason, and its gauges. */
  private static final class Counts {
    final Map<Reason, AtomicLong> byReason = new EnumMap<>(Reason.class);
    final Map<Reason, Gauge> gauges = new EnumMap<>(Reason.class);
  }

  private final MeterRegistry registry;
  private final int maxGroups;
  private final Duration ttl;
  private final Map<String, Map<PodRef, Refusal>> clusters = new ConcurrentHashMap<>();
  // The rest is guarded by this.
  private final Map<GroupKey, Counts> gauged = new HashMap<>();
  private final Map<GroupKey, Integer> omitted = new HashMap<>();

  public PendingPods(MeterRegistry registry, int maxGroups, Duration ttl) {
    this.registry = registry;
    this.maxGroups = maxGroups;
    this.ttl = ttl;
    if (maxGroups > 0) {
      Gauge.builder(OMITTED, this, PendingPods::omittedGroups)
          .description(
              "Quota groups with pending pods but no per-group gauges (metrics.group.gauges.max)")
          .register(registry);
    }
  }

  /** Notes that the filter left {@code pod} of {@code group} without a node for {@code reason}. */
  public void refused(String cluster, PodRef pod, String group, Reason reason, Instant now) {
    if (maxGroups == 0) {
      return;
    }
    synchronized (this) {
      final Map<PodRef, Refusal> pods =
          clusters.computeIfAbsent(cluster, c -> new ConcurrentHashMap<>());
      final Refusal before = pods.put(pod, new Refusal(group, reason, now));
      if (before != null) {
        remove(cluster, before);
      }
      add(new GroupKey(cluster, group), reason);
    }
  }

  /** Forgets {@code pod}: the filter let it through. */
  public void allowed(String cluster, PodRef pod) {
    final Map<PodRef, Refusal> pods = clusters.get(cluster);
    // Most pods the filter lets through were never refused: no lock for them.
    if (pods == null || !pods.containsKey(pod)) {
      return;
    }
    synchronized (this) {
      final Refusal before = pods.remove(pod);
      if (before != null) {
        remove(cluster, before);
      }
    }
  }

  /**
   * Forgets the pods the state lists on a node or no longer lists, and those not refused for the
   * time to live; drops every pod of a cluster that moved to another instance. Never throws.
   */
  public void sweep(ClusterStateReader reader, Instant now) {
    for (final String cluster : List.copyOf(clusters.keySet())) {
      try {
        final Ownership owner = reader.owner(cluster);
        if (owner instanceof Ownership.Remote) {
          forget(cluster, pod -> true);
          continue;
        }
        final Optional<ClusterView> view =
            owner instanceof Ownership.Unavailable ? Optional.empty() : reader.cluster(cluster);
        forget(cluster, pod -> expired(pod, now));
        view.ifPresent(v -> forgetSettled(cluster, v));
      } catch (StateUnavailableException e) {
        LOG.debug(
            "cluster={} not readable for the pending pods' sweep: {}", cluster, e.getMessage());
      } catch (RuntimeException e) {
        LOG.warn("cluster={} pending pods' sweep failed", cluster, e);
      }
    }
  }

  private boolean expired(Refusal refusal, Instant now) {
    return !refusal.at.plus(ttl).isAfter(now);
  }

  /** Forgets the pods the state lists on a node, or has not listed at two sweeps in a row. */
  private void forgetSettled(String cluster, ClusterView view) {
    final Map<PodRef, Refusal> pods = clusters.getOrDefault(cluster, Map.of());
    final List<PodRef> refs;
    synchronized (this) {
      refs = new ArrayList<>(pods.keySet());
    }
    // Read outside the lock: one store read per pod.
    final Set<PodRef> bound = new HashSet<>();
    final Set<PodRef> unlisted = new HashSet<>();
    for (final PodRef ref : refs) {
      final Optional<QuotaPod> input = view.podInput(ref);
      if (input.isEmpty()) {
        unlisted.add(ref);
      } else if (input.get().isBound()) {
        bound.add(ref);
      }
    }
    synchronized (this) {
      for (final PodRef ref : refs) {
        final Refusal refusal = pods.get(ref);
        if (refusal == null) {
          continue;
        }
        refusal.sweepsUnseen = unlisted.contains(ref) ? refusal.sweepsUnseen + 1 : 0;
        if (bound.contains(ref) || refusal.sweepsUnseen >= 2) {
          pods.remove(ref);
          remove(cluster, refusal);
        }
      }
    }
  }

  private void forget(String cluster, Predicate<Refusal> which) {
    final Map<PodRef, Refusal> pods = clusters.get(cluster);
    if (pods == null) {
      return;
    }
    synchronized (this) {
      pods.values()
          .removeIf(
              refusal -> {
                if (!which.test(refusal)) {
                  return false;
                }
                remove(cluster, refusal);
                return true;
              });
      if (pods.isEmpty()) {
        clusters.remove(cluster, pods);
      }
    }
  }

  private void add(GroupKey key, Reason reason) {
    Counts counts = gauged.get(key);
    if (counts == null) {
      if (gauged.size() >= maxGroups || omitted.containsKey(key)) {
        omitted.merge(key, 1, Integer::sum);
        return;
      }
      counts = new Counts();
      gauged.put(key, counts);
    }
    final Counts group = counts;
    group
        .byReason
        .computeIfAbsent(
            reason,
            r -> {
              final AtomicLong value = new AtomicLong();
              group.gauges.put(
                  r,
                  Gauge.builder(PENDING, value, AtomicLong::get)
                      .description("Pods the scheduler filter left without a node, by reason")
                      .tag("cluster", key.cluster())
                      .tag("name", key.group())
                      .tag("reason", r.code())
                      .strongReference(true)
                      .register(registry));
              return value;
            })
        .incrementAndGet();
  }

  private void remove(String cluster, Refusal refusal) {
    final GroupKey key = new GroupKey(cluster, refusal.group);
    final Counts counts = gauged.get(key);
    if (counts == null) {
      omitted.computeIfPresent(key, (k, n) -> n > 1 ? n - 1 : null);
      return;
    }
    final AtomicLong value = counts.byReason.get(refusal.reason);
    if (value != null && value.decrementAndGet() == 0) {
      counts.byReason.remove(refusal.reason);
      registry.remove(counts.gauges.remove(refusal.reason));
    }
    if (counts.byReason.isEmpty()) {
      // The group's slot is free for another group with waiting pods.
      gauged.remove(key);
    }
  }

  private synchronized double omittedGroups() {
    return omitted.size();
  }
}
