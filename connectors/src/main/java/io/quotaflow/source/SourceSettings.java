package io.quotaflow.source;

import io.quotaflow.quota.SpecialQuotaNamespaces;
import java.time.Duration;
import java.util.Objects;

/**
 * How the source watches and repairs.
 *
 * @param resync how often the informers replay their whole cache (each replay writes only changes)
 * @param reconcileInterval how often every key the topics hold is checked against the cluster, on
 *     top of the check after each (re)list
 * @param startTimeout how long reading the topics at start may take
 * @param partitionByCluster whether every record of a cluster goes to one partition of each input
 *     topic ({@code ClusterPartitioner}), as the engine's default topology expects; false places
 *     records by key (the producer's default partitioner, or the one configured)
 * @param watchProfiles whether ElasticQuotaProfiles are watched (off for clusters without the CRD)
 * @param heartbeatInterval how often each watched kind of each cluster writes a heartbeat marker
 *     (docs/reliability.md)
 * @param snapshotInterval how often each watched kind of each cluster is re-sent whole between two
 *     markers, on top of the snapshot after each (re)list and after a lost write
 * @param recoverySnapshotRepeat how long after a snapshot that followed a lost write (Kafka away)
 *     the same snapshot is written once more: an engine recovering from the same outage may have
 *     re-created its tasks past the first one (docs/reliability.md)
 * @param podGroups which PodGroup APIs are watched for gangs' minMember (issue 28)
 * @param dra which DRA objects are watched for the devices pods claim (issue 29)
 * @param specialQuotaNamespaces the namespaces whose ElasticQuotas may define the special groups;
 *     one named like a special group anywhere else never stands for it (issue 39)
 */
