package io.quotaflow.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.cluster.ClientLoop;
import io.quotaflow.cluster.ConsumerConfigs;
import io.quotaflow.cluster.GroupMembership;
import io.quotaflow.cluster.KafkaClientMeters;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.cluster.Sleeper;
import io.quotaflow.cluster.TokenBucket;
import io.quotaflow.events.EventRecorder;
import io.quotaflow.events.EventSettings;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shows the engine's results on the clusters: consumes {@code runtime.v1} and merge-patches each
 * group's ElasticQuota with Koordinator's {@code runtime} and {@code request} annotations and its
 * {@code status.used}.
 *
 * <p>Updates are gathered for one {@link StatusSettings#flushInterval()}; a burst of updates to a
 * group becomes one write of the latest. A part is written only when the object (as the writer's
 * informer sees it) does not already show it, so replays and restarts cost reads, not writes; when
 * an object appears or is changed by someone else, it is checked again. A group without an object
 * in the cluster is skipped. A tombstone (the group was deleted) is not written: the object is gone
 * or going, and Koordinator's annotations are left as they are. Requests are rate-limited per
 * cluster.
 *
 * <p>Where {@code status.used} goes depends on the cluster's CRD ({@link QuotaPatcher}): the status
 * subresource when it has one, else the object itself (Koordinator's CRD has none).
 *
 * <p>Events: a Warning {@code OverUsed} on the ElasticQuota when its group's used exceeds its
 * runtime, a Normal {@code NoLongerOverUsed} when that ends ({@link OverUseEvents}).
 *
 * <p>Another writer of the same fields (Koordinator's controller left on) is noticed and given way
 * to: an object whose written fields keep being changed back is left alone for a growing wait and
 * tried again after it, with a Warning {@code StatusOverwritten} on it ({@link StatusConflicts},
 * {@link ConflictAlerts}).
 *
 * <p>At least once: offsets are committed after a flush in which every write succeeded; writes are
 * idempotent patches.
 */
public final class StatusWriter extends ClientLoop {

  /** The reporting controller of the writer's Events. */
  public static final String CONTROLLER = "quotaflow.io/status-writer";

  private static final Logger LOG = LoggerFactory.getLogger(StatusWriter.class);
  // Bounded: a commit that cannot finish is retried after the next flush.
  private static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(10);

  private final Map<String, Target> targets = new LinkedHashMap<>();
  private final Topic<QuotaKey, GroupRuntime> runtime;
  private final StatusSettings settings;
  private final Map<String, Object> consumerConfig;
  private final String instanceId;
  private final String groupId;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final MeterRegistry registry;
  private final KafkaClientMeters kafkaMeters;
  private final Map<QuotaKey, QuotaStatus> latest = new HashMap<>();
  private final PendingWrites<QuotaKey> pending = new PendingWrites<>();
  private final ConcurrentLinkedQueue<QuotaKey> changedObjects = new ConcurrentLinkedQueue<>();

  private final OverUseEvents overUse = new OverUseEvents();
  private final StatusConflicts conflicts;
  private final ConflictAlerts conflictAlerts;

  /** One cluster's objects, how they are written and its Events. */
  private record Target(ClusterQuotas quotas, QuotaPatcher patcher, EventRecorder events) {}

  /**
   * A writer for {@code clusters} that emits no Events; runtimes of other clusters are passed over.
   *
   * @param clusters the clusters to write to
   * @param topics the topic catalogue
   * @param kafka Kafka client settings, passed through; group and commits are set here
   * @param settings flush interval, rate, resync and consumer group
   * @param clock time source of the rate limiter
   * @param sleeper waits for rate-limit tokens
   * @param registry where the counters go
   */
  public StatusWriter(
      final List<KubeCluster> clusters,
      final TopicCatalogue topics,
      final Map<String, Object> kafka,
      final StatusSettings settings,
      final Clock clock,
      final Sleeper sleeper,
      final MeterRegistry registry) {
    this(clusters, topics, kafka, settings, EventSettings.off(), clock, sleeper, registry);
  }

  /**
   * A writer for {@code clusters}; runtimes of other clusters are passed over.
   *
   * @param clusters the clusters to write to
   * @param topics the topic catalogue
   * @param kafka Kafka client settings, passed through; group and commits are set here
   * @param settings flush interval, rate, resync and consumer group
   * @param events whether and how often over-use Events are emitted on the ElasticQuotas
   * @param clock time source of the rate limiter and the Events
   * @param sleeper waits for rate-limit tokens
   * @param registry where the counters go
   */
  public StatusWriter(
      final List<KubeCluster> clusters,
      final TopicCatalogue topics,
      final Map<String, Object> kafka,
      final StatusSettings settings,
      final EventSettings events,
      final Clock clock,
      final Sleeper sleeper,
      final MeterRegistry registry) {
    super("status writer");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.runtime = topics.runtime();
    this.conflicts = new StatusConflicts(settings.conflicts(), QuotaPatcher.FIELD_MANAGER, clock);
    this.conflictAlerts = new ConflictAlerts(settings.conflicts(), clock);
    for (final KubeCluster cluster : clusters) {
      final ClusterQuotas quotas =
          new ClusterQuotas(
              cluster,
              settings.resync(),
              settings.special(),
              name ->
                  changedObjects.add(
                      QuotaKey.newBuilder().setCluster(cluster.name()).setName(name).build()));
      final TokenBucket bucket =
          new TokenBucket(settings.requestsPerSecond(), settings.burst(), clock, sleeper);
      final EventRecorder recorder =
          new EventRecorder(cluster.name(), cluster.client(), CONTROLLER, events, clock, registry);
      if (targets.put(
              cluster.name(),
              new Target(quotas, new QuotaPatcher(cluster, quotas, bucket), recorder))
          != null) {
        throw new IllegalArgumentException("Cluster names must be unique: " + clusters);
      }
      Gauge.builder("quotaflow.status.conflicts", conflicts, c -> c.inConflict(cluster.name()))
          .description("ElasticQuotas whose status another writer keeps changing back")
          .tag("cluster", cluster.name())
          .register(registry);
      // Exported from the start, so that a rate over it has a series before the first overwrite.
      counter("quotaflow.status.overwrites", "cluster", cluster.name());
    }
    this.kafkaMeters = new KafkaClientMeters(registry);
    this.consumerConfig = consumerConfig(kafka, settings);
    this.instanceId = GroupMembership.instanceId(consumerConfig);
    this.groupId = settings.groupId();
    this.consumer = kafkaMeters.consumer(new KafkaConsumer<>(consumerConfig));
    LOG.info(
        "status writer for clusters {}, group {} as {}",
        targets.keySet(),
        settings.groupId(),
        instanceId);
  }

  /** Stops after the write in progress. */
  @Override
  protected void wakeUp() {
    consumer.wakeup();
  }

  /** Waits for the informers to list, then consumes runtimes. */
  @Override
  protected void loop() throws InterruptedException {
    awaitInformers();
    targets.values().forEach(target -> target.patcher().discover());
    // A predecessor under this instance id (this pod before a crash) would hold the partitions
    // until its session timed out.
    GroupMembership.removeDeparted(
        consumerConfig, groupId, instanceId::equals, GroupMembership.ADMIN_TIMEOUT);
    consumer.subscribe(List.of(runtime.name()));
    final long interval = settings.flushInterval().toNanos();
    long nextFlush = System.nanoTime() + interval;
    while (running()) {
      beat();
      final long wait = Math.max(0, nextFlush - System.nanoTime());
      for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofNanos(wait))) {
        take(record);
      }
      if (System.nanoTime() - nextFlush >= 0) {
        flush();
        nextFlush = System.nanoTime() + interval;
      }
    }
  }

  private void awaitInformers() throws InterruptedException {
    final CompletableFuture<Void> synced =
        CompletableFuture.allOf(
            targets.values().stream()
                .map(target -> target.quotas().start())
                .toArray(CompletableFuture[]::new));
    while (running()) {
      beat();
      try {
        synced.get(200, TimeUnit.MILLISECONDS);
        return;
      } catch (TimeoutException e) {
        // Still listing; check whether we are being stopped.
      } catch (ExecutionException e) {
        throw new IllegalStateException("watching ElasticQuotas failed", e.getCause());
      }
    }
  }

  private void take(final ConsumerRecord<byte[], byte[]> record) {
    final QuotaKey key;
    final GroupRuntime value;
    try {
      key = runtime.keyDeserializer().deserialize(record.topic(), record.key());
      value = runtime.valueDeserializer().deserialize(record.topic(), record.value());
    } catch (KafkaException e) {
      counter("quotaflow.status.unreadable").increment();
      LOG.warn(
          "skipping unreadable runtime at partition {} offset {}: {}",
          record.partition(),
          record.offset(),
          e.getMessage());
      return;
    }
    if (key == null || !targets.containsKey(key.getCluster())) {
      return;
    }
    if (value == null) {
      latest.remove(key);
      pending.forget(key);
      overUse.forget(key);
      conflicts.forget(key);
      conflictAlerts.forget(key);
      return;
    }
    latest.put(key, QuotaStatus.of(value));
    overUse.update(key, value);
    pending.mark(key);
  }

  private void flush() throws InterruptedException {
    for (QuotaKey key = changedObjects.poll(); key != null; key = changedObjects.poll()) {
      if (latest.containsKey(key)) {
        pending.mark(key);
      }
    }
    // Objects in conflict whose wait, or whose retry's stand, is over.
    for (final QuotaKey key : conflicts.due()) {
      if (latest.containsKey(key)) {
        pending.mark(key);
      }
    }
    boolean failed = false;
    for (final QuotaKey key : pending.drain()) {
      if (!running()) {
        return;
      }
      // Each write is bounded (request timeout, rate limit): a long flush is progress, not a wedge.
      beat();
      final QuotaStatus status = latest.get(key);
      if (status != null && !write(key, status)) {
        pending.mark(key);
        failed = true;
      }
      reportOverUse(key);
    }
    if (!failed) {
      try {
        consumer.commitSync(COMMIT_TIMEOUT);
      } catch (org.apache.kafka.common.errors.TimeoutException e) {
        LOG.warn("committing the runtimes written took longer than {}; retried", COMMIT_TIMEOUT);
      }
    }
  }

  /** Writes what the object does not show yet; false when it must be tried again. */
  private boolean write(final QuotaKey key, final QuotaStatus status) throws InterruptedException {
    final Target target = targets.get(key.getCluster());
    final Optional<GenericKubernetesResource> quota = target.quotas().byName(key.getName());
    if (quota.isEmpty()) {
      skipped(key, "missing");
      return true;
    }
    conflicts
        .look(key, quota.get())
        .ifPresent(
            overwrite -> {
              counter("quotaflow.status.overwrites", "cluster", key.getCluster()).increment();
              conflictAlerts.overwritten(key, quota.get(), overwrite, target.events());
            });
    if (conflicts.holding(key)) {
      skipped(key, "conflict");
      return true;
    }
    final boolean annotations = !status.annotationsShownBy(quota.get(), settings.mode());
    final boolean used = settings.mode().writesStatus() && !status.usedShownBy(quota.get());
    if (!annotations && !used) {
      if (conflicts.shown(key, quota.get(), status, settings.mode())) {
        conflictAlerts.ended(key, quota.get(), target.events());
      }
      skipped(key, "unchanged");
      return true;
    }
    try {
      final QuotaPatcher.Written written =
          target.patcher().write(quota.get(), status, settings.mode(), annotations, used);
      for (final String part : written.parts()) {
        counter("quotaflow.status.patches", "cluster", key.getCluster(), "part", part).increment();
      }
      conflicts.wrote(key, written.after(), written.firstVersion(), status, settings.mode());
      LOG.debug("cluster {}: wrote status of group {}", key.getCluster(), key.getName());
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        skipped(key, "missing");
        return true;
      }
      counter("quotaflow.status.failures", "cluster", key.getCluster()).increment();
      LOG.warn(
          "cluster {}: writing the status of group {} failed, retrying at the next flush: {}",
          key.getCluster(),
          key.getName(),
          e.getMessage());
      return false;
    }
  }

  /** Tells on the group's object whether it became, or stopped being, over-used. */
  private void reportOverUse(final QuotaKey key) {
    final Target target = targets.get(key.getCluster());
    target
        .quotas()
        .byName(key.getName())
        .ifPresent(quota -> overUse.report(key, quota, target.events()));
  }

  private void skipped(final QuotaKey key, final String reason) {
    counter("quotaflow.status.skipped", "cluster", key.getCluster(), "reason", reason).increment();
    LOG.debug("cluster {}: group {} not written: {}", key.getCluster(), key.getName(), reason);
  }

  private Counter counter(final String name, final String... tags) {
    return Counter.builder(name).tags(tags).register(registry);
  }

  @Override
  protected void closeClients() {
    kafkaMeters.close();
    try {
      GroupMembership.close(consumer);
    } catch (RuntimeException e) {
      LOG.warn("closing the consumer failed: {}", e.toString());
    }
    targets.values().forEach(target -> target.quotas().close());
  }

  static Map<String, Object> consumerConfig(
      final Map<String, Object> kafka, final StatusSettings settings) {
    // The engine writes runtimes in transactions.
    return ConsumerConfigs.readCommitted(GroupMembership.consumerGroup(kafka), settings.groupId());
  }
}
