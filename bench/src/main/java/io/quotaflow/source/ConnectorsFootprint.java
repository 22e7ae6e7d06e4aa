package io.quotaflow.source;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.schemas.MarkerKind;
import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.TopicCatalogue;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The connectors' heap at a large cluster (issue 40.3): a mock API server that makes up {@code
 * pods} realistic pods (managedFields, three containers with env, volumes, conditions and statuses,
 * about 7 KB of JSON each) and {@code nodes} nodes (images, conditions, about 5 KB) as it is asked
 * for them, paging when the request carries {@code limit} as a real API server does; the
 * connectors' pod and node sources ({@link ClusterSource} of {@link PodKind} and {@link NodeKind})
 * list it until each has published its first snapshot (SNAPSHOT_END), into a producer that keeps
 * nothing. Prints the time to both snapshots, the live heap after a full GC, the heap's peak and
 * the LIST requests. Run by bench/run-connectors-footprint.sh.
 *
 * <p>Usage: {@code ConnectorsFootprint PODS NODES}
 */
public final class ConnectorsFootprint {

  private static final String CLUSTER = "big";

  private ConnectorsFootprint() {}

  public static void main(final String[] args) throws Exception {
    final int pods = Integer.parseInt(args[0]);
    final int nodes = Integer.parseInt(args[1]);
    final Generated dispatcher = new Generated(pods, nodes);
    final KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
    server.init(InetAddress.getLoopbackAddress(), 0);
    final KubernetesClient client = server.createClient();
    final TopicCatalogue topics = TopicCatalogue.withDefaultPrefix();
    final Discarding producer = new Discarding();
    final ScheduledExecutorService reconciler = Executors.newSingleThreadScheduledExecutor();
    final ScheduledExecutorService starter = Executors.newSingleThreadScheduledExecutor();
    final SourceSettings settings =
        SourceSettings.defaults().withPodGroups(PodGroupWatch.NEVER).withDra(DraWatch.NEVER);
    final PeakHeap peak = new PeakHeap();
    final long began = System.nanoTime();
    final List<ClusterSource<?, ?, ?>> sources =
        List.of(
            new ClusterSource<>(
                new KubeCluster(CLUSTER, client),
                new PodKind(topics.pods(), PodGroupWatch.NEVER),
                settings,
                producer,
                new SimpleMeterRegistry(),
                reconciler,
                starter),
            new ClusterSource<>(
                new KubeCluster(CLUSTER, client),
                new NodeKind(topics.nodes()),
                settings,
                producer,
                new SimpleMeterRegistry(),
                reconciler,
                starter));
    sources.get(0).seed(empty(topics.pods().name()), settings);
    sources.get(1).seed(empty(topics.nodes().name()), settings);
    sources.forEach(ClusterSource::start);
    if (!producer.snapshots.await(30, TimeUnit.MINUTES)) {
      throw new IllegalStateException("no snapshot in 30 minutes");
    }
    final double seconds = (System.nanoTime() - began) / 1e9;
    peak.stop();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    final long live = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    System.out.printf(
        "pods=%d nodes=%d snapshot_seconds=%.1f live_heap_mb=%d peak_heap_mb=%d"
            + " records=%d lists=%d paged_lists=%d max_heap_mb=%d%n",
        pods,
        nodes,
        seconds,
        live >> 20,
        peak.max.get() >> 20,
        producer.records.get(),
        dispatcher.lists.get(),
        dispatcher.pagedLists.get(),
        Runtime.getRuntime().maxMemory() >> 20);
    // -Dfootprint.hold.seconds=N keeps the sources open N seconds, for a heap histogram (jmap).
    Thread.sleep(Long.getLong("footprint.hold.seconds", 0) * 1000);
    sources.forEach(ClusterSource::close);
    reconciler.shutdownNow();
    starter.shutdownNow();
    client.close();
    server.destroy();
    System.exit(0);
  }

