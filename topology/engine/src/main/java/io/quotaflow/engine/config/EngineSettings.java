package io.quotaflow.engine.config;

import io.quotaflow.config.Parsers;
import io.quotaflow.config.Setting;
import io.quotaflow.dra.DeviceClassMappings;
import io.quotaflow.dra.UnmappedClasses;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.store.StoreKind;
import io.quotaflow.eviction.ProtectedPods;
import io.quotaflow.quota.NamespaceBinding;
import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.SpecialQuotaNamespaces;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.QuotaOptions.DefaultWeightPolicy;
import io.quotaflow.tree.QuotaOptions.DerivedResourceRule;
import io.quotaflow.tree.QuotaOptions.UsedPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The catalogue of the engine's own settings. Everything else in a configuration is a Kafka client
 * or Kafka Streams setting and passes through unchanged (see {@link EngineConfig}).
 */
public final class EngineSettings {
  private static final Pattern DERIVED =
      Pattern.compile("(\\S+)\\s*->\\s*(\\S+)\\s*[x*]\\s*(\\d+)");

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

  /** SPEC 7.5. */
  public static final Setting<Boolean> MIN_SCALING =
      new Setting<>(
          "quota.min.scaling",
          "boolean",
          "true",
          "Scale children's mins down when they exceed what their parent distributes.",
          Parsers::bool);

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

  /** SPEC 12. */
  public static final Setting<DefaultWeightPolicy> DEFAULT_SHARED_WEIGHT =
      new Setting<>(
          "quota.default.shared.weight",
          "max|min",
          "max",
          "Weight of a group without a shared-weight annotation: its max (Koordinator) or its min.",
          Parsers.oneOf(DefaultWeightPolicy.class));

  /** SPEC 5. */
  public static final Setting<UsedPolicy> USED_POLICY =
      new Setting<>(
          "quota.used.policy",
          "bound|running",
          "bound",
          "Which pods count as used: bound to a node and unfinished, or only running.",
          Parsers.oneOf(UsedPolicy.class));

  /** SPEC 5. */
  public static final Setting<Boolean> COUNT_TERMINATING_PODS =
      new Setting<>(
          "quota.count.terminating.pods",
          "boolean",
          "true",
          "Whether pods with a deletion timestamp keep counting until they are gone.",
          Parsers::bool);

  /** SPEC 3. */
  public static final Setting<Boolean> ONLY_READY_SCHEDULABLE_NODES =
      new Setting<>(
          "quota.only.ready.schedulable.nodes",
          "boolean",
          "false",
          "Whether only Ready, schedulable nodes count toward the cluster total.",
          Parsers::bool);

  /** SPEC 12. */
  public static final Setting<List<DerivedResourceRule>> DERIVED_RESOURCES =
      new Setting<>(
          "quota.derived.resources",
          "rules",
          "",
          "Comma-separated rules adding a derived dimension to each pod's request, e.g."
              + " 'nvidia.com/gpu -> quotaflow.io/gpu-memory x 32'.",
          Parsers.list(EngineSettings::derivedResource));

  /**
   * What one device of each DeviceClass claimed through DRA counts as (docs/semantics.md section
   * 22.1).
   */
  public static final Setting<DeviceClassMappings> DEVICE_CLASSES =
      new Setting<>(
          "quota.device.classes",
          "mappings",
          DeviceClassMappings.DEFAULT_SETTING,
          "What one device of each DeviceClass claimed through DRA counts as, entries separated by"
              + " ';', e.g. 'gpu.nvidia.com -> nvidia.com/gpu x 1 [memory / 1Gi ->"
              + " quotaflow.io/gpu-memory]'. Setting it replaces the default.",
          DeviceClassMappings::parse);

  /** What a claimed device of a class no mapping names counts as (issue 39, section 22.9). */
  public static final Setting<UnmappedClasses> DEVICE_UNMAPPED_CLASS =
      new Setting<>(
          "quota.device.unmapped.class",
          "deny|fallback",
          UnmappedClasses.DENY_SETTING,
          "What a device claimed through DRA of a DeviceClass no entry of quota.device.classes names"
              + " counts as. 'deny': nothing, and the devices are unresolved: the pod webhook and"
              + " the scheduler filter deny the pod (device-class-unmapped) and the engine does not"
              + " honour its preemptible=false label. A fallback 'RESOURCE [x N]' (e.g."
              + " 'nvidia.com/gpu x 1') charges each such device N of RESOURCE instead.",
          UnmappedClasses::parse);

