package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.cluster.ClusterIdentity;
import io.quotaflow.cluster.KafkaClientMeters;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.engine.liveness.Heartbeats;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.topics.WriterHeaders;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches Kubernetes clusters and keeps {@code pods.v1}, {@code quotas.v1} and {@code nodes.v1}
 * equal to what they hold: per cluster, informers on Pods (all namespaces), ElasticQuotas and
 * Nodes; each change becomes a record keyed by cluster, each delete a tombstone. Pods are written
 * with the minMember of their gang's PodGroup, from PodGroup informers on the APIs {@link
 * SourceSettings#podGroups()} selects; the same informers write {@code podgroups.v1}.
 *
 * <p>At start it reads what the topics hold for its clusters. After every list, after a lost write
 * and every {@link SourceSettings#snapshotInterval()} it writes a snapshot of each kind (every
 * object again between two markers, tombstones for keys whose objects are gone); every {@link
 * SourceSettings#heartbeatInterval()} a heartbeat marker while it watches and every write is
 * confirmed (docs/reliability.md). Every {@link SourceSettings#reconcileInterval()} keys whose
 * objects are gone are tombstoned and failed writes repeated.
 *
 * <p>One idempotent producer ({@code acks=all}, compressed) serves every cluster. Writes that fail
 * after the producer's own retries are counted, logged and repeated at the next reconciliation.
 */
public final class KubeSource implements AutoCloseable {

  /**
   * Gauge of the seconds a cluster's watch of a kind has not been watching (0 while it watches),
   * tags {@code cluster} and {@code kind}: a watch that keeps failing shows here and in the
   * connectors' readiness instead of going quiet.
   */
  public static final String WATCH_DOWN = "quotaflow.source.watch.down.seconds";

  private static final Logger LOG = LoggerFactory.getLogger(KubeSource.class);
  // Bounded, so a stop ends within seconds even without a broker; what is not sent by then is
  // written again after the restart (the source writes what the topic does not hold).
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);
  // Values of compression.type; Kafka's enum of them is internal.
  private static final String DEFAULT_COMPRESSION = "lz4";
  private static final String NO_COMPRESSION = "none";

  private final List<KubeCluster> clusters;
  private final SourceSettings settings;
  private final Producer<byte[], byte[]> producer;
  private final KafkaClientMeters kafkaMeters;
  private final Supplier<Consumer<byte[], byte[]>> consumers;
  private final ScheduledExecutorService reconciler;
  private final ScheduledExecutorService heartbeats;
  private Optional<Supplier<Heartbeats.Beat>> watch = Optional.empty();
  private volatile Optional<Heartbeats.Beat> beat = Optional.empty();
  // Start steps that call the API servers (PodGroup discovery), apart from the reconciler so a
  // cluster that does not answer delays no other's snapshots.
  private final ScheduledExecutorService starter;
  private final List<ClusterSource<?, ?, ?>> sources = new ArrayList<>();
  // Each cluster's writer (its identity, read at start, and this source's epoch), by name.
  private final Map<String, CompletableFuture<WriterHeaders.Writer>> writers = new HashMap<>();
  private final long writerEpoch;
  private boolean started;
  private boolean closed;

  /**
   * A source writing with its own producer.
   *
   * @param clusters the clusters to watch, each with a unique name
   * @param topics the topic catalogue
   * @param kafka Kafka client settings ({@code bootstrap.servers}, security, ...), passed through;
   *     the settings that make writes safe are enforced
   * @param settings resync, reconciliation and start timing
   * @param registry where the counters go
   */
  public KubeSource(
      final List<KubeCluster> clusters,
      final TopicCatalogue topics,
      final Map<String, Object> kafka,
      final SourceSettings settings,
      final MeterRegistry registry) {
    this(clusters, topics, kafka, settings, registry, 0L);
  }

  /**
   * A source writing with its own producer, as the writer of epoch {@code writerEpoch}: the term of
   * the connectors' leader election, so records of an earlier leader carry a lower one (issue
   * 40.12); 0 without leader election.
   */
  public KubeSource(
      final List<KubeCluster> clusters,
      final TopicCatalogue topics,
      final Map<String, Object> kafka,
      final SourceSettings settings,
      final MeterRegistry registry,
      final long writerEpoch) {
    this(
        clusters,
        topics,
        new KafkaProducer<>(producerConfig(kafka, settings.partitionByCluster())),
        () -> new KafkaConsumer<>(snapshotConsumerConfig(kafka)),
        settings,
        registry,
        writerEpoch);
  }

  /** A source on a given producer and consumers, for tests. The source closes the producer. */
  KubeSource(
      final List<KubeCluster> clusters,
      final TopicCatalogue topics,
      final Producer<byte[], byte[]> producer,
      final Supplier<Consumer<byte[], byte[]>> consumers,
      final SourceSettings settings,
      final MeterRegistry registry) {
    this(clusters, topics, producer, consumers, settings, registry, 0L);
  }

  /**
   * A source on a given producer and consumers, writing as epoch {@code writerEpoch}, for tests.
   * The source closes the producer.
   */
  KubeSource(
      final List<KubeCluster> clusters,
      final TopicCatalogue topics,
      final Producer<byte[], byte[]> producer,
      final Supplier<Consumer<byte[], byte[]>> consumers,
      final SourceSettings settings,
      final MeterRegistry registry,
      final long writerEpoch) {
    this.writerEpoch = writerEpoch;
    this.clusters = List.copyOf(clusters);
    requireUniqueNames(this.clusters);
    Objects.requireNonNull(topics, "topics");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.producer = Objects.requireNonNull(producer, "producer");
    this.consumers = Objects.requireNonNull(consumers, "consumers");
    Objects.requireNonNull(registry, "registry");
    this.kafkaMeters = new KafkaClientMeters(registry);
    kafkaMeters.producer(producer);
    this.reconciler =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              final Thread thread = new Thread(runnable, "quotaflow-source-reconciler");
              thread.setDaemon(true);
              return thread;
            });
    this.heartbeats =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              final Thread thread = new Thread(runnable, "quotaflow-source-heartbeat");
              thread.setDaemon(true);
              return thread;
            });
    this.starter = daemonScheduler("quotaflow-source-start");
    for (final KubeCluster cluster : this.clusters) {
      writers.put(cluster.name(), new CompletableFuture<>());
      final PodKind pods = new PodKind(topics.pods(), settings.podGroups());
      sources.add(source(cluster, pods, registry));
      sources.add(
          source(
              cluster,
              new ElasticQuotaKind(topics.quotas(), settings.specialQuotaNamespaces()),
              registry));
      sources.add(source(cluster, new NodeKind(topics.nodes()), registry));
      if (settings.watchProfiles()) {
        sources.add(source(cluster, new ProfileKind(topics.profiles()), registry));
      }
      // From the pod kind's PodGroup informers; with none watched, markers and empty snapshots.
      sources.add(
          source(cluster, new PodGroupKind(topics.podGroups(), pods.podGroups()), registry));
      if (settings.dra() != DraWatch.NEVER) {
        for (final DraKind<?, ?> kind : DraKind.all(topics, settings.dra())) {
          sources.add(source(cluster, kind, registry));
        }
      }
    }
  }

  private <T extends HasMetadata, K, V> ClusterSource<T, K, V> source(
      final KubeCluster cluster, final SourceKind<T, K, V> kind, final MeterRegistry registry) {
    final ClusterSource<T, K, V> source =
        new ClusterSource<>(cluster, kind, settings, producer, registry, reconciler, starter);
    source.writtenBy(writers.get(cluster.name()));
    return source;
  }

  private static ScheduledExecutorService daemonScheduler(final String name) {
    return Executors.newSingleThreadScheduledExecutor(
        runnable -> {
          final Thread thread = new Thread(runnable, name);
          thread.setDaemon(true);
          return thread;
        });
  }

  /**
   * Reads the topics (blocking, at most {@link SourceSettings#startTimeout()} per topic) and starts
   * the informers.
   *
   * @return completes when every informer has listed its objects and watches
   */
  public synchronized CompletableFuture<Void> start() {
    if (started || closed) {
      throw new IllegalStateException("A source starts once");
    }
    started = true;
    try (Consumer<byte[], byte[]> consumer = consumers.get()) {
      sources.forEach(source -> source.seed(consumer, settings));
    }
    clusters.forEach(this::identify);
    final CompletableFuture<?>[] synced =
        sources.stream().map(ClusterSource::start).toArray(CompletableFuture[]::new);
    final long every = settings.reconcileInterval().toMillis();
    reconciler.scheduleWithFixedDelay(this::reconcileQuietly, every, every, TimeUnit.MILLISECONDS);
    // Watched from when it beats: reading the topics above may take a while.
    this.beat = watch.map(Supplier::get);
    final long beat = settings.heartbeatInterval().toMillis();
    heartbeats.scheduleAtFixedRate(this::beatQuietly, beat, beat, TimeUnit.MILLISECONDS);
    final long snapshotEvery = settings.snapshotInterval().toMillis();
    heartbeats.scheduleWithFixedDelay(
        () -> sources.forEach(ClusterSource::requestSnapshot),
        snapshotEvery,
        snapshotEvery,
        TimeUnit.MILLISECONDS);
    LOG.info("source started for clusters {}", clusters);
    return CompletableFuture.allOf(synced);
  }

  /**
   * Reads {@code cluster}'s identity (the UID of its kube-system namespace), tried again until its
   * API server answers; its sources write nothing before.
   */
  private void identify(final KubeCluster cluster) {
    UntilAnswered.call(
            () -> ClusterIdentity.kubeSystemUid(cluster),
            starter,
            UntilAnswered.FIRST_DELAY,
            UntilAnswered.LONGEST_DELAY,
            failure ->
                LOG.warn(
                    "cluster {}: reading its identity (namespace {}) failed, trying again: {}",
                    cluster.name(),
                    ClusterIdentity.NAMESPACE,
                    failure.toString()))
        .thenApply(uid -> new WriterHeaders.Writer(uid, writerEpoch))
        .whenComplete(
            (writer, error) -> {
              if (error != null) {
                writers.get(cluster.name()).completeExceptionally(error);
              } else {
                writers.get(cluster.name()).complete(writer);
              }
            });
  }

  /**
   * Why a decision taken at {@code decidedAt} for {@code cluster} may rest on inputs that missed
   * changes (the first reason of any kind); empty when none is known, or the cluster is not watched
   * here.
   */
  public Optional<String> staleness(final String cluster, final Instant decidedAt) {
    return sources.stream()
        .filter(source -> source.cluster().equals(cluster))
        .map(source -> source.staleness(decidedAt))
        .flatMap(Optional::stream)
        .findFirst();
  }

  /**
   * Checks every key the topics hold against the clusters now: tombstones what is gone, repeats
   * failed writes. Runs by itself after each list and periodically.
   *
   * @return the number of records written
   */
  public int reconcile() {
    return sources.stream().mapToInt(ClusterSource::reconcile).sum();
  }

  /** Stops watching, then sends what the producer still holds and closes it. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    final List<ClusterSource<?, ?, ?>> reverse = new ArrayList<>(sources);
    Collections.reverse(reverse);
    reverse.forEach(ClusterSource::close);
    starter.shutdownNow();
    heartbeats.shutdownNow();
    reconciler.shutdownNow();
    beat.ifPresent(Heartbeats.Beat::close);
    kafkaMeters.close();
    // close() sends what the producer holds, within the timeout (flush() would wait for ever).
    producer.close(CLOSE_TIMEOUT);
    LOG.info("source stopped for clusters {}", clusters);
  }

  /**
   * The producer settings of the source: the given ones, with idempotence, {@code acks=all} and
   * byte serializers enforced, and lz4 compression unless another codec is chosen.
   */
  static Map<String, Object> producerConfig(
      final Map<String, Object> kafka, final boolean partitionByCluster) {
    final Map<String, Object> config = new HashMap<>(kafka);
    if (partitionByCluster) {
      // The engine reads each partition as a set of whole clusters (inputs.partitioned.by.cluster).
      config.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, ClusterPartitioner.class.getName());
    }
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.merge(
        ProducerConfig.COMPRESSION_TYPE_CONFIG,
        DEFAULT_COMPRESSION,
        (chosen, lz4) -> NO_COMPRESSION.equals(chosen) ? lz4 : chosen);
    config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 20);
    config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "quotaflow-source");
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    return config;
  }

  /** A consumer without a group that reads committed records as bytes and creates no topic. */
  static Map<String, Object> snapshotConsumerConfig(final Map<String, Object> kafka) {
    final Map<String, Object> config = new HashMap<>(kafka);
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
    config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    // The reader stops at the end offsets, and its last fetch (which only passes a transaction's
    // commit marker) found no new data and was held by the broker for the default 500 ms: half a
    // second per topic, 4.5 s of every restart with nine kinds.
    config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20);
    config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "quotaflow-source-snapshot");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    return config;
  }

  /**
   * Has {@code loops} watch the heartbeat-marker loop from the start: it writes every {@code
   * source.heartbeat.interval} through the producer, so a producer wedged in a send silences it.
   * Called before {@link #start()}.
   */
  public synchronized void watchedBy(final Heartbeats loops, final Duration allowedSilence) {
    if (started) {
      throw new IllegalStateException("the source is watched from its start");
    }
    this.watch = Optional.of(() -> loops.register("the source's heartbeat loop", allowedSilence));
  }

  private void beatQuietly() {
    beat.ifPresent(Heartbeats.Beat::beat);
    for (final ClusterSource<?, ?, ?> source : sources) {
      try {
        source.beat(ClusterSource.SOURCE_NAME);
      } catch (RuntimeException e) {
        LOG.error("writing a heartbeat failed; it is written again at the next tick", e);
      }
      // After each send, each bounded by max.block.ms: a round slowed by Kafka is not a wedge.
      beat.ifPresent(Heartbeats.Beat::beat);
    }
  }

  private void reconcileQuietly() {
    try {
      reconcile();
    } catch (RuntimeException e) {
      LOG.error("reconciling the source failed; it will run again", e);
    }
  }

  private static void requireUniqueNames(final List<KubeCluster> clusters) {
    final long distinct = clusters.stream().map(KubeCluster::name).distinct().count();
    if (distinct != clusters.size()) {
      throw new IllegalArgumentException("Cluster names must be unique: " + clusters);
    }
  }
}
