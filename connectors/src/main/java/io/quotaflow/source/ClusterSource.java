package io.quotaflow.source;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.schemas.MarkerKind;
import io.quotaflow.schemas.SourceMarker;
import io.quotaflow.topics.WriterHeaders;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The informer and publisher of one kind of object of one cluster. */
final class ClusterSource<T extends HasMetadata, K, V> implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterSource.class);

  /** Who writes the markers: the host (the pod's name in Kubernetes). */
  static final String SOURCE_NAME =
      System.getenv().getOrDefault("HOSTNAME", "quotaflow-connectors");

  // Longer than the producer's default delivery timeout (120 s): a write not acknowledged by then
  // has failed, and the snapshot writes no end marker.
  private static final Duration SNAPSHOT_WAIT = Duration.ofMinutes(3);

  private final KubeCluster cluster;
  private final SourceKind<T, K, V> kind;
  private final Watched<T, K> informer;
  private final SentRecords<K> sent = new SentRecords<>();
  private final ResourcePublisher<T, K, V> publisher;
  private final MeterRegistry registry;
  private final Gauge watchDown;
  // When the informers were first seen not watching; -1 while they watch.
  private volatile long downSince = -1;
  private final ScheduledExecutorService reconciler;
  // Runs the kind's start steps that call the API server (PodGroup discovery).
  private final ScheduledExecutorService starter;
  private volatile boolean closed;
  // Set when the kind turned out not to be watched here (not served): no informer, no records.
  private volatile boolean skipped;
  // Whether the topic showed, at start, that an earlier run watched the kind here and did not
  // retire it: objects of the cluster, or a last marker other than a retirement.
  private volatile boolean watchedBefore;
  private final Duration recoveryRepeat;
  // Who writes the records: known once the cluster's identity is read (issue 40.12).
  private volatile CompletableFuture<WriterHeaders.Writer> writer =
      CompletableFuture.completedFuture(new WriterHeaders.Writer(Optional.empty(), 0L));
  private final AtomicBoolean snapshotPending = new AtomicBoolean();
  private final CompletableFuture<Void> firstSnapshot = new CompletableFuture<>();
  // A gap: the inputs may have missed changes (a relist after a lost watch, a lost write) and no
  // snapshot has ended since. Counted, so a gap opened while a snapshot runs outlives it.
  private final AtomicLong gapsOpened = new AtomicLong();
  private volatile long gapsHealed;
  // When the snapshot that healed the last gap started, by the broker's clock: decisions older
  // than it are stale.
  private final RelistStart healedFrom = new RelistStart();

  ClusterSource(
      final KubeCluster cluster,
      final SourceKind<T, K, V> kind,
      final SourceSettings settings,
      final Producer<byte[], byte[]> producer,
      final MeterRegistry registry,
      final ScheduledExecutorService reconciler,
      final ScheduledExecutorService starter) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.kind = Objects.requireNonNull(kind, "kind");
    this.informer = kind.watch(cluster.client(), settings.resync());
    this.publisher =
        new ResourcePublisher<>(
            cluster.name(),
            kind,
            informer::current,
            informer::hasSynced,
            producer,
            sent,
            new SourceMetrics(registry, cluster.name(), kind.name()),
            reconciler,
            informer::list);
    this.reconciler = reconciler;
    this.starter = Objects.requireNonNull(starter, "starter");
    this.recoveryRepeat = settings.recoverySnapshotRepeat();
    publisher.afterEveryList(this::afterList);
    informer.exceptionHandler((started, error) -> retryAfter(kind.name(), error));
    informer.addEventHandler(publisher);
    this.registry = registry;
    this.watchDown =
        Gauge.builder(KubeSource.WATCH_DOWN, this, ClusterSource::secondsNotWatching)
            .description(
                "Seconds a cluster's watch of a kind has not been watching (0 while it watches);"
                    + " the connectors are not ready while one is down for 30 s")
            .tag("cluster", cluster.name())
            .tag("kind", kind.name())
            .strongReference(true)
            .register(registry);
  }

  /**
   * Has every record carry {@code writer}'s headers (the cluster's identity, the writer's epoch):
   * {@link #start()} writes nothing before it completes. Called before {@link #start()}.
   */
  void writtenBy(final CompletableFuture<WriterHeaders.Writer> writer) {
    this.writer = Objects.requireNonNull(writer, "writer");
  }

  /** The name of the cluster watched. */
  String cluster() {
    return cluster.name();
  }

  /**
   * How long this source's informers have not been watching, in seconds: a watch that keeps failing
   * (API server away, objects it cannot read) shows here instead of going quiet.
   */
  double secondsNotWatching() {
    if (skipped) {
      return 0;
    }
    final boolean watching =
        informer.isWatching()
            && kind.companions().stream().allMatch(SharedIndexInformer::isWatching);
    final long now = System.nanoTime();
    if (watching) {
      downSince = -1;
      return 0;
    }
    if (downSince < 0) {
      downSince = now;
    }
    return (now - downSince) / 1e9;
  }

  /**
   * Reads what the topic holds for this cluster, so unchanged objects are not written again and
   * objects deleted meanwhile can be tombstoned once the informer has listed.
   */
  void seed(final Consumer<byte[], byte[]> consumer, final SourceSettings settings) {
    final Predicate<K> ours = key -> cluster.name().equals(kind.clusterOf(key));
    final Map<K, SourceMarker> markers = new HashMap<>();
    final Map<K, byte[]> held =
        TopicSnapshot.read(consumer, kind.topic(), ours, settings.startTimeout(), markers);
    sent.seed(held);
    final SourceMarker last = markers.get(kind.markerKey(cluster.name()));
    watchedBefore = !held.isEmpty() || (last != null && last.getKind() != MarkerKind.RETIRED);
    LOG.info(
        "cluster {}: {} holds {} live {}", cluster, kind.topic().name(), held.size(), kind.name());
  }

  /**
   * Starts watching; completes once the informer has listed and watches and the snapshot after its
   * first list is done (written whole, or given up).
   */
  CompletableFuture<Void> start() {
    // The kind's start steps (discovery) run meanwhile: nothing is written before both are done.
    return writer
        .thenCombine(
            kind.prepare(cluster.name(), starter),
            (known, prepared) -> {
              publisher.writtenBy(known);
              return prepared;
            })
        .thenCompose(
            prepared -> {
              if (!kind.watched()) {
                skipped = true;
                retireIfWatchedBefore();
                return CompletableFuture.<Void>completedFuture(null);
              }
              return startWatching();
            });
  }

  /**
   * An earlier run watched the kind here and this one does not (turned off, no longer served): says
   * so with a marker rather than going silent, so the engine stops waiting for the kind's
   * heartbeats instead of suspending reclaim for good (issue 40.13).
   */
  private void retireIfWatchedBefore() {
    if (!watchedBefore) {
      return;
    }
    publisher.retire(Instant.now(), SOURCE_NAME);
    LOG.info(
        "cluster {}: {} watched by an earlier run and no longer: wrote a marker retiring them",
        cluster,
        kind.name());
  }

  private CompletableFuture<Void> startWatching() {
    return startCompanions()
        .thenCompose(
            listed -> {
              // The first list's snapshot starts before it: its events are part of the snapshot.
              publisher.openSnapshot(Instant.now(), SOURCE_NAME);
              return informer.start();
            })
        .thenCompose(watching -> firstSnapshot)
        .thenRun(() -> LOG.info("cluster {}: watching {}", cluster, kind.name()));
  }

  /**
   * Starts the kind's companions, once it knows them: they list first, because a record computed
   * from a half-listed companion would be written, and then corrected, at every start.
   */
  private CompletableFuture<Void> startCompanions() {
    if (closed) {
      return new CompletableFuture<>();
    }
    // Named as the kind they serve: the informer's own log names the resource that failed.
    kind.companions()
        .forEach(
            companion ->
                companion.exceptionHandler(
                    (started, error) -> retryAfter("a companion of " + kind.name(), error)));
    kind.onCompanionChange(publisher::republish);
    return CompletableFuture.allOf(
            kind.companions().stream()
                .map(companion -> companion.start().toCompletableFuture())
                .toArray(CompletableFuture[]::new))
        .thenRun(kind::companionsListed);
  }

  /**
   * At each heartbeat tick: a heartbeat while the informers watch and every write is confirmed;
   * nothing while they do not watch (the engine then sees the cluster's inputs go stale); a
   * snapshot instead when a write or a marker was lost, so the topic is whole again first.
   */
  void beat(final String source) {
    if (skipped) {
      return;
    }
    if (secondsNotWatching() > 0 || !informer.hasSynced()) {
      openGap();
      return;
    }
    if (sent.hasUnconfirmed() || publisher.markerFailed()) {
      openGap();
      requestRecoverySnapshot();
      return;
    }
    if (gapsOpened.get() > gapsHealed) {
      // The watch is back without a relist (it resumed where it stopped): a snapshot closes the
      // gap before any further heartbeat says the inputs are whole.
      requestSnapshot();
      return;
    }
    publisher.heartbeat(Instant.now(), source);
  }

  /**
   * Why a decision taken at {@code decidedAt} may rest on inputs that missed changes of this kind:
   * the watch is down, a write was lost, a relist has not yet been written whole, or the last
   * relist started after the decision (its start marker's log-append time: see {@link
   * RelistStart}). Empty until the first snapshot is written: what happened before this process
   * started is the command's age to judge.
   */
  Optional<String> staleness(final Instant decidedAt) {
    if (!firstSnapshot.isDone()) {
      return Optional.empty();
    }
    if (secondsNotWatching() > 0) {
      return Optional.of("the watch of " + kind.name() + " is down");
    }
    if (sent.hasUnconfirmed() || publisher.markerFailed()) {
      return Optional.of("a write of " + kind.name() + " to Kafka was lost");
    }
    if (gapsOpened.get() > gapsHealed) {
      return Optional.of("a relist of " + kind.name() + " is being written");
    }
    return healedFrom
        .after(decidedAt)
        .map(
            relist ->
                "decided at "
                    + decidedAt
                    + ", before the relist of "
                    + kind.name()
                    + " at "
                    + relist
                    + " (the broker's time)");
  }

  private void openGap() {
    if (firstSnapshot.isDone()) {
      gapsOpened.incrementAndGet();
    }
  }

  /** After the informer's list: its first at start, or a relist after the watch was lost. */
  private void afterList() {
    openGap();
    requestSnapshot();
  }

  /** Asks for a snapshot on the reconciler, unless one is waiting or running. */
  void requestSnapshot() {
    requestSnapshot(false);
  }

  /**
   * A snapshot after a lost write (Kafka away): written as soon as possible, and once more after
   * {@code source.snapshot.recovery.repeat}, because an engine recovering from the same outage may
   * re-create its tasks past the first one (Kafka Streams revived tasks have been seen to resume
   * after records their failed incarnation had fetched).
   */
  private void requestRecoverySnapshot() {
    requestSnapshot(true);
  }

  private void requestSnapshot(final boolean recovery) {
    if (snapshotPending.compareAndSet(false, true)) {
      try {
        reconciler.execute(() -> snapshot(recovery));
      } catch (RuntimeException e) {
        snapshotPending.set(false);
        LOG.debug(
            "cluster {}: snapshot of {} not scheduled: {}", cluster, kind.name(), e.toString());
      }
    }
  }

  private void snapshot(final boolean recovery) {
    try {
      publisher.clearMarkerFailure();
      final long gaps = gapsOpened.get();
      final Instant start = Instant.now();
      final Optional<ResourcePublisher.PendingSnapshot> pending =
          publisher.startSnapshot(start, SOURCE_NAME);
      if (pending.isPresent() && publisher.endSnapshot(pending.get(), SNAPSHOT_WAIT, SOURCE_NAME)) {
        if (gaps > gapsHealed) {
          healedFrom.healed(start, pending.get().startMarker());
          gapsHealed = gaps;
        }
        if (recovery) {
          final Runnable again = this::requestSnapshot;
          reconciler.schedule(again, recoveryRepeat.toMillis(), TimeUnit.MILLISECONDS);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.error("cluster {}: snapshot of {} failed; tried again later", cluster, kind.name(), e);
    } finally {
      snapshotPending.set(false);
      firstSnapshot.complete(null);
    }
  }

  /** Tombstones what the cluster no longer has and repeats failed writes. */
  int reconcile() {
    return publisher.reconcile();
  }

  @Override
  public void close() {
    closed = true;
    informer.stop();
    kind.companions().forEach(SharedIndexInformer::stop);
    registry.remove(watchDown);
  }

  private boolean retryAfter(final String watched, final Throwable error) {
    if (ExceptionHandler.isDeserializationException(error)) {
      // Kept trying (with the informer's backoff), and shown by the watch-down gauge and the
      // connectors' readiness, rather than stopped for good and silent (issue 26).
      LOG.error("cluster {}: cannot read {}, retrying: {}", cluster, watched, error.toString());
      return true;
    }
    LOG.warn("cluster {}: watching {} failed, retrying: {}", cluster, watched, error.toString());
    return true;
  }
}