  /** Koordinator's feature gate ElasticQuotaGuaranteeUsage (docs/semantics.md section 17). */
  public static final Setting<Boolean> GUARANTEE_USAGE =
      new Setting<>(
          "quota.guarantee.usage",
          "boolean",
          "false",
          "Koordinator's ElasticQuotaGuaranteeUsage: what a group's pods use (and its children are"
              + " guaranteed) is guaranteed to it as max(min, allocated), no group lends, and each"
              + " group starts its share at its guaranteed amount.",
          Parsers::bool);

  /** Koordinator's feature gate SupportParentQuotaSubmitPod (docs/semantics.md section 18). */
  public static final Setting<Boolean> PARENT_PODS =
      new Setting<>(
          "quota.parent.pods",
          "boolean",
          "false",
          "Koordinator's SupportParentQuotaSubmitPod: a parent group may own pods, counted in its"
              + " own request before its children's; off, such pods are charged nowhere and"
              + " denied.",
          Parsers::bool);

  /** Issue 24: whether a pod's label alone chooses its group. */
  public static final Setting<Boolean> NAMESPACE_BINDING_OPEN =
      new Setting<>(
          "quota.namespace.binding.open",
          "boolean",
          "false",
          "Koordinator's open behaviour, for shadow mode and migration: a pod's quota-name label"
              + " alone chooses its group. Off (the default), a label is honoured only when the"
              + " group admits the pod's namespace (the ElasticQuota's own namespace, its namespaces"
              + " annotation, its namespace selector's namespaces); otherwise the pod is charged as"
              + " if unlabelled and the pod webhook denies it.",
          Parsers::bool);

  /** Issue 39: whether the namespace named like a group binds labels to it. */
  public static final Setting<Boolean> NAMESPACE_BINDING_NAMESAKE =
      new Setting<>(
          "quota.namespace.binding.namesake",
          "boolean",
          "false",
          "Whether the namespace named like a group binds pods' quota-name labels to it, and lets"
              + " whoever may list pods there see the group's pods in the query API and web view."
              + " Off (the default), whoever may create a namespace cannot join a team by naming"
              + " the namespace like it; the namespace still owns its unlabelled pods.",
          Parsers::bool);

  /** Issue 39: whether a group whose ElasticQuota namespace is unknown admits every namespace. */
  public static final Setting<Boolean> NAMESPACE_BINDING_UNKNOWN_OPEN =
      new Setting<>(
          "quota.namespace.binding.unknown.open",
          "boolean",
          "false",
          "Whether a group whose ElasticQuota namespace is not known (a record written before the"
              + " connectors sent it) admits every namespace's labels. Off (the default),"
              + " it admits only the namespaces it lists or selects until the connectors"
              + " send it again.",
          Parsers::bool);

  /** Issue 24: the namespaces whose pods may name the special groups. */
  public static final Setting<List<String>> SPECIAL_GROUP_NAMESPACES =
      new Setting<>(
          "quota.special.group.namespaces",
          "list",
          "kube-system,quotaflow",
          "Comma-separated namespaces whose pods may name koordinator-system-quota or"
              + " koordinator-default-quota in their quota-name label.",
          Parsers.list(Parsers::nonBlank));

  /** Issue 39 point 5: the namespaces whose ElasticQuotas may define the special groups. */
  public static final Setting<List<String>> SPECIAL_QUOTA_NAMESPACES =
      new Setting<>(
          "quota.special.namespaces",
          "list",
          "kube-system,quotaflow,koordinator-system",
          "Comma-separated namespaces whose ElasticQuotas may define the special groups"
              + " (koordinator-root-quota, koordinator-system-quota, koordinator-default-quota), as"
              + " admission.quota.special.namespaces; a special group's record from any other"
              + " namespace is ignored with a warning and counted in"
              + " quotaflow.engine.quotas.namesakes.ignored.",
          Parsers.list(Parsers::nonBlank));

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

