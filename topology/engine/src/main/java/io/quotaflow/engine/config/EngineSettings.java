package io.quotaflow.engine.config;

import io.quotaflow.config.Parsers;
import io.quotaflow.config.QuotaSettings;
import io.quotaflow.config.Setting;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.store.StoreKind;
import io.quotaflow.eviction.ProtectedPods;
import io.quotaflow.quota.Quantities;
import io.quotaflow.topics.TopicCatalogue;
import java.time.Duration;
import java.util.List;

/**
 * The catalogue of the engine's settings: its own, declared here, the history's ({@link
 * HistorySettings}) and the settings of quota semantics, declared once for every reader in {@link
 * QuotaSettings}. Everything else in a configuration is a Kafka client or Kafka Streams setting and
 * passes through unchanged (see {@link EngineConfig}).
 */
public final class EngineSettings {
  /** Prefix of every topic name. */
  public static final Setting<String> TOPIC_PREFIX =
      new Setting<>(
          "topic.prefix",
          "string",
          TopicCatalogue.DEFAULT_PREFIX,
          "Prefix of every quotaflow topic name.",
          text -> TopicCatalogue.withPrefix(text).prefix());

  /** Partitions of topics the engine creates. */
  public static final Setting<Integer> TOPIC_PARTITIONS =
      new Setting<>(
          "topic.partitions",
          "int",
          "6",
          "Partition count of the topics the engine creates, and expected of existing ones.",
          Parsers::positiveInt);

  /** Replication factor of topics the engine creates. */
  public static final Setting<Integer> TOPIC_REPLICATION_FACTOR =
      new Setting<>(
          "topic.replication.factor",
          "int",
          "1",
          "Replication factor of the topics the engine creates (use 3 in production).",
          Parsers::positiveInt);

  /** How long input events are coalesced before a cluster is recomputed. */
  public static final Setting<Duration> RECOMPUTE_INTERVAL =
      new Setting<>(
          "recompute.interval",
          "duration",
          "100ms",
          "Wall-clock interval at which clusters whose inputs changed are recomputed; events within"
              + " one interval are coalesced into one recomputation.",
          Parsers::duration);

  /** Reclaim by eviction on or off. */
  public static final Setting<Boolean> RECLAIM_ENABLED =
      new Setting<>(
          "reclaim.enabled",
          "boolean",
          "true",
          "Whether over-used groups are reclaimed by eviction commands (SPEC 11).",
          Parsers::bool);

  /** The longest a cluster's recomputation waits while the engine works through a backlog. */
  public static final Setting<Duration> RECOMPUTE_BACKLOG_INTERVAL =
      new Setting<>(
          "recompute.backlog.interval",
          "duration",
          "1s",
          "An event older than this when read is part of a backlog: while a cluster reads one, it"
              + " is recomputed at most this often (less often the older its events, see"
              + " recompute.backlog.max.interval) instead of every recompute.interval; set both to"
              + " recompute.interval to turn pacing off.",
          Parsers::duration);

  /** The longest a cluster working through a backlog goes without a recomputation. */
  public static final Setting<Duration> RECOMPUTE_BACKLOG_MAX_INTERVAL =
      new Setting<>(
          "recompute.backlog.max.interval",
          "duration",
          "10s",
          "The longest a cluster working through a backlog goes without a recomputation: while"
              + " its newest events are A old, it is recomputed once per A/2 (at least"
              + " recompute.backlog.interval, at most this) or when no event of it came for A/20"
              + " (at most recompute.backlog.interval: the end of the backlog).",
          Parsers::duration);

  /** How often over-used groups are looked for. */
  public static final Setting<Duration> REVOKE_CHECK_INTERVAL =
      new Setting<>(
          "revoke.check.interval",
          "duration",
          "1s",
          "Wall-clock interval of the over-use check.",
          Parsers::duration);

  /** How long a group must stay over-used before pods are evicted. */
  public static final Setting<Duration> REVOKE_DELAY =
      new Setting<>(
          "revoke.delay",
          "duration",
          "120s",
          "How long a group must stay over-used (used > runtime) before its pods are evicted.",
          Parsers::duration);

