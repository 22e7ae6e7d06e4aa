package io.quotaflow.bench.pipeline;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.bench.cluster.ClusterShape;
import io.quotaflow.bench.cluster.SyntheticCluster;
import io.quotaflow.bench.cluster.SyntheticClusterGenerator;
import io.quotaflow.broker.EmbeddedKafkaBroker;
import io.quotaflow.engine.Engine;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.schemas.FieldProblem;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodPhase;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.topics.TopicCatalogue;
import io.quotaflow.topics.TopicProvisioner;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The restart of an engine holding one large cluster (default the 100,000-group synthetic cluster
 * of the quota core benchmarks: 382,967 pods, 30,084 nodes): the inputs are written, a first engine
 * reads them all, computes and commits, and is closed; a second instance of the same application
 * starts on the same state directory. Measured: the time from its start until the cluster's tree is
 * queryable again, how much of it Kafka Streams spent restoring the stores (in-memory stores replay
 * their changelogs; RocksDB ones restart from their checkpoints), the time the task took to rebuild
 * the cluster's state from its stores ({@code quotaflow.engine.rebuild}), and the runtime records
 * the first recomputation after the restart wrote (none is expected: the stores already hold the
 * result). Run by bench/run-restore-bench.sh.
 *
 * <p>Options: groups (default 100000), stores (in_memory, rocksdb or both: default both),
 * max-seconds (per wait, default 600).
 */
public final class RestoreBench {
  private static final PrintStream OUT = System.out;
  private static final String PREFIX = "bench-restore.";
  private static final String CLUSTER = "big";

  private RestoreBench() {}