  private static MockConsumer<byte[], byte[]> empty(final String topic) {
    final MockConsumer<byte[], byte[]> consumer =
        new MockConsumer<>(AutoOffsetResetStrategy.EARLIEST.name());
    final TopicPartition partition = new TopicPartition(topic, 0);
    consumer.updatePartitions(
        topic, List.of(new PartitionInfo(topic, 0, Node.noNode(), new Node[0], new Node[0])));
    consumer.updateBeginningOffsets(Map.of(partition, 0L));
    consumer.updateEndOffsets(Map.of(partition, 0L));
    return consumer;
  }

  /** Counts records and snapshot ends; keeps nothing (MockProducer would keep every record). */
  private static final class Discarding extends MockProducer<byte[], byte[]> {
    final CountDownLatch snapshots = new CountDownLatch(2);
    final AtomicLong records = new AtomicLong();
    private final Map<String, Boolean> ended = new ConcurrentHashMap<>();

    Discarding() {
      super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public synchronized Future<RecordMetadata> send(
        final ProducerRecord<byte[], byte[]> record, final Callback callback) {
      records.incrementAndGet();
      SourceMarkers.read(record.headers())
          .filter(marker -> marker.getKind() == MarkerKind.SNAPSHOT_END)
          .filter(marker -> ended.putIfAbsent(record.topic(), true) == null)
          .ifPresent(marker -> snapshots.countDown());
      final RecordMetadata metadata =
          new RecordMetadata(new TopicPartition(record.topic(), 0), 0, 0, 0, 0, 0);
      if (callback != null) {
        callback.onCompletion(metadata, null);
      }
      return CompletableFuture.completedFuture(metadata);
    }
  }

  /** The heap's highest use, sampled every 50 ms (includes garbage not yet collected). */
  private static final class PeakHeap {
    final AtomicLong max = new AtomicLong();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();

    PeakHeap() {
      sampler.scheduleAtFixedRate(
          () ->
              max.accumulateAndGet(
                  ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max),
          0,
          50,
          TimeUnit.MILLISECONDS);
    }

    void stop() {
      sampler.shutdownNow();
    }
  }

  /**
   * Pod and node lists made up on request, paged by {@code limit} with the offset as {@code
   * continue}; everything else (watches, other kinds) goes to the empty CRUD store.
   */
  private static final class Generated extends KubernetesCrudDispatcher {
    final AtomicLong lists = new AtomicLong();
    final AtomicLong pagedLists = new AtomicLong();
    private final int pods;
    private final int nodes;

    Generated(final int pods, final int nodes) {
      this.pods = pods;
      this.nodes = nodes;
    }

    @Override
    public MockResponse dispatch(final RecordedRequest request) {
      final URI uri = URI.create(request.getPath());
      final String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
      final boolean podList = "/api/v1/pods".equals(uri.getPath());
      final boolean nodeList = "/api/v1/nodes".equals(uri.getPath());
      if (!"GET".equals(request.getMethod())
          || !(podList || nodeList)
          || query.contains("watch=true")) {
        return super.dispatch(request);
      }
      lists.incrementAndGet();
      final Map<String, String> params = new HashMap<>();
      for (final String pair : query.split("&")) {
        final String[] parts = pair.split("=", 2);
        params.put(parts[0], parts.length > 1 ? parts[1] : "");
      }
      final int total = podList ? pods : nodes;
      if (params.containsKey("limit")) {
        pagedLists.incrementAndGet();
      }
      final int from = Integer.parseInt(params.getOrDefault("continue", "0"));
      final int limit = Integer.parseInt(params.getOrDefault("limit", String.valueOf(total)));
      final int to = Math.min(total, from + limit);
      final StringBuilder body = new StringBuilder(64 + (to - from) * 8192);
      body.append("{\"apiVersion\":\"v1\",\"kind\":\"")
          .append(podList ? "PodList" : "NodeList")
          .append("\",\"metadata\":{\"resourceVersion\":\"1\"");
      if (to < total) {
        body.append(",\"continue\":\"").append(to).append('"');
      }
      body.append("},\"items\":[");
      for (int i = from; i < to; i++) {
        if (i > from) {
          body.append(',');
        }
        body.append(podList ? FootprintObjects.pod(i, nodes) : FootprintObjects.node(i));
      }
      body.append("]}");
      return new MockResponse().setResponseCode(200).setBody(body.toString());
    }
  }
}
