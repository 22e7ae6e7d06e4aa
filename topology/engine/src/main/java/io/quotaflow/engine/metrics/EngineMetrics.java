package io.quotaflow.engine.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.quotaflow.engine.errors.ClusterQuarantine;
import io.quotaflow.engine.liveness.Heartbeats;
import io.quotaflow.tree.GroupStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The engine's own meters: input records read per topic, rejected records per topic, recomputation
 * time, groups per cluster, eviction commands issued and retried (by reason), and pods whose
 * eviction attempts ran out. Kafka Streams' metrics are bound to the same registry by the engine.
 * Thread-safe: stream threads share one instance.
 */
public final class EngineMetrics {
  /**
   * Key under which the engine hands this object to the exception handlers through the Streams
   * configuration (they are created by Kafka Streams and cannot take constructor arguments).
   */
  public static final String CONFIG_KEY = "quotaflow.engine.metrics";

  /** Counter of input records read, tag {@code topic}. */
  public static final String RECORDS_READ = "quotaflow.engine.records.read";

  /** Counter of records sent to the dead-letter topic, tag {@code topic}. */
  public static final String RECORDS_REJECTED = "quotaflow.engine.records.rejected";

  /**
   * Counter of output records that could never be written (too large, not serializable) and were
   * dropped, sent to the dead-letter topic when possible, tags {@code topic} (where they were to
   * go) and {@code reason} (the exception's simple name).
   */
  public static final String RECORDS_UNWRITABLE = "quotaflow.engine.records.unwritable";

  /**
   * Counter of stream threads replaced after a transient failure (see {@code
   * StreamThreadFailures}); a crash loop shuts the instance down instead.
   */
  public static final String THREADS_REPLACED = "quotaflow.engine.threads.replaced";

  /** Timer of one cluster's recomputation. */
  public static final String RECOMPUTE_TIME = "quotaflow.engine.recompute";

  /**
   * Timer of rebuilding a task's clusters from its stores when the task starts (restart,
   * rebalance): inputs into a fresh state, last results as its previous result.
   */
  public static final String REBUILD_TIME = "quotaflow.engine.rebuild";

  /**
   * Counter of re-created tasks whose restore began past the start of a changelog and was refused
   * (docs/operations.md: the task is wiped and restored again).
   */
  public static final String RESTORES_REFUSED = "quotaflow.engine.restores.refused";

  /**
   * Counter of tasks found resuming past input records after the last commit (Kafka Streams'
   * defect, docs/upstream/kafka-streams-revived-task-skips-fetched-records.md): the stream thread
   * rejoins its group and reads on from the committed offsets.
   */
  public static final String INPUTS_SKIPPED = "quotaflow.engine.inputs.skipped";

  /** Gauge of the clusters the active task of an input partition holds, tag {@code partition}. */
  public static final String TASK_CLUSTERS = "quotaflow.engine.task.clusters";

  /**
   * Gauge of this instance's active tasks that hold no cluster while their input partitions hold
   * records: 1 or more after a restore that lost state (docs/operations.md).
   */
  public static final String TASKS_EMPTY_WITH_INPUTS = "quotaflow.engine.tasks.empty.with.inputs";

  /** Gauge: 1 while this instance cannot reach Kafka (so cannot commit), else 0. */
  public static final String KAFKA_UNREACHABLE = "quotaflow.engine.kafka.unreachable";

  /** Gauge of quota groups per cluster (special groups included), tag {@code cluster}. */
  public static final String GROUPS = "quotaflow.engine.groups";

  /**
   * Gauge of pods whose quota-name label names a group not bound to their namespace, tag {@code
   * cluster}: they are charged as if unlabelled (docs/security.md). Above 0, pods got past the pod
   * webhook (down, failing open, or not yet installed when they were created).
   */
  public static final String PODS_UNBOUND = "quotaflow.engine.pods.unbound";

  /**
   * Gauge of ElasticQuotas ignored because an older one of another namespace has their name, tag
   * {@code cluster} (docs/security.md).
   */
  public static final String NAMESAKES_IGNORED = "quotaflow.engine.quotas.namesakes.ignored";