  /**
   * How old a cluster's newest input marker may be for its groups to be reclaimed: beyond it the
   * engine's picture of the cluster may no longer be true, so reclaim waits (docs/reliability.md).
   */
  public static final Setting<Duration> INPUTS_MAX_STALENESS =
      new Setting<>(
          "inputs.max.staleness",
          "duration",
          "60s",
          "How old a cluster's newest heartbeat from the connectors may be before reclaim of the"
              + " cluster is suspended (its over-use clocks paused, no new eviction command); a gap"
              + " between two heartbeats longer than this also suspends it until the connectors'"
              + " next snapshot of the cluster.",
          Parsers::duration);

  /** Whether a cluster whose inputs never carried a marker may be reclaimed. */
  public static final Setting<Boolean> INPUTS_MARKERS_REQUIRED =
      new Setting<>(
          "inputs.markers.required",
          "boolean",
          "true",
          "Whether a cluster is reclaimed only while its inputs carry fresh markers (heartbeats"
              + " and snapshots, written by quotaflow's connectors). Set false when another"
              + " producer writes the inputs without markers: its clusters are then reclaimed on"
              + " their inputs alone, with no protection against stale data.",
          Parsers::bool);

  /** How long a pod whose eviction did not happen waits before it may be commanded again. */
  public static final Setting<Duration> REVOKE_RETRY_BACKOFF =
      new Setting<>(
          "revoke.retry.backoff",
          "duration",
          "60s",
          "How long after a result other than EVICTED (blocked by a disruption budget, failed,"
              + " expired, ...) the pod may be commanded again, if it is still a victim.",
          Parsers::duration);

  /** How long a command may go without a result before the engine gives up on it. */
  public static final Setting<Duration> REVOKE_RESULT_TIMEOUT =
      new Setting<>(
          "revoke.result.timeout",
          "duration",
          "15m",
          "How long the engine waits for the result of an eviction command (from its issuedAt);"
              + " a command without one by then (connectors renamed, results lost, results past"
              + " their retention) is given up, not counted as an attempt, and the pod decided"
              + " again. Keep it above the executor's eviction.max.age (10m) plus a margin: the"
              + " executor no longer carries out a command that old.",
          Parsers::duration);

  /** How many commands a pod gets at most. */
  public static final Setting<Integer> REVOKE_MAX_ATTEMPTS =
      new Setting<>(
          "revoke.max.attempts",
          "int",
          "5",
          "How many eviction commands one pod gets at most; after the last one's result other than"
              + " EVICTED the pod is not commanded again while it lives.",
          Parsers::positiveInt);

  /** How long the engine waits for Kafka Streams to close. */
  public static final Setting<Duration> SHUTDOWN_TIMEOUT =
      new Setting<>(
          "shutdown.timeout",
          "duration",
          "4s",
          "How long a shutdown waits for Kafka Streams to commit and close (SIGTERM ends the"
              + " process within 5 s); what is not committed by then is processed again.",
          Parsers::duration);

  /** Whether the inputs arrive partitioned by cluster, so the repartition hop can be skipped. */
  public static final Setting<Boolean> INPUTS_PARTITIONED_BY_CLUSTER =
      new Setting<>(
          "inputs.partitioned.by.cluster",
          "boolean",
          "true",
          "The input topics hold every record of a cluster on one partition (ClusterPartitioner, as"
              + " the connectors write them by default), so the engine reads them without a"
              + " repartition topic; a record found on another partition is rejected. Set false for"
              + " inputs placed by key (other producers): the engine then repartitions them.",
          Parsers::bool);

