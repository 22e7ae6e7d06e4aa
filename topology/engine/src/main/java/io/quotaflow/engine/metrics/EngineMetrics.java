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
 * The engine's own meters and the catalogue of their names: input records read and rejected per
 * topic, stream threads, tasks and their rebuilds, recomputation time, groups per cluster; the
 * meters of input freshness ({@link #freshness()}) and of eviction commands ({@link #evictions()})
 * each have their own class. Kafka Streams' metrics are bound to the same registry by the engine.
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

  // The meters of freshness and of eviction commands are recorded by FreshnessMeters and
  // EvictionMeters; their names stay here too, for the callers that read them from this catalogue.

  /** {@link FreshnessMeters#INPUTS_STALENESS}. */
  public static final String INPUTS_STALENESS = FreshnessMeters.INPUTS_STALENESS;

  /** {@link FreshnessMeters#INPUTS_CLOCK_SKEW}. */
  public static final String INPUTS_CLOCK_SKEW = FreshnessMeters.INPUTS_CLOCK_SKEW;

  /** {@link FreshnessMeters#RECLAIM_SUSPENDED}. */
  public static final String RECLAIM_SUSPENDED = FreshnessMeters.RECLAIM_SUSPENDED;

  /** {@link FreshnessMeters#SNAPSHOT_DROPPED}. */
  public static final String SNAPSHOT_DROPPED = FreshnessMeters.SNAPSHOT_DROPPED;

  /** {@link EvictionMeters#EVICTIONS}. */
  public static final String EVICTIONS = EvictionMeters.EVICTIONS;

  /** {@link EvictionMeters#EVICTIONS_UNREACHABLE}. */
  public static final String EVICTIONS_UNREACHABLE = EvictionMeters.EVICTIONS_UNREACHABLE;

  /** {@link EvictionMeters#EVICTIONS_STALE}. */
  public static final String EVICTIONS_STALE = EvictionMeters.EVICTIONS_STALE;

  /** {@link EvictionMeters#EVICTIONS_EXPIRED}. */
  public static final String EVICTIONS_EXPIRED = EvictionMeters.EVICTIONS_EXPIRED;

  /** {@link EvictionMeters#EVICTIONS_UNANSWERED}. */
  public static final String EVICTIONS_UNANSWERED = EvictionMeters.EVICTIONS_UNANSWERED;

  /** {@link EvictionMeters#EVICTIONS_RETRIED}. */
  public static final String EVICTIONS_RETRIED = EvictionMeters.EVICTIONS_RETRIED;

  /** {@link EvictionMeters#EVICTIONS_EXHAUSTED}. */
  public static final String EVICTIONS_EXHAUSTED = EvictionMeters.EVICTIONS_EXHAUSTED;

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
  private final ClusterGauges clusterGauges;
  private final FreshnessMeters freshness;
  private final EvictionMeters evictions;
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
  private final Map<String, AtomicInteger> groups = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> unboundPods = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> namesakes = new ConcurrentHashMap<>();

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
    this.clusterGauges = new ClusterGauges(registry);
    this.freshness = new FreshnessMeters(registry, clusterGauges);
    this.evictions = new EvictionMeters(registry);
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

  /** The meters of each cluster's input freshness. */
  public FreshnessMeters freshness() {
    return freshness;
  }

  /** The meters of reclaim's eviction commands. */
  public EvictionMeters evictions() {
    return evictions;
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
    clusterGauges
        .of(
            unboundPods,
            PODS_UNBOUND,
            "Pods whose quota-name label names a group not bound to their namespace, charged as if"
                + " unlabelled",
            cluster)
        .set(count);
  }

  /** {@code cluster} now has {@code count} ElasticQuotas ignored for an older one's name. */
  public void ignoredNamesakes(final String cluster, final int count) {
    clusterGauges
        .of(
            namesakes,
            NAMESAKES_IGNORED,
            "ElasticQuotas ignored because an older one of another namespace has their name",
            cluster)
        .set(count);
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
    clusterGauges.remove(groups, GROUPS, cluster);
    clusterGauges.remove(unboundPods, PODS_UNBOUND, cluster);
    clusterGauges.remove(namesakes, NAMESAKES_IGNORED, cluster);
    freshness.released(cluster);
  }
}