  /**
   * Gauge of the age in seconds of a cluster's oldest newest input marker (heartbeat), tag {@code
   * cluster}; -1 while none was read.
   */
  public static final String INPUTS_STALENESS = "quotaflow.engine.inputs.staleness.seconds";

  /**
   * Gauge of how many seconds ahead of its record's time (at most the engine's clock) a cluster's
   * connectors stamped their newest marker, tag {@code cluster}: their clock's skew (issue 40).
   */
  public static final String INPUTS_CLOCK_SKEW = "quotaflow.engine.inputs.clock.skew.seconds";

  /**
   * Gauge: 1 while reclaim of a cluster is suspended because its inputs are not fresh (or wait for
   * a snapshot), else 0; tag {@code cluster}.
   */
  public static final String RECLAIM_SUSPENDED = "quotaflow.engine.reclaim.suspended";

  /**
   * Counter of inputs dropped because a connectors' snapshot did not re-send them (deletes lost or
   * compacted away), tags {@code cluster} and {@code kind}.
   */
  public static final String SNAPSHOT_DROPPED = "quotaflow.engine.snapshot.dropped";

  /**
   * Counter of eviction commands issued, retries included, tags {@code cluster} and {@code reason}
   * (the command's code: {@code reclaimed-after-delay} or {@code node-reserved}).
   */
  public static final String EVICTIONS = "quotaflow.engine.evictions.issued";

  /**
   * Counter of eviction commands that found their cluster's API server unreachable, tag {@code
   * cluster}: they do not count as attempts, and the pod is commanded again.
   */
  public static final String EVICTIONS_UNREACHABLE = "quotaflow.engine.evictions.unreachable";

  /**
   * Counter of eviction commands the executor refused because the engine's inputs for the cluster
   * may have missed changes since the decision (result {@code STALE}), tag {@code cluster}: not
   * counted as attempts; the pod is commanded again only if it is still chosen.
   */
  public static final String EVICTIONS_STALE = "quotaflow.engine.evictions.stale";

  /**
   * Counter of eviction commands the executor did not carry out because they were older than its
   * {@code eviction.max.age} when read (result {@code EXPIRED}), tag {@code cluster}: not counted
   * as attempts (issue 40).
   */
  public static final String EVICTIONS_EXPIRED = "quotaflow.engine.evictions.expired";

  /**
   * Counter of eviction commands that got no result within {@code revoke.result.timeout}, tag
   * {@code cluster}: given up on the engine's side, not counted as attempts, the pod decided again
   * (issue 40).
   */
  public static final String EVICTIONS_UNANSWERED = "quotaflow.engine.evictions.unanswered";

  /**
   * Counter of eviction commands that retry a pod whose earlier eviction did not happen, tags
   * {@code cluster} and {@code reason}, as {@link #EVICTIONS}: the difference of the two counts
   * first attempts.
   */
  public static final String EVICTIONS_RETRIED = "quotaflow.engine.evictions.retried";

  /**
   * Counter of pods whose last allowed command ({@code revoke.max.attempts}) did not evict them,
   * tag {@code cluster}: they are not commanded again.
   */
  public static final String EVICTIONS_EXHAUSTED = "quotaflow.engine.evictions.exhausted";

  /** Gauge: 1 while the Kafka Streams application runs (RUNNING or REBALANCING), else 0. */
  public static final String RUNNING = "quotaflow.engine.running";

  /** Default of how many groups get per-group gauges, as the setting's default. */
  public static final int DEFAULT_GROUP_GAUGES = 1000;

  /**
   * Timer of one cluster's node reservation plan (the locks chosen again, or their idle amounts
   * refreshed), tag {@code kind}: {@code plan} or {@code refresh}.
   */
  public static final String RESERVATION_PLAN_TIME = "quotaflow.engine.reservations.plan";