public record SourceSettings(
    Duration resync,
    Duration reconcileInterval,
    Duration startTimeout,
    boolean partitionByCluster,
    boolean watchProfiles,
    Duration heartbeatInterval,
    Duration snapshotInterval,
    Duration recoverySnapshotRepeat,
    PodGroupWatch podGroups,
    DraWatch dra,
    SpecialQuotaNamespaces specialQuotaNamespaces) {

  /** How often a heartbeat is written by default. */
  public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(10);

  /** How often a full snapshot is written by default, on top of the one after each list. */
  public static final Duration DEFAULT_SNAPSHOT_INTERVAL = Duration.ofHours(1);

  /** How long after a recovery snapshot it is written once more, by default. */
  public static final Duration DEFAULT_RECOVERY_SNAPSHOT_REPEAT = Duration.ofSeconds(60);

  /** Validates the durations. */
  public SourceSettings {
    requirePositive(recoverySnapshotRepeat, "recoverySnapshotRepeat");
    requirePositive(heartbeatInterval, "heartbeatInterval");
    requirePositive(snapshotInterval, "snapshotInterval");
    requirePositive(resync, "resync");
    requirePositive(reconcileInterval, "reconcileInterval");
    requirePositive(startTimeout, "startTimeout");
    Objects.requireNonNull(podGroups, "podGroups");
    Objects.requireNonNull(dra, "dra");
    Objects.requireNonNull(specialQuotaNamespaces, "specialQuotaNamespaces");
  }

  /** The given settings, the special groups' ElasticQuotas in the default namespaces. */
  public SourceSettings(
      Duration resync,
      Duration reconcileInterval,
      Duration startTimeout,
      boolean partitionByCluster,
      boolean watchProfiles,
      Duration heartbeatInterval,
      Duration snapshotInterval,
      Duration recoverySnapshotRepeat,
      PodGroupWatch podGroups,
      DraWatch dra) {
    this(
        resync,
        reconcileInterval,
        startTimeout,
        partitionByCluster,
        watchProfiles,
        heartbeatInterval,
        snapshotInterval,
        recoverySnapshotRepeat,
        podGroups,
        dra,
        SpecialQuotaNamespaces.DEFAULT);
  }

  /** The given settings, DRA objects watched where served ({@link DraWatch#AUTO}). */
  public SourceSettings(
      Duration resync,
      Duration reconcileInterval,
      Duration startTimeout,
      boolean partitionByCluster,
      boolean watchProfiles,
      Duration heartbeatInterval,
      Duration snapshotInterval,
      Duration recoverySnapshotRepeat,
      PodGroupWatch podGroups) {
    this(
        resync,
        reconcileInterval,
        startTimeout,
        partitionByCluster,
        watchProfiles,
        heartbeatInterval,
        snapshotInterval,
        recoverySnapshotRepeat,
        podGroups,
        DraWatch.AUTO);
  }

  /** The given settings, PodGroups watched where served ({@link PodGroupWatch#AUTO}). */
  public SourceSettings(
      Duration resync,
      Duration reconcileInterval,
      Duration startTimeout,
      boolean partitionByCluster,
      boolean watchProfiles,
      Duration heartbeatInterval,
      Duration snapshotInterval,
      Duration recoverySnapshotRepeat) {
    this(
        resync,
        reconcileInterval,
        startTimeout,
        partitionByCluster,
        watchProfiles,
        heartbeatInterval,
        snapshotInterval,
        recoverySnapshotRepeat,
        PodGroupWatch.AUTO);
  }

  /** The given timing and placement, with the default heartbeat and snapshot intervals. */
  public SourceSettings(
      Duration resync,
      Duration reconcileInterval,
      Duration startTimeout,
      boolean partitionByCluster,
      boolean watchProfiles) {
    this(
        resync,
        reconcileInterval,
        startTimeout,
        partitionByCluster,
        watchProfiles,
        DEFAULT_HEARTBEAT_INTERVAL,
        DEFAULT_SNAPSHOT_INTERVAL,
        DEFAULT_RECOVERY_SNAPSHOT_REPEAT);
  }

  /** The given timing, records partitioned by cluster, ElasticQuotaProfiles watched. */
  public SourceSettings(Duration resync, Duration reconcileInterval, Duration startTimeout) {
    this(resync, reconcileInterval, startTimeout, true, true);
  }

  /** These settings with another heartbeat interval. */
  public SourceSettings withHeartbeatInterval(final Duration interval) {
    return new SourceSettings(
        resync,
        reconcileInterval,
        startTimeout,
        partitionByCluster,
        watchProfiles,
        interval,
        snapshotInterval,
        recoverySnapshotRepeat,
        podGroups,
        dra,
        specialQuotaNamespaces);
  }

  /** These settings with another delay before a recovery snapshot is repeated. */
  public SourceSettings withRecoverySnapshotRepeat(final Duration delay) {
    return new SourceSettings(
        resync,
        reconcileInterval,
        startTimeout,
        partitionByCluster,
        watchProfiles,
        heartbeatInterval,
        snapshotInterval,
        delay,
        podGroups,
        dra,
        specialQuotaNamespaces);
  }

  /** These settings with PodGroups watched as {@code watch} says. */
  public SourceSettings withPodGroups(final PodGroupWatch watch) {
    return new SourceSettings(
        resync,
        reconcileInterval,
        startTimeout,
        partitionByCluster,
        watchProfiles,
        heartbeatInterval,
        snapshotInterval,
        recoverySnapshotRepeat,
        watch,
        dra,
        specialQuotaNamespaces);
  }

  /** These settings with DRA objects watched as {@code watch} says. */
  public SourceSettings withDra(final DraWatch watch) {
    return new SourceSettings(
        resync,
        reconcileInterval,
        startTimeout,
        partitionByCluster,
        watchProfiles,
        heartbeatInterval,
        snapshotInterval,
        recoverySnapshotRepeat,
        podGroups,
        watch,
        specialQuotaNamespaces);
  }

  /**
   * These settings with the special groups' ElasticQuotas allowed in {@code value}'s namespaces.
   */
  public SourceSettings withSpecialQuotaNamespaces(final SpecialQuotaNamespaces value) {
    return new SourceSettings(
        resync,
        reconcileInterval,
        startTimeout,
        partitionByCluster,
        watchProfiles,
        heartbeatInterval,
        snapshotInterval,
        recoverySnapshotRepeat,
        podGroups,
        dra,
        value);
  }

  /**
   * Resync every 10 minutes, reconcile every 5 minutes, a minute to read the topics at start,
   * records partitioned by cluster, ElasticQuotaProfiles watched, PodGroups and DRA objects watched
   * where served.
   */
  public static SourceSettings defaults() {
    return new SourceSettings(Duration.ofMinutes(10), Duration.ofMinutes(5), Duration.ofMinutes(1));
  }

  private static void requirePositive(final Duration duration, final String name) {
    Objects.requireNonNull(duration, name);
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(name + " must be positive: " + duration);
    }
  }
}