  /** The locked-share cap of node reservations. */
  public static final Setting<Integer> RESERVATION_MAX_LOCKED_PERCENT =
      new Setting<>(
          "reservation.max.locked.percent",
          "int",
          String.valueOf(QuotaOptions.DEFAULT_RESERVATION_MAX_LOCKED_PERCENT),
          "The most of the cluster total, in percent per dimension, that node reservations may"
              + " lock together (0 to 100); the oldest reservation keeps its lock first.",
          EngineSettings::percent);

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

  /** Issue 30: whether the engine keeps each group's history (docs/semantics.md section 23). */
  public static final Setting<Boolean> HISTORY_ENABLED =
      new Setting<>(
          "history.enabled",
          "boolean",
          "true",
          "Whether the engine keeps each group's history (request, used, runtime, min, borrowed"
              + " and lent per resource, as exact integrals per step) in a window store with its"
              + " changelog, for the query API's history endpoint.",
          Parsers::bool);

  /** The step the history is kept at. */
  public static final Setting<Duration> HISTORY_STEP =
      new Setting<>(
          "history.step",
          "duration",
          "1m",
          "The step of the kept history, whole seconds; queries ask for multiples of it. Changing"
              + " it starts a new history (the store's name carries the step).",
          EngineSettings::wholeSeconds);

  /** How long the history is kept (its coarse tier). */
  public static final Setting<Duration> HISTORY_RETENTION =
      new Setting<>(
          "history.retention",
          "duration",
          "14d",
          "How long the history is kept: its coarse tier's windows (history.coarse.step); at"
              + " least history.fine.retention. A group's window is stored only when the group"
              + " changed in it, about 250 bytes each (size the heap, or use"
              + " state.stores=rocksdb, for busy clusters: docs/engine.md).",
          EngineSettings::wholeSeconds);

  /** Issue 40: how long the history's fine tier (windows of history.step) is kept. */
  public static final Setting<Duration> HISTORY_FINE_RETENTION =
      new Setting<>(
          "history.fine.retention",
          "duration",
          "1d",
          "How long the history's windows of history.step (its fine tier) are kept; at least"
              + " history.coarse.step. Older periods are answered from the coarse tier, in"
              + " steps of history.coarse.step (docs/semantics.md section 23).",
          EngineSettings::wholeSeconds);

  /** Issue 40: the step of the history's coarse tier, kept for history.retention. */
  public static final Setting<Duration> HISTORY_COARSE_STEP =
      new Setting<>(
          "history.coarse.step",
          "duration",
          "1h",
          "The step of the history's coarse tier, kept for history.retention: a multiple of"
              + " history.step, larger than it. Its windows are written from the same changes as"
              + " the fine ones, so they hold exactly the sums of the fine windows they cover.",
          EngineSettings::wholeSeconds);

  /**
   * Issue 30: whether past borrowing lowers a group's weight in the split of surplus
   * (docs/semantics.md section 24).
   */
  public static final Setting<Boolean> FAIRSHARE_MEMORY_ENABLED =
      new Setting<>(
          "fairshare.memory.enabled",
          "boolean",
          "false",
          "Whether fair share has a memory: each group's borrowing, decayed with the half-life,"
              + " lowers its weight in its parent's split of surplus, so that a group that"
              + " borrowed much lately gets less of it than a sibling that did not. Needs"
              + " history.enabled (the borrowing is read from the history's step windows).",
          Parsers::bool);