  private final MeterRegistry registry;
  private final ClusterQuarantine quarantine;
  private final GroupGauges groupGauges;
  private final Counter restoresRefused;
  private final Counter inputsSkipped;
  private final Heartbeats heartbeats;
  private final Counter threadsReplaced;
  private final Map<Integer, AtomicInteger> taskClusters = new ConcurrentHashMap<>();
  private final Timer recomputeTime;
  private final Timer rebuildTime;
  private final Timer reservationPlanTime;
  private final Timer reservationRefreshTime;
  private final Map<String, Counter> read = new ConcurrentHashMap<>();
  private final Map<String, Counter> rejected = new ConcurrentHashMap<>();
  private final Map<ClusterReason, Counter> evictions = new ConcurrentHashMap<>();
  private final Map<ClusterReason, Counter> retried = new ConcurrentHashMap<>();
  private final Map<String, Counter> exhausted = new ConcurrentHashMap<>();
  private final Map<String, Counter> unreachable = new ConcurrentHashMap<>();
  private final Map<String, Counter> stale = new ConcurrentHashMap<>();
  private final Map<String, Counter> expired = new ConcurrentHashMap<>();
  private final Map<String, Counter> unanswered = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> groups = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> unboundPods = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> namesakes = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> staleness = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> skew = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> suspended = new ConcurrentHashMap<>();

  /** Meters registered in {@code registry}, with per-group gauges for the default number. */
  public EngineMetrics(final MeterRegistry registry) {
    this(registry, DEFAULT_GROUP_GAUGES);
  }

  /**
   * Meters registered in {@code registry}.
   *
   * @param maxGroupGauges how many groups get per-group gauges; 0 for none
   */
  public EngineMetrics(final MeterRegistry registry, final int maxGroupGauges) {
    this(registry, maxGroupGauges, new Heartbeats(Clock.systemUTC()));
  }

  /**
   * @param heartbeats where the stream tasks beat (read by {@code /healthz})
   */
  public EngineMetrics(
      final MeterRegistry registry, final int maxGroupGauges, final Heartbeats heartbeats) {
    this.heartbeats = Objects.requireNonNull(heartbeats, "heartbeats");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.quarantine = new ClusterQuarantine(registry);
    this.groupGauges = new GroupGauges(registry, maxGroupGauges);
    this.recomputeTime =
        Timer.builder(RECOMPUTE_TIME)
            .description("Time to recompute one cluster's quota tree and emit its changes")
            .register(registry);
    this.rebuildTime =
        Timer.builder(REBUILD_TIME)
            .description("Time to rebuild a task's quota trees from its stores when it starts")
            .register(registry);
    this.restoresRefused =
        Counter.builder(RESTORES_REFUSED)
            .description(
                "Restores of a re-created task refused because they began past the start of a"
                    + " changelog (the task is restored again)")
            .register(registry);
    this.inputsSkipped =
        Counter.builder(INPUTS_SKIPPED)
            .description(
                "Tasks found resuming past input records after the last commit (the stream thread"
                    + " rejoins and reads on from the committed offsets)")
            .register(registry);
    this.threadsReplaced =
        Counter.builder(THREADS_REPLACED)
            .description(
                "Stream threads replaced after a transient failure; they resume their tasks from"
                    + " the last commit")
            .register(registry);
    this.reservationPlanTime = reservationTimer("plan");
    this.reservationRefreshTime = reservationTimer("refresh");
  }

  private Timer reservationTimer(final String kind) {
    return Timer.builder(RESERVATION_PLAN_TIME)
        .description("Time to plan one cluster's node reservations")
        .tag("kind", kind)
        .register(registry);
  }

  /** One cluster's reservations were planned ({@code full}) or their idle amounts refreshed. */
  public void reservationsPlanned(final boolean full, final Duration time) {
    (full ? reservationPlanTime : reservationRefreshTime).record(time);
  }

  /** Meters that go nowhere, for tests and tools that do not export them. */
  public static EngineMetrics discarding() {
    return new EngineMetrics(new CompositeMeterRegistry());
  }

  /**
   * The loops of this instance that must keep running (its stream tasks), shared like {@link
   * #quarantine()}: {@code /healthz} fails while one is silent.
   */
  public Heartbeats heartbeats() {
    return heartbeats;
  }