  /** Namespaces whose pods reclaim never chooses as victims (issue 24). */
  public static final Setting<List<String>> RECLAIM_PROTECTED_NAMESPACES =
      new Setting<>(
          "reclaim.protected.namespaces",
          "list",
          ProtectedPods.DEFAULT_NAMESPACE_LIST,
          "Comma-separated namespaces whose pods reclaim never chooses as victims (Kubernetes' own,"
              + " quotaflow's, and those of Kafka, Strimzi, cert-manager, Koordinator and"
              + " monitoring); pods of a system priority (2000000000 and up:"
              + " system-cluster-critical, system-node-critical) are never chosen either. Setting"
              + " the list replaces the default.",
          Parsers.list(Parsers::nonBlank));

  /** Whether reclaim may choose victims in the default group (issue 39). */
  public static final Setting<Boolean> RECLAIM_DEFAULT_GROUP_ENABLED =
      new Setting<>(
          "reclaim.default.group.enabled",
          "boolean",
          "false",
          "Whether reclaim may evict pods of the default group (koordinator-default-quota), where"
              + " the pods no group claims land: often the cluster's own services. Off: the"
              + " default group may go over its max without victims (admission still holds it to"
              + " its max).",
          Parsers::bool);

  /** How often an instance checks that it reaches Kafka and that its tasks hold their clusters. */
  public static final Setting<Duration> HEALTH_CHECK_INTERVAL =
      new Setting<>(
          "health.check.interval",
          "duration",
          "2s",
          "How often an engine instance checks that it reaches Kafka (readiness is false while it"
              + " does not: it cannot commit) and that no task of its holds no cluster while its"
              + " input partitions hold records (gauge quotaflow.engine.tasks.empty.with.inputs).",
          Parsers::duration);

  /** How long a stream task may go without a heartbeat before {@code /healthz} fails. */
  public static final Setting<Duration> HEALTH_MAX_SILENCE =
      new Setting<>(
          "health.max.silence",
          "duration",
          "120s",
          "How long a stream task of this instance may go without beating (a wall-clock"
              + " punctuation every 5 s, or a quarter of this when shorter, which a thread wedged in"
              + " processing does not run) before"
              + " /healthz answers 503 naming it, so that the liveness probe restarts the instance."
              + " Silence does not count while Kafka is unreachable (health.check.interval): the"
              + " stream threads wait on it then. Longer than the longest recompute of a task's"
              + " clusters.",
          Parsers::duration);

  /** The first wait before a start-up step that needs Kafka is tried again. */
  public static final Setting<Duration> STARTUP_RETRY_BACKOFF =
      new Setting<>(
          "startup.retry.backoff",
          "duration",
          "1s",
          "While Kafka cannot be reached at start-up, how long the engine waits before it tries to"
              + " create and check its topics again; the wait doubles after each failure up to"
              + " startup.retry.max.backoff. The process stays up meanwhile, alive but not ready.",
          Parsers::duration);

  /** The longest wait between two start-up attempts. */
  public static final Setting<Duration> STARTUP_RETRY_MAX_BACKOFF =
      new Setting<>(
          "startup.retry.max.backoff",
          "duration",
          "30s",
          "The longest wait between two attempts of a start-up step that needs Kafka.",
          Parsers::duration);

  /** How many stream threads may be replaced within the window before the instance stops. */
  public static final Setting<Integer> STREAM_THREAD_MAX_REPLACEMENTS =
      new Setting<>(
          "stream.thread.max.replacements",
          "int",
          "10",
          "A stream thread that fails of a transient error is replaced (counter"
              + " quotaflow.engine.threads.replaced); one more failure than this within"
              + " stream.thread.replacement.window is a crash loop and shuts the instance down, as"
              + " a fatal error (an Error such as OutOfMemoryError, a setting or permission that"
              + " cannot work) does at once. 0 never replaces a thread.",
          Parsers::nonNegativeInt);

  /** The window in which stream thread replacements are counted. */
  public static final Setting<Duration> STREAM_THREAD_REPLACEMENT_WINDOW =
      new Setting<>(
          "stream.thread.replacement.window",
          "duration",
          "10m",
          "How far back replacements of stream threads count toward"
              + " stream.thread.max.replacements.",
          Parsers::duration);

