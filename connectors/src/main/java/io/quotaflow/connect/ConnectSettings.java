package io.quotaflow.connect;

import io.quotaflow.cluster.GroupMembership;
import io.quotaflow.config.Parsers;
import io.quotaflow.config.Setting;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.events.EventSettings;
import io.quotaflow.evict.EvictionSettings;
import io.quotaflow.eviction.ProtectedPods;
import io.quotaflow.quota.SpecialQuotaNamespaces;
import io.quotaflow.source.DraWatch;
import io.quotaflow.source.PodGroupWatch;
import io.quotaflow.source.SourceSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The documented settings of {@code quotaflow connect}: key, type, default and meaning (the status
 * writer's are {@link StatusWriterSettings}, listed in {@link #ALL} too). Topic settings share
 * their keys with the engine's, so one configuration file serves both.
 */
public final class ConnectSettings {

  /** The engine's topic prefix: both must name the same topics. */
  public static final Setting<String> TOPIC_PREFIX = EngineSettings.TOPIC_PREFIX;

  public static final Setting<Integer> TOPIC_PARTITIONS =
      EngineSettings.TOPIC_PARTITIONS.withDoc(
          "Partition count of topics created at start when missing (as the engine creates them).");

  public static final Setting<Integer> TOPIC_REPLICATION_FACTOR =
      EngineSettings.TOPIC_REPLICATION_FACTOR.withDoc(
          "Replication factor of topics created at start when missing (use 3 in production).");

  public static final Setting<Duration> SOURCE_RESYNC =
      new Setting<>(
          "source.resync",
          "duration",
          "10m",
          "How often the informers replay their cache; a replay writes only what changed.",
          Parsers::duration);

  public static final Setting<Duration> SOURCE_RECONCILE_INTERVAL =
      new Setting<>(
          "source.reconcile.interval",
          "duration",
          "5m",
          "How often every key the source topics hold is checked against the clusters (also after"
              + " every relist).",
          Parsers::duration);

  public static final Setting<Duration> SOURCE_HEARTBEAT_INTERVAL =
      new Setting<>(
          "source.heartbeat.interval",
          "duration",
          "10s",
          "How often the source writes a heartbeat marker for each watched kind of each cluster,"
              + " while it watches and every write is confirmed; the engine suspends reclaim of a"
              + " cluster whose heartbeats are older than its inputs.max.staleness.",
          Parsers::duration);

  public static final Setting<Duration> SOURCE_SNAPSHOT_INTERVAL =
      new Setting<>(
          "source.snapshot.interval",
          "duration",
          "1h",
          "How often every object of each watched kind of each cluster is written again between a"
              + " start and an end marker, on top of the snapshot after each (re)list and after a"
              + " lost write; the engine drops the objects a snapshot did not re-send.",
          Parsers::duration);

  public static final Setting<Duration> SOURCE_SNAPSHOT_RECOVERY_REPEAT =
      new Setting<>(
          "source.snapshot.recovery.repeat",
          "duration",
          "60s",
          "How long after a snapshot written because writes were lost (Kafka away) it is written"
              + " once more, for an engine that recovered from the same outage past the first one.",
          Parsers::duration);

  public static final Setting<Duration> SOURCE_START_TIMEOUT =
      new Setting<>(
          "source.start.timeout",
          "duration",
          "1m",
          "How long reading each source topic at start may take.",
          Parsers::duration);

  public static final Setting<Boolean> SOURCE_PROFILES =
      new Setting<>(
          "source.profiles",
          "boolean",
          "true",
          "Watch ElasticQuotaProfiles (quota.koordinator.sh/v1alpha1) for one quota tree per node"
              + " pool; false on clusters without that CRD.",
          Parsers::bool);

  public static final Setting<PodGroupWatch> SOURCE_PODGROUPS =
      new Setting<>(
          "source.podgroups",
          "auto|true|false",
          "auto",
          "Watch PodGroups (scheduling.x-k8s.io/v1alpha1, scheduling.volcano.sh/v1beta1) for the"
              + " minMember of scheduler-plugins' and Volcano's gangs: auto, those each cluster"
              + " serves (asked at start until its API server answers); true, both (a missing CRD"
              + " shows as a watch down); false, none.",
          PodGroupWatch::parse);

  public static final Setting<DraWatch> SOURCE_DRA =
      new Setting<>(
          "source.dra",
          "auto|true|false",
          "auto",
          "Watch DeviceClasses, ResourceClaims, ResourceClaimTemplates and ResourceSlices"
              + " (resource.k8s.io/v1) so pods are charged the devices they claim: auto, the kinds"
              + " each cluster serves (asked at start until its API server answers); true, all"
              + " four (a missing API shows as a watch down); false, none.",
          DraWatch::parse);

  /** Issue 39 point 5: where the special groups' ElasticQuotas may live, as for the webhook. */
  public static final Setting<Set<String>> SOURCE_QUOTA_SPECIAL_NAMESPACES =
      new Setting<>(
          "source.quota.special.namespaces",
          "list",
          "kube-system,quotaflow,koordinator-system",
          "Comma-separated namespaces whose ElasticQuotas may define the special groups"
              + " (koordinator-root-quota, koordinator-system-quota, koordinator-default-quota), as"
              + " admission.quota.special.namespaces; one named like a special group anywhere else"
              + " never stands for the group and is reported among its ignored namesakes.",
          Parsers.list(Parsers::nonBlank).andThen(Set::copyOf));

  public static final Setting<Boolean> SOURCE_PARTITION_BY_CLUSTER =
      new Setting<>(
          "source.partition.by.cluster",
          "boolean",
          "true",
          "Put every record of a cluster on one partition of the input topics (ClusterPartitioner),"
              + " as the engine's default inputs.partitioned.by.cluster expects; false places them"
              + " by key, for an engine with inputs.partitioned.by.cluster=false.",
          Parsers::bool);

  public static final Setting<Boolean> EVICTION_DRY_RUN =
      new Setting<>(
          "eviction.dry.run",
          "boolean",
          "false",
          "Decide and report DRY_RUN instead of evicting.",
          Parsers::bool);

  public static final Setting<Integer> EVICTION_MAX_ATTEMPTS =
      new Setting<>(
          "eviction.max.attempts",
          "int",
          "6",
          "Eviction requests per command while the API server cannot take them (5xx, throttling,"
              + " no answer) before it is reported UNREACHABLE; a disruption budget's refusal is"
              + " reported BLOCKED_BY_BUDGET at once.",
          Parsers::positiveInt);

  public static final Setting<Duration> EVICTION_BACKOFF =
      new Setting<>(
          "eviction.backoff",
          "duration",
          "1s",
          "Wait after the first eviction request the API server could not take; doubles after"
              + " each further one (the server's Retry-After replaces it).",
          Parsers::duration);

  public static final Setting<Duration> EVICTION_BACKOFF_MAX =
      new Setting<>(
          "eviction.backoff.max",
          "duration",
          "30s",
          "Longest wait between two eviction requests for one command.",
          Parsers::duration);

  public static final Setting<Double> EVICTION_RATE =
      new Setting<>(
          "eviction.requests.per.second",
          "number",
          "5",
          "API requests per second per cluster of the eviction executor.",
          Parsers::positiveNumber);

  public static final Setting<Integer> EVICTION_BURST =
      new Setting<>(
          "eviction.burst",
          "int",
          "10",
          "API requests per cluster the eviction executor may send at once.",
          Parsers::positiveInt);

  public static final Setting<String> EVICTION_GROUP_ID =
      new Setting<>(
          "eviction.group.id",
          "string",
          EvictionSettings.DEFAULT_GROUP_ID,
          "Consumer group of the eviction executor; executors serving different clusters need"
              + " different groups. Its transactional.id is this with -results, the same on"
              + " every replica, so a new leader fences the one before.",
          Parsers::nonBlank);

  public static final Setting<Duration> EVICTION_MAX_AGE =
      new Setting<>(
          "eviction.max.age",
          "duration",
          "10m",
          "Oldest a command may be (from its issuedAt) when the executor reads it; an older one is"
              + " reported EXPIRED and not carried out.",
          Parsers::duration);

  public static final Setting<List<String>> EVICTION_PROTECTED_NAMESPACES =
      new Setting<>(
          "eviction.protected.namespaces",
          "list",
          ProtectedPods.DEFAULT_NAMESPACE_LIST,
          "Comma-separated namespaces whose pods the executor never evicts, whatever a command"
              + " says (reported PROTECTED): Kubernetes' own, quotaflow's, and those of Kafka,"
              + " Strimzi, cert-manager, Koordinator and monitoring by default. Setting the list"
              + " replaces the default.",
          Parsers.list(Parsers::nonBlank));

  public static final Setting<List<String>> EVICTION_PROTECTED_PRIORITY_CLASSES =
      new Setting<>(
          "eviction.protected.priority.classes",
          "list",
          "system-cluster-critical,system-node-critical",
          "Comma-separated priority classes whose pods the executor never evicts (reported"
              + " PROTECTED); pods of a system priority (2000000000 and up) are never evicted"
              + " either.",
          Parsers.list(Parsers::nonBlank));

  public static final Setting<Boolean> EVENTS_ENABLED =
      new Setting<>(
          "events.enabled",
          "boolean",
          "true",
          "Emit Kubernetes Events (events.k8s.io/v1): over-use on ElasticQuotas (status writer),"
              + " reclaim start on ElasticQuotas and eviction on pods (eviction executor).",
          Parsers::bool);

  public static final Setting<Double> EVENTS_PER_OBJECT_PER_MINUTE =
      new Setting<>(
          "events.per.object.per.minute",
          "number",
          "1",
          "Events per minute per involved object once its burst is spent; more are dropped (a"
              + " repeated Event still counts in its series).",
          Parsers::positiveNumber);

  public static final Setting<Integer> EVENTS_PER_OBJECT_BURST =
      new Setting<>(
          "events.per.object.burst",
          "int",
          "5",
          "Events per involved object allowed at once after a quiet period.",
          Parsers::positiveInt);

  public static final Setting<String> INSTANCE_ID =
      new Setting<>(
          "instance.id",
          "string",
          "",
          "This replica's name: the holder identity of the lease and the group.instance.id (static"
              + " membership) of the executor's and the writer's consumers. Empty: POD_NAME, else"
              + " HOSTNAME, else the host name.",
          Parsers::text);

  public static final Setting<Boolean> LEADER_ELECTION =
      new Setting<>(
          "leader.election",
          "boolean",
          "true",
          "Run the connectors only while this replica holds the lease, so that several replicas"
              + " can run and one takes over when the leader is lost.",
          Parsers::bool);

  public static final Setting<String> LEADER_ELECTION_LEASE_NAME =
      new Setting<>(
          "leader.election.lease.name",
          "string",
          "quotaflow-connectors",
          "Name of the Lease (coordination.k8s.io/v1) the replicas compete for.",
          LeaderElectionSettings::objectName);

  public static final Setting<String> LEADER_ELECTION_LEASE_NAMESPACE =
      new Setting<>(
          "leader.election.lease.namespace",
          "string",
          "",
          "Namespace of the Lease. Empty: the namespace of the cluster client (in a pod, its own).",
          LeaderElectionSettings::namespaceOrEmpty);

  public static final Setting<Duration> LEADER_ELECTION_LEASE_DURATION =
      new Setting<>(
          "leader.election.lease.duration",
          "duration",
          "15s",
          "How long a lease that is not renewed holds: a lost leader is replaced within it.",
          Parsers::duration);

  public static final Setting<Duration> LEADER_ELECTION_RENEW_DEADLINE =
      new Setting<>(
          "leader.election.renew.deadline",
          "duration",
          "10s",
          "How long the leader tries to renew before it stops the connectors; shorter than the"
              + " lease duration, so it stops before another replica can take over.",
          Parsers::duration);

  public static final Setting<Duration> LEADER_ELECTION_RETRY_PERIOD =
      new Setting<>(
          "leader.election.retry.period",
          "duration",
          "2s",
          "How often the leader renews and a follower tries to acquire the lease.",
          Parsers::duration);

  /** {@link #METRICS_PORT}'s value that turns the endpoint off. */
  public static final int METRICS_OFF = EngineSettings.METRICS_OFF;

  /** The engine's metrics port setting: one file can serve both, as with the topic settings. */
  public static final Setting<Integer> METRICS_PORT = EngineSettings.METRICS_PORT;

  /** Whether Kafka without encryption is allowed beyond this machine (the engine's setting). */
  public static final Setting<Boolean> ALLOW_PLAINTEXT_KAFKA = EngineSettings.ALLOW_PLAINTEXT_KAFKA;

  /** The first wait before a start-up step that needs Kafka is tried again (the engine's key). */
  public static final Setting<Duration> STARTUP_RETRY_BACKOFF =
      EngineSettings.STARTUP_RETRY_BACKOFF;

  /** How long a loop may go without beating before /healthz fails (the engine's key). */
  public static final Setting<Duration> HEALTH_MAX_SILENCE =
      EngineSettings.HEALTH_MAX_SILENCE.withDoc(
          "How long a loop of the connectors (the eviction executor's and the status writer's"
              + " polls, the source's heartbeat-marker loop, at least three of its intervals) may"
              + " go without beating before /healthz answers 503 naming it, so that the liveness"
              + " probe restarts a wedged process. Longer than a Kafka client call may block (60 s"
              + " by default) while Kafka is away.");

  /** The longest wait between two start-up attempts (the engine's key). */
  public static final Setting<Duration> STARTUP_RETRY_MAX_BACKOFF =
      EngineSettings.STARTUP_RETRY_MAX_BACKOFF;

  /** Every setting, in the order the configuration is logged. */
  public static final List<Setting<?>> ALL =
      List.of(
          ALLOW_PLAINTEXT_KAFKA,
          TOPIC_PREFIX,
          TOPIC_PARTITIONS,
          TOPIC_REPLICATION_FACTOR,
          STARTUP_RETRY_BACKOFF,
          STARTUP_RETRY_MAX_BACKOFF,
          HEALTH_MAX_SILENCE,
          SOURCE_RESYNC,
          SOURCE_RECONCILE_INTERVAL,
          SOURCE_HEARTBEAT_INTERVAL,
          SOURCE_SNAPSHOT_INTERVAL,
          SOURCE_SNAPSHOT_RECOVERY_REPEAT,
          SOURCE_START_TIMEOUT,
          SOURCE_PROFILES,
          SOURCE_PODGROUPS,
          SOURCE_DRA,
          SOURCE_QUOTA_SPECIAL_NAMESPACES,
          SOURCE_PARTITION_BY_CLUSTER,
          EVICTION_DRY_RUN,
          EVICTION_MAX_ATTEMPTS,
          EVICTION_BACKOFF,
          EVICTION_BACKOFF_MAX,
          EVICTION_RATE,
          EVICTION_BURST,
          EVICTION_GROUP_ID,
          EVICTION_MAX_AGE,
          EVICTION_PROTECTED_NAMESPACES,
          EVICTION_PROTECTED_PRIORITY_CLASSES,
          StatusWriterSettings.STATUS_FLUSH_INTERVAL,
          StatusWriterSettings.STATUS_RATE,
          StatusWriterSettings.STATUS_BURST,
          StatusWriterSettings.STATUS_RESYNC,
          StatusWriterSettings.STATUS_GROUP_ID,
          StatusWriterSettings.STATUS_MODE,
          StatusWriterSettings.STATUS_CONFLICT_OVERWRITES,
          StatusWriterSettings.STATUS_CONFLICT_WINDOW,
          StatusWriterSettings.STATUS_CONFLICT_BACKOFF,
          StatusWriterSettings.STATUS_CONFLICT_BACKOFF_MAX,
          EVENTS_ENABLED,
          EVENTS_PER_OBJECT_PER_MINUTE,
          EVENTS_PER_OBJECT_BURST,
          INSTANCE_ID,
          LEADER_ELECTION,
          LEADER_ELECTION_LEASE_NAME,
          LEADER_ELECTION_LEASE_NAMESPACE,
          LEADER_ELECTION_LEASE_DURATION,
          LEADER_ELECTION_RENEW_DEADLINE,
          LEADER_ELECTION_RETRY_PERIOD,
          METRICS_PORT);

  private ConnectSettings() {}

  /** The source's settings from a configuration. */
  static SourceSettings source(final ConnectConfig config) {
    return new SourceSettings(
        config.get(SOURCE_RESYNC),
        config.get(SOURCE_RECONCILE_INTERVAL),
        config.get(SOURCE_START_TIMEOUT),
        config.get(SOURCE_PARTITION_BY_CLUSTER),
        config.get(SOURCE_PROFILES),
        config.get(SOURCE_HEARTBEAT_INTERVAL),
        config.get(SOURCE_SNAPSHOT_INTERVAL),
        config.get(SOURCE_SNAPSHOT_RECOVERY_REPEAT),
        config.get(SOURCE_PODGROUPS),
        config.get(SOURCE_DRA),
        new SpecialQuotaNamespaces(config.get(SOURCE_QUOTA_SPECIAL_NAMESPACES)));
  }

  /** The eviction executor's settings from a configuration. */
  static EvictionSettings eviction(final ConnectConfig config) {
    return new EvictionSettings(
        config.get(EVICTION_DRY_RUN),
        config.get(EVICTION_MAX_ATTEMPTS),
        config.get(EVICTION_BACKOFF),
        config.get(EVICTION_BACKOFF_MAX),
        config.get(EVICTION_RATE),
        config.get(EVICTION_BURST),
        config.get(EVICTION_GROUP_ID),
        config.get(EVICTION_MAX_AGE),
        new ProtectedPods(
            Set.copyOf(config.get(EVICTION_PROTECTED_NAMESPACES)),
            Set.copyOf(config.get(EVICTION_PROTECTED_PRIORITY_CLASSES))));
  }

  /** The Events settings of the executor and the writer from a configuration. */
  static EventSettings events(final ConnectConfig config) {
    return new EventSettings(
        config.get(EVENTS_ENABLED),
        config.get(EVENTS_PER_OBJECT_PER_MINUTE),
        config.get(EVENTS_PER_OBJECT_BURST));
  }

  /**
   * This replica's name: {@link #INSTANCE_ID}, else the one the environment gives (see {@link
   * GroupMembership#instanceName(Map)}).
   */
  static String instanceId(final ConnectConfig config, final Map<String, String> environment) {
    final String configured = config.get(INSTANCE_ID).trim();
    return configured.isEmpty() ? GroupMembership.instanceName(environment) : configured;
  }

  /**
   * The leader election settings, checked against each other.
   *
   * @throws IllegalArgumentException naming the settings that do not fit together
   */
  static LeaderElectionSettings leaderElection(final ConnectConfig config) {
    return new LeaderElectionSettings(
        config.get(LEADER_ELECTION_LEASE_NAME),
        config.get(LEADER_ELECTION_LEASE_NAMESPACE),
        config.get(LEADER_ELECTION_LEASE_DURATION),
        config.get(LEADER_ELECTION_RENEW_DEADLINE),
        config.get(LEADER_ELECTION_RETRY_PERIOD));
  }
}