  /**
   * The clusters quarantined in this instance, shared by the processors and the processing
   * exception handler (which, like the meters, reach it through this object).
   */
  public ClusterQuarantine quarantine() {
    return quarantine;
  }

  /** The registry the meters live in. */
  public MeterRegistry registry() {
    return registry;
  }

  /** One input record was read from {@code topic}. */
  public void recordRead(final String topic) {
    readCounter(topic).run();
  }

  /** What counts one record read from {@code topic}: a caller may keep it per topic. */
  public Runnable readCounter(final String topic) {
    final Counter counter =
        read.computeIfAbsent(
            topic,
            t ->
                Counter.builder(RECORDS_READ)
                    .description("Input records read")
                    .tag("topic", t)
                    .register(registry));
    return counter::increment;
  }

  /** One record of {@code topic} was sent to the dead-letter topic. */
  public void recordRejected(final String topic) {
    rejected
        .computeIfAbsent(
            String.valueOf(topic),
            t ->
                Counter.builder(RECORDS_REJECTED)
                    .description("Records sent to the dead-letter topic")
                    .tag("topic", t)
                    .register(registry))
        .increment();
  }

  /** A stream thread that failed was replaced by a new one. */
  public void threadReplaced() {
    threadsReplaced.increment();
  }

  /**
   * An output record for {@code topic} could never be written, because of {@code reason} (an
   * exception's simple name), and was dropped.
   */
  public void recordUnwritable(final String topic, final String reason) {
    Counter.builder(RECORDS_UNWRITABLE)
        .description("Output records that could never be written and were dropped")
        .tag("topic", String.valueOf(topic))
        .tag("reason", String.valueOf(reason))
        .register(registry)
        .increment();
  }

  /** A task rebuilt its clusters from its stores in {@code time}. */
  public void rebuilt(final Duration time) {
    rebuildTime.record(time);
  }

  /**
   * The task on input partition {@code partition} now holds {@code clusters} clusters (gauge {@link
   * #TASK_CLUSTERS}, tag {@code partition}).
   */
  public void taskHolds(final int partition, final int clusters) {
    taskClusters
        .computeIfAbsent(
            partition,
            p -> {
              final AtomicInteger value = new AtomicInteger();
              Gauge.builder(TASK_CLUSTERS, value, AtomicInteger::get)
                  .description("Clusters held by the active task of an input partition")
                  .tag("partition", Integer.toString(p))
                  .register(registry);
              return value;
            })
        .set(clusters);
  }

  /** The task on {@code partition} left this instance. */
  public void taskReleased(final int partition) {
    if (taskClusters.remove(partition) != null) {
      final Gauge gauge =
          registry.find(TASK_CLUSTERS).tag("partition", Integer.toString(partition)).gauge();
      if (gauge != null) {
        registry.remove(gauge);
      }
    }
  }

  /** How many clusters each active task of this instance holds, by input partition. */
  public Map<Integer, Integer> clustersByTask() {
    final Map<Integer, Integer> held = new TreeMap<>();
    taskClusters.forEach((partition, clusters) -> held.put(partition, clusters.get()));
    return held;
  }

  /** A re-created task's restore was refused as incomplete, and the task is restored again. */
  public void restoreRefused() {
    restoresRefused.increment();
  }

  /** A task was found resuming past input records after the last commit. */
  public void inputsSkipped() {
    inputsSkipped.increment();
  }

  /** One cluster was recomputed in {@code time} and now has {@code groupCount} groups. */
  public void recomputed(final String cluster, final Duration time, final int groupCount) {
    recomputeTime.record(time);
    groups
        .computeIfAbsent(
            cluster,
            c -> {
              final AtomicInteger value = new AtomicInteger();
              Gauge.builder(GROUPS, value, AtomicInteger::get)
                  .description("Quota groups of a cluster held by this instance")
                  .tag("cluster", c)
                  .register(registry);
              return value;
            })
        .set(groupCount);
  }