  /** Where the engine's stores keep their data. */
  public static final Setting<StoreKind> STATE_STORES =
      new Setting<>(
          "state.stores",
          "in_memory|rocksdb",
          "in_memory",
          "Where the engine's state stores live: on the heap, restored from their changelogs when a"
              + " task starts, or in RocksDB under the state directory.",
          Parsers.oneOf(StoreKind.class));

  /**
   * Where the history's window stores live: the one store whose size grows with time rather than
   * with the clusters (docs/engine.md, "History").
   */
  public static final Setting<StoreKind> HISTORY_STORES =
      new Setting<>(
          "history.stores",
          "in_memory|rocksdb",
          "in_memory",
          "Where the history's window stores live, whatever state.stores says: on the heap, or in"
              + " RocksDB under the state directory (off the heap, memory bounded by"
              + " rocksdb.memory). The manifests set rocksdb.",
          Parsers.oneOf(StoreKind.class));

  /** The one budget of every RocksDB store of the instance. */
  public static final Setting<Long> ROCKSDB_MEMORY =
      new Setting<>(
          "rocksdb.memory",
          "bytes",
          "128Mi",
          "Off-heap memory all RocksDB stores of the instance share (block cache, index and"
              + " filter blocks and write buffers together, one LRU cache); used only when a store"
              + " is in RocksDB. The engine refuses to start when the heap, this and a 256 MiB"
              + " allowance for the rest do not fit the container's memory limit.",
          EngineSettings::memoryBytes);

  /** {@link #METRICS_PORT}'s value that turns the endpoint off. */
  public static final int METRICS_OFF = -1;

  /** The plain-HTTP port of {@code /metrics}. */
  public static final Setting<Integer> METRICS_PORT =
      new Setting<>(
          "metrics.port",
          "int",
          "9404",
          "Port of the plain-HTTP endpoint serving /metrics (Prometheus) and /healthz; 0 picks a"
              + " free port, -1 turns the endpoint off.",
          EngineSettings::metricsPort);

  /** How often the stores' bytes are measured from their changelogs. */
  public static final Setting<Duration> METRICS_STORE_BYTES_INTERVAL =
      new Setting<>(
          "metrics.store.bytes.interval",
          "duration",
          "60s",
          "How often the engine measures each store's bytes (gauge quotaflow.engine.store.bytes)"
              + " from the brokers' sizes of the changelog partitions its tasks hold.",
          Parsers::duration);

  /** How many groups get per-group gauges; 0 turns them off. */
  public static final Setting<Integer> METRICS_GROUP_GAUGES_MAX =
      new Setting<>(
          "metrics.group.gauges.max",
          "int",
          Integer.toString(EngineMetrics.DEFAULT_GROUP_GAUGES),
          "How many quota groups this instance exports per-group gauges for"
              + " (quotaflow_elastic_quota_status and _spec, about 5 series per group and"
              + " resource); groups beyond it get none; 0 turns the gauges off.",
          Parsers::nonNegativeInt);

  /** How often every reservation's locks are chosen again without any input changing. */
  public static final Setting<Duration> RESERVATION_RELOCK_INTERVAL =
      new Setting<>(
          "reservation.relock.interval",
          "duration",
          "10s",
          "Wall-clock interval at which the node reservations of every cluster are planned again"
              + " (the design's relock); node and quota events plan them at once, pod events only"
              + " refresh what is idle on the locked nodes.",
          Parsers::duration);

  /** Whether Kafka without encryption is allowed beyond this machine. */
  public static final Setting<Boolean> ALLOW_PLAINTEXT_KAFKA =
      new Setting<>(
          "allow.plaintext.kafka",
          "boolean",
          "false",
          "Whether to start with Kafka's security.protocol PLAINTEXT or SASL_PLAINTEXT to brokers"
              + " that are not on this machine. Off: such a start is refused, because whoever"
              + " reaches Kafka could write eviction commands or inputs (docs/security.md).",
          Parsers::bool);