  public static void main(final String[] args) throws Exception {
    final Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    final int groups = Integer.parseInt(options.getOrDefault("groups", "100000"));
    final String stores = options.getOrDefault("stores", "both");
    final Duration limit =
        Duration.ofSeconds(Long.parseLong(options.getOrDefault("max-seconds", "600")));
    final SyntheticCluster cluster = SyntheticClusterGenerator.generate(ClusterShape.of(groups));
    OUT.printf(
        Locale.ROOT,
        "cluster %s: %,d groups, %,d pods, %,d nodes%n",
        CLUSTER,
        cluster.inputs().groups().size(),
        cluster.inputs().pods().size(),
        cluster.inputs().nodes().size());
    final Path work = Files.createTempDirectory("quotaflow-restore-bench");
    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
      final String servers = broker.bootstrapServers();
      final TopicCatalogue topics = TopicCatalogue.withPrefix(PREFIX);
      try (Admin admin =
          Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers))) {
        new TopicProvisioner(admin, Duration.ofSeconds(30)).provision(topics.all(), 6, (short) 1);
      }
      final long written = write(servers, topics, cluster);
      OUT.printf(Locale.ROOT, "inputs written: %,d records%n", written);
      for (final String kind :
          stores.equals("both") ? List.of("in_memory", "rocksdb") : List.of(stores)) {
        restart(servers, topics, kind, work.resolve(kind), written, cluster, limit);
      }
    } finally {
      try (var paths = Files.walk(work)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (final IOException e) {
        OUT.println("could not delete " + work + ": " + e.getMessage());
      }
    }
  }

  /** A first instance reads everything and stops; a second starts on its state: timed. */
  private static void restart(
      final String servers,
      final TopicCatalogue topics,
      final String stores,
      final Path stateDir,
      final long inputs,
      final SyntheticCluster cluster,
      final Duration limit)
      throws InterruptedException {
    final String applicationId =
        "quotaflow-restore-" + stores.replace('_', '-') + "-" + System.currentTimeMillis();
    final int expectedGroups = cluster.inputs().groups().size() + 3;
    final SimpleMeterRegistry first = new SimpleMeterRegistry();
    final long firstStart = System.nanoTime();
    try (Engine engine = new Engine(config(servers, applicationId, stateDir, stores), first)) {
      engine.provisionTopics();
      engine.start();
      await(() -> read(first) >= inputs && treeSize(engine) == expectedGroups, limit, "first run");
      // Let the pacer end the backlog and the last results commit.
      LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(3));
    }
    OUT.printf(
        Locale.ROOT,
        "%s: first run read %,d records and computed %,d groups in %.1f s; closed%n",
        stores,
        (long) read(first),
        expectedGroups,
        (System.nanoTime() - firstStart) / 1e9);

    final SimpleMeterRegistry second = new SimpleMeterRegistry();
    try (RecordCounter runtimeRecords = new RecordCounter(servers, topics.runtime().name());
        Engine engine = new Engine(config(servers, applicationId, stateDir, stores), second)) {
      final long start = System.nanoTime();
      engine.start();
      await(() -> engine.streams().state() == KafkaStreams.State.RUNNING, limit, "RUNNING");
      final long running = System.nanoTime();
      await(() -> treeSize(engine) == expectedGroups, limit, "tree queryable");
      final long queryable = System.nanoTime();
      // Wait out a few recompute and reclaim ticks: the first recomputation after the rebuild.
      LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(3));
      final Timer rebuild = second.find(EngineMetrics.REBUILD_TIME).timer();
      OUT.printf(
          Locale.ROOT,
          "%s: restart: RUNNING after %.2f s (the stores restored), tree of %,d groups queryable"
              + " after %.2f s; the task holding the cluster rebuilt it in %.2f s (longest of %d"
              + " task rebuilds); runtime records written by the restarted instance: %d%n",
          stores,
          (running - start) / 1e9,
          expectedGroups,
          (queryable - start) / 1e9,
          rebuild == null ? Double.NaN : rebuild.max(TimeUnit.MILLISECONDS) / 1e3,
          rebuild == null ? 0 : rebuild.count(),
          runtimeRecords.records());
    }
  }

  private static EngineConfig config(
      final String servers, final String applicationId, final Path stateDir, final String stores) {
    return EngineRun.config(servers, applicationId, stateDir, StreamsConfig.EXACTLY_ONCE_V2)
        .set(EngineSettings.TOPIC_PREFIX.key(), PREFIX)
        .set(EngineSettings.STATE_STORES.key(), stores)
        .set(EngineSettings.SHUTDOWN_TIMEOUT.key(), "60s")
        .build();
  }

  private static double read(final SimpleMeterRegistry registry) {
    return registry.find(EngineMetrics.RECORDS_READ).counters().stream()
        .mapToDouble(counter -> counter.count())
        .sum();
  }

  private static int treeSize(final Engine engine) {
    try {
      return engine.queries().tree(CLUSTER).size();
    } catch (final RuntimeException notReadyYet) {
      return -1;
    }
  }

  private static void await(
      final java.util.function.BooleanSupplier done, final Duration limit, final String what) {
    final long deadline = System.nanoTime() + limit.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out waiting for " + what);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
  }

  /** Writes the cluster's groups, nodes and pods, placed by cluster; returns how many records. */
  private static long write(
      final String servers, final TopicCatalogue topics, final SyntheticCluster cluster) {
    final Map<String, Object> settings =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            servers,
            ProducerConfig.LINGER_MS_CONFIG,
            20,
            ProducerConfig.BATCH_SIZE_CONFIG,
            256 * 1024,
            ProducerConfig.PARTITIONER_CLASS_CONFIG,
            ClusterPartitioner.class.getName());
    long count = 0;
    try (KafkaProducer<QuotaKey, QuotaSpec> quotas =
            new KafkaProducer<>(
                settings, topics.quotas().keySerializer(), topics.quotas().valueSerializer());
        KafkaProducer<NodeKey, NodeState> nodes =
            new KafkaProducer<>(
                settings, topics.nodes().keySerializer(), topics.nodes().valueSerializer());
        KafkaProducer<PodKey, PodState> pods =
            new KafkaProducer<>(
                settings, topics.pods().keySerializer(), topics.pods().valueSerializer())) {
      for (final QuotaGroup group : cluster.inputs().groups()) {
        quotas.send(
            new ProducerRecord<>(
                topics.quotas().name(), new QuotaKey(CLUSTER, group.name()), spec(group)));
        count++;
      }
      for (final QuotaNode node : cluster.inputs().nodes()) {
        nodes.send(
            new ProducerRecord<>(
                topics.nodes().name(), new NodeKey(CLUSTER, node.name()), node(node)));
        count++;
      }
      for (final QuotaPod pod : cluster.inputs().pods()) {
        pods.send(
            new ProducerRecord<>(
                topics.pods().name(),
                new PodKey(CLUSTER, pod.ref().namespace(), pod.ref().name()),
                pod(pod)));
        count++;
      }
    }
    return count;
  }

  private static QuotaSpec spec(final QuotaGroup group) {
    return QuotaSpec.newBuilder()
        .setMin(map(group.min()))
        .setMax(map(group.max()))
        .setParent(group.parent())
        .setIsParent(group.parentGroup())
        .setSharedWeight(group.sharedWeight().map(RestoreBench::map).orElse(null))
        .setAllowLent(group.allowLent())
        .setLendingLimit(group.lendingLimit().map(RestoreBench::map).orElse(null))
        .setBorrowingLimit(group.borrowingLimit().map(RestoreBench::map).orElse(null))
        .setNamespaces(group.namespaces())
        .setProblems(problems(group.problems()))
        .build();
  }

  private static NodeState node(final QuotaNode node) {
    return NodeState.newBuilder()
        .setAllocatable(map(node.allocatable()))
        .setReady(node.ready())
        .setSchedulable(node.schedulable())
        .setDeleting(node.deleting())
        .setProblems(problems(node.problems()))
        .build();
  }

  private static PodState pod(final QuotaPod pod) {
    return PodState.newBuilder()
        .setUid(pod.uid())
        .setQuotaName(pod.quotaName().orElse(null))
        .setPhase(PodPhase.valueOf(pod.phase().name()))
        .setNodeName(pod.nodeName().orElse(null))
        .setPriority(pod.priority())
        .setRequests(map(pod.request()))
        .setPreemptible(pod.preemptible())
        .setCreationTime(pod.creationTime())
        .setStartTime(pod.startTime().orElse(null))
        .setDeletionTime(pod.deletionTime().orElse(null))
        .setProblems(problems(pod.problems()))
        .build();
  }

  private static Map<String, Long> map(final ResourceList list) {
    return new TreeMap<>(list.asMap());
  }

  private static List<FieldProblem> problems(final List<SpecProblem> problems) {
    return problems.stream()
        .map(problem -> new FieldProblem(problem.field(), problem.reason()))
        .toList();
  }
}