  /** {@code cluster} now holds {@code count} pods whose label names an unbound group. */
  public void unboundPods(final String cluster, final int count) {
    clusterGauge(
            unboundPods,
            PODS_UNBOUND,
            "Pods whose quota-name label names a group not bound to their namespace, charged as if"
                + " unlabelled",
            cluster)
        .set(count);
  }

  /** {@code cluster} now has {@code count} ElasticQuotas ignored for an older one's name. */
  public void ignoredNamesakes(final String cluster, final int count) {
    clusterGauge(
            namesakes,
            NAMESAKES_IGNORED,
            "ElasticQuotas ignored because an older one of another namespace has their name",
            cluster)
        .set(count);
  }

  /**
   * How fresh {@code cluster}'s inputs are: the age of its oldest newest marker (null when none was
   * read), and whether its reclaim is suspended.
   */
  public void inputFreshness(
      final String cluster, final Duration age, final boolean reclaimSuspended) {
    clusterGauge(
            staleness,
            INPUTS_STALENESS,
            "Age in seconds of the oldest of a cluster's newest input heartbeats; -1 while none was"
                + " read",
            cluster)
        .set(age == null ? -1 : (int) Math.min(Integer.MAX_VALUE, age.toSeconds()));
    clusterGauge(
            suspended,
            RECLAIM_SUSPENDED,
            "1 while reclaim of a cluster is suspended because its inputs are stale or wait for a"
                + " snapshot",
            cluster)
        .set(reclaimSuspended ? 1 : 0);
  }