  /** Every engine setting, in documentation order. */
  public static final List<Setting<?>> ALL =
      List.of(
          TOPIC_PREFIX,
          TOPIC_PARTITIONS,
          TOPIC_REPLICATION_FACTOR,
          RECOMPUTE_INTERVAL,
          RECOMPUTE_BACKLOG_INTERVAL,
          RECOMPUTE_BACKLOG_MAX_INTERVAL,
          STATE_STORES,
          HISTORY_STORES,
          ROCKSDB_MEMORY,
          HEALTH_CHECK_INTERVAL,
          HEALTH_MAX_SILENCE,
          STARTUP_RETRY_BACKOFF,
          STARTUP_RETRY_MAX_BACKOFF,
          STREAM_THREAD_MAX_REPLACEMENTS,
          STREAM_THREAD_REPLACEMENT_WINDOW,
          ALLOW_PLAINTEXT_KAFKA,
          RECLAIM_PROTECTED_NAMESPACES,
          RECLAIM_DEFAULT_GROUP_ENABLED,
          QuotaSettings.NAMESPACE_BINDING_OPEN,
          QuotaSettings.NAMESPACE_BINDING_NAMESAKE,
          QuotaSettings.NAMESPACE_BINDING_UNKNOWN_OPEN,
          QuotaSettings.SPECIAL_GROUP_NAMESPACES,
          QuotaSettings.SPECIAL_QUOTA_NAMESPACES,
          INPUTS_PARTITIONED_BY_CLUSTER,
          RECLAIM_ENABLED,
          REVOKE_CHECK_INTERVAL,
          REVOKE_DELAY,
          INPUTS_MAX_STALENESS,
          INPUTS_MARKERS_REQUIRED,
          REVOKE_RETRY_BACKOFF,
          REVOKE_MAX_ATTEMPTS,
          REVOKE_RESULT_TIMEOUT,
          SHUTDOWN_TIMEOUT,
          QuotaSettings.MIN_SCALING,
          QuotaSettings.DEFAULT_SHARED_WEIGHT,
          QuotaSettings.USED_POLICY,
          QuotaSettings.COUNT_TERMINATING_PODS,
          QuotaSettings.ONLY_READY_SCHEDULABLE_NODES,
          QuotaSettings.DERIVED_RESOURCES,
          QuotaSettings.DEFAULT_GROUP_MAX,
          QuotaSettings.DEVICE_CLASSES,
          QuotaSettings.DEVICE_UNMAPPED_CLASS,
          QuotaSettings.GUARANTEE_USAGE,
          QuotaSettings.PARENT_PODS,
          METRICS_PORT,
          METRICS_GROUP_GAUGES_MAX,
          METRICS_STORE_BYTES_INTERVAL,
          RESERVATION_RELOCK_INTERVAL,
          QuotaSettings.RESERVATION_MAX_LOCKED_PERCENT,
          HistorySettings.HISTORY_ENABLED,
          HistorySettings.HISTORY_STEP,
          HistorySettings.HISTORY_RETENTION,
          HistorySettings.HISTORY_FINE_RETENTION,
          HistorySettings.HISTORY_COARSE_STEP,
          QuotaSettings.FAIRSHARE_MEMORY_ENABLED,
          QuotaSettings.FAIRSHARE_MEMORY_HALF_LIFE);

  private EngineSettings() {}

  private static long memoryBytes(final String text) {
    final long bytes = Quantities.parseUnits(text.strip());
    if (bytes < 16L * 1024 * 1024) {
      throw new IllegalArgumentException(
          "must be at least 16Mi (RocksDB's write buffers alone need more), not " + text);
    }
    return bytes;
  }

  /** A port as {@link Parsers#port} reads it, or {@link #METRICS_OFF}. */
  private static int metricsPort(final String text) {
    if (text.equals(Integer.toString(METRICS_OFF))) {
      return METRICS_OFF;
    }
    try {
      return Parsers.port(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "expected a port between 0 and 65535, or " + METRICS_OFF + " for off", e);
    }
  }
}