  /** How fast past borrowing is forgotten. */
  public static final Setting<Duration> FAIRSHARE_MEMORY_HALF_LIFE =
      new Setting<>(
          "fairshare.memory.half-life",
          "duration",
          "7d",
          "The half-life of fair share's memory: borrowing this long ago counts half as much as"
              + " borrowing now. Changing it, or history.step, starts the memory afresh.",
          EngineSettings::wholeSeconds);

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
          NAMESPACE_BINDING_OPEN,
          NAMESPACE_BINDING_NAMESAKE,
          NAMESPACE_BINDING_UNKNOWN_OPEN,
          SPECIAL_GROUP_NAMESPACES,
          SPECIAL_QUOTA_NAMESPACES,
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
          MIN_SCALING,
          DEFAULT_SHARED_WEIGHT,
          USED_POLICY,
          COUNT_TERMINATING_PODS,
          ONLY_READY_SCHEDULABLE_NODES,
          DERIVED_RESOURCES,
          DEVICE_CLASSES,
          DEVICE_UNMAPPED_CLASS,
          GUARANTEE_USAGE,
          PARENT_PODS,
          METRICS_PORT,
          METRICS_GROUP_GAUGES_MAX,
          METRICS_STORE_BYTES_INTERVAL,
          RESERVATION_RELOCK_INTERVAL,
          RESERVATION_MAX_LOCKED_PERCENT,
          HISTORY_ENABLED,
          HISTORY_STEP,
          HISTORY_RETENTION,
          HISTORY_FINE_RETENTION,
          HISTORY_COARSE_STEP,
          FAIRSHARE_MEMORY_ENABLED,
          FAIRSHARE_MEMORY_HALF_LIFE);

  private EngineSettings() {}

  private static long memoryBytes(final String text) {
    final long bytes = Quantities.parseUnits(text.strip());
    if (bytes < 16L * 1024 * 1024) {
      throw new IllegalArgumentException(
          "must be at least 16Mi (RocksDB's write buffers alone need more), not " + text);
    }
    return bytes;
  }

  /** The quota options these settings describe, with {@link QuotaOptions#DEFAULTS} for the rest. */
  static QuotaOptions quotaOptions(final EngineConfig config) {
    return QuotaOptions.DEFAULTS
        .withMinScaling(config.get(MIN_SCALING))
        .withDefaultWeight(config.get(DEFAULT_SHARED_WEIGHT))
        .withUsedPolicy(config.get(USED_POLICY))
        .withCountTerminatingPods(config.get(COUNT_TERMINATING_PODS))
        .withOnlyReadySchedulableNodes(config.get(ONLY_READY_SCHEDULABLE_NODES))
        .withDerivedResources(config.get(DERIVED_RESOURCES))
        .withReservationMaxLockedPercent(config.get(RESERVATION_MAX_LOCKED_PERCENT))
        .withGuaranteeUsage(config.get(GUARANTEE_USAGE))
        .withParentPods(config.get(PARENT_PODS))
        .withNamespaceBinding(
            new NamespaceBinding(
                config.get(NAMESPACE_BINDING_OPEN),
                Set.copyOf(config.get(SPECIAL_GROUP_NAMESPACES)),
                config.get(NAMESPACE_BINDING_NAMESAKE),
                config.get(NAMESPACE_BINDING_UNKNOWN_OPEN)))
        .withSpecialQuotaNamespaces(
            new SpecialQuotaNamespaces(Set.copyOf(config.get(SPECIAL_QUOTA_NAMESPACES))))
        .withProtectedPods(
            new ProtectedPods(
                Set.copyOf(config.get(RECLAIM_PROTECTED_NAMESPACES)),
                ProtectedPods.DEFAULT_PRIORITY_CLASSES,
                config.get(RECLAIM_DEFAULT_GROUP_ENABLED)));
  }

  /** A whole percentage from 0 to 100. */
  private static Duration wholeSeconds(final String text) {
    final Duration duration = Parsers.duration(text);
    if (duration.toMillis() % 1_000 != 0) {
      throw new IllegalArgumentException("expected whole seconds, got '" + text + "'");
    }
    return duration;
  }

  private static int percent(final String text) {
    try {
      final int value = Integer.parseInt(text.trim());
      if (value >= 0 && value <= 100) {
        return value;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new IllegalArgumentException(
        "expected a whole percentage from 0 to 100, got '" + text + "'");
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

  /**
   * {@code source -> target x factor}, e.g. {@code nvidia.com/gpu -> quotaflow.io/gpu-memory x 32}.
   */
  private static DerivedResourceRule derivedResource(final String rule) {
    final Matcher matcher = DERIVED.matcher(rule);
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "expected rules like nvidia.com/gpu -> quotaflow.io/gpu-memory x 32, got '" + rule + "'");
    }
    return new DerivedResourceRule(
        matcher.group(1), matcher.group(2), Long.parseLong(matcher.group(3)));
  }
}