  /** How far ahead {@code cluster}'s connectors stamp their markers (negative: behind). */
  public void inputClockSkew(final String cluster, final Duration ahead) {
    clusterGauge(
            skew,
            INPUTS_CLOCK_SKEW,
            "Seconds a cluster's connectors stamped their newest marker ahead of its record's time"
                + " (at most the engine's clock); negative: behind",
            cluster)
        .set((int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, ahead.toSeconds())));
  }

  /** A snapshot of {@code cluster}'s inputs of {@code kind} dropped {@code count} inputs. */
  public void snapshotDropped(final String cluster, final String kind, final int count) {
    if (count > 0) {
      Counter.builder(SNAPSHOT_DROPPED)
          .description(
              "Inputs dropped because a connectors' snapshot did not re-send them (deletes lost or"
                  + " compacted away)")
          .tag("cluster", cluster)
          .tag("kind", kind)
          .register(registry)
          .increment(count);
    }
  }

  private AtomicInteger clusterGauge(
      final Map<String, AtomicInteger> values,
      final String name,
      final String description,
      final String cluster) {
    return values.computeIfAbsent(
        cluster,
        c -> {
          final AtomicInteger value = new AtomicInteger();
          Gauge.builder(name, value, AtomicInteger::get)
              .description(description)
              .tag("cluster", c)
              .register(registry);
          return value;
        });
  }

  /**
   * The statuses of {@code cluster}'s groups that changed (or were restored), and the groups that
   * are gone, for the per-group gauges.
   */
  public void groupsChanged(
      final String cluster, final List<GroupStatus> changed, final List<String> removed) {
    groupGauges.changed(cluster, changed, removed);
  }

  /** Gauges whether {@code streams} runs: 1 in RUNNING or REBALANCING, else 0. */
  public void bindState(final KafkaStreams streams) {
    Gauge.builder(
            RUNNING,
            streams,
            s ->
                s.state() == KafkaStreams.State.RUNNING
                        || s.state() == KafkaStreams.State.REBALANCING
                    ? 1
                    : 0)
        .description("1 while the engine's Kafka Streams application runs, else 0")
        .strongReference(true)
        .register(registry);
  }

  /** This instance no longer holds {@code cluster} (its task moved away). */
  public void clusterReleased(final String cluster) {
    groupGauges.released(cluster);
    removeClusterGauge(groups, GROUPS, cluster);
    removeClusterGauge(unboundPods, PODS_UNBOUND, cluster);
    removeClusterGauge(namesakes, NAMESAKES_IGNORED, cluster);
    removeClusterGauge(staleness, INPUTS_STALENESS, cluster);
    removeClusterGauge(skew, INPUTS_CLOCK_SKEW, cluster);
    removeClusterGauge(suspended, RECLAIM_SUSPENDED, cluster);
  }

  private void removeClusterGauge(
      final Map<String, AtomicInteger> values, final String name, final String cluster) {
    if (values.remove(cluster) != null) {
      final Gauge gauge = registry.find(name).tag("cluster", cluster).gauge();
      if (gauge != null) {
        registry.remove(gauge);
      }
    }
  }

  /** A command for a pod of {@code cluster} found the cluster's API server unreachable. */
  public void evictionUnreachable(final String cluster) {
    unreachable
        .computeIfAbsent(
            cluster,
            c ->
                Counter.builder(EVICTIONS_UNREACHABLE)
                    .description(
                        "Eviction commands that found the cluster's API server unreachable (not"
                            + " counted as attempts)")
                    .tag("cluster", c)
                    .register(registry))
        .increment();
  }

  /** A command for a pod of {@code cluster} was refused: decided on possibly incomplete inputs. */
  public void evictionStale(final String cluster) {
    stale
        .computeIfAbsent(
            cluster,
            c ->
                Counter.builder(EVICTIONS_STALE)
                    .description(
                        "Eviction commands refused as decided on possibly incomplete inputs (not"
                            + " counted as attempts)")
                    .tag("cluster", c)
                    .register(registry))
        .increment();
  }

  /** A command for a pod of {@code cluster} expired before the executor read it. */
  public void evictionExpired(final String cluster) {
    expired
        .computeIfAbsent(
            cluster,
            c ->
                Counter.builder(EVICTIONS_EXPIRED)
                    .description(
                        "Eviction commands the executor read too late to carry out (not counted"
                            + " as attempts)")
                    .tag("cluster", c)
                    .register(registry))
        .increment();
  }

  /** A command for a pod of {@code cluster} got no result in time: given up on. */
  public void evictionUnanswered(final String cluster) {
    unanswered
        .computeIfAbsent(
            cluster,
            c ->
                Counter.builder(EVICTIONS_UNANSWERED)
                    .description(
                        "Eviction commands without a result within revoke.result.timeout (not"
                            + " counted as attempts)")
                    .tag("cluster", c)
                    .register(registry))
        .increment();
  }

  /**
   * One eviction command was issued for a pod of {@code cluster}, for {@code reason} (its code).
   */
  public void evictionIssued(final String cluster, final String reason) {
    countByReason(evictions, EVICTIONS, "Eviction commands issued", cluster, reason);
  }

  /**
   * One eviction command retried a pod of {@code cluster} for {@code reason} (it also counts as
   * issued).
   */
  public void evictionRetried(final String cluster, final String reason) {
    countByReason(
        retried,
        EVICTIONS_RETRIED,
        "Eviction commands retrying a pod not evicted before",
        cluster,
        reason);
  }

  private void countByReason(
      final Map<ClusterReason, Counter> counters,
      final String name,
      final String description,
      final String cluster,
      final String reason) {
    counters
        .computeIfAbsent(
            new ClusterReason(cluster, reason),
            key ->
                Counter.builder(name)
                    .description(description)
                    .tag("cluster", key.cluster())
                    .tag("reason", key.reason())
                    .register(registry))
        .increment();
  }

  /** The tags of a counter by cluster and reason code. */
  private record ClusterReason(String cluster, String reason) {}

  /** A pod of {@code cluster} used up its eviction attempts without being evicted. */
  public void evictionsExhausted(final String cluster) {
    count(
        exhausted,
        EVICTIONS_EXHAUSTED,
        "Pods whose eviction attempts ran out without an eviction",
        cluster);
  }

  private void count(
      final Map<String, Counter> counters,
      final String name,
      final String description,
      final String cluster) {
    counters
        .computeIfAbsent(
            cluster,
            c ->
                Counter.builder(name).description(description).tag("cluster", c).register(registry))
        .increment();
  }
}
