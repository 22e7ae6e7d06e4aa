package io.quotaflow.source;

import static io.quotaflow.fixtures.KubeObjects.node;
import static io.quotaflow.fixtures.KubeObjects.pod;
import static io.quotaflow.fixtures.KubeObjects.profile;
import static io.quotaflow.fixtures.KubeObjects.quota;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.Keys;
import io.quotaflow.fixtures.MockCluster;
import io.quotaflow.fixtures.TestTopics;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.fixtures.TopicReader.Entry;
import io.quotaflow.kube.QuotaLabels;
import io.quotaflow.schemas.NodeKey;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodPhase;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.ProfileKey;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaProfileSpec;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.topics.ClusterPartitioner;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class KubeSourceIT {

  @RegisterExtension static final ConnectorRig rig = new ConnectorRig("source");

  private KubeSource source;

  @AfterEach
  void stopSource() {
    if (source != null) {
      source.close();
    }
  }

  @Test
  void aPodBecomesARecordKeyedByClusterAndAnUpdateReplacesIt() {
    startSource();
    rig.mock()
        .client()
        .resource(
            pod(rig.namespace(), "web-1")
                .quota("team-a")
                .request("cpu", "500m")
                .request("memory", "1Gi")
                .priority(7)
                .build())
        .create();

    try (TopicReader<PodKey, PodState> pods = rig.reader(rig.topics().pods())) {
      final PodKey key = podKey("web-1");
      final PodState first = awaitValue(pods, key, state -> true);
      assertThat(first.getQuotaName()).contains("team-a");
      assertThat(first.getRequests()).isEqualTo(Map.of("cpu", 500L, "memory", 1L << 30));
      assertThat(first.getPriority()).isEqualTo(7);
      assertThat(first.getPhase()).isEqualTo(PodPhase.PENDING);
      assertThat(first.getNodeName()).isEmpty();
      assertThat(first.getProblems()).isEmpty();

      rig.mock()
          .client()
          .pods()
          .inNamespace(rig.namespace())
          .withName("web-1")
          .edit(p -> edited(p, "node-a"));

      final PodState second = awaitValue(pods, key, state -> state.getNodeName().isPresent());
      assertThat(second.getNodeName()).contains("node-a");
      assertThat(second.getPhase()).isEqualTo(PodPhase.RUNNING);
      assertThat(second.getUid()).isEqualTo(first.getUid());
    }
  }

  @Test
  void anUpdateOfSomethingQuotaflowDoesNotReadWritesNothing() {
    startSource();
    rig.mock().client().resource(pod(rig.namespace(), "web-1").quota("team-a").build()).create();

    try (TopicReader<PodKey, PodState> pods = rig.reader(rig.topics().pods())) {
      awaitValue(pods, podKey("web-1"), state -> true);
      final double unchangedBefore = unchanged("pods");

      rig.mock()
          .client()
          .pods()
          .inNamespace(rig.namespace())
          .withName("web-1")
          .edit(p -> withLabel(p, "app.kubernetes.io/version", "2"));

      await().atMost(ConnectorRig.WAIT).until(() -> unchanged("pods") > unchangedBefore);
      assertThat(pods.read(podKey("web-1")::equals)).hasSize(1);
    }
  }

  @Test
  void aDeletedPodBecomesATombstone() {
    startSource();
    rig.mock().client().resource(pod(rig.namespace(), "batch-1").build()).create();

    try (TopicReader<PodKey, PodState> pods = rig.reader(rig.topics().pods())) {
      awaitValue(pods, podKey("batch-1"), state -> true);

      rig.mock().client().pods().inNamespace(rig.namespace()).withName("batch-1").delete();

      await()
          .atMost(ConnectorRig.WAIT)
          .untilAsserted(
              () -> assertThat(pods.last(podKey("batch-1"))).get().matches(Entry::isTombstone));
    }
  }

  @Test
  void anElasticQuotaBecomesAGroupSpecAndItsDeleteATombstone() {
    startSource();
    final String name = MockCluster.uniqueNamespace("team");
    rig.mock()
        .quotas()
        .resource(
            quota(rig.namespace(), name)
                .min("cpu", "10")
                .max("cpu", "20")
                .max("memory", "40Gi")
                .parent("dept-a")
                .annotation(QuotaLabels.NAMESPACES, "[\"" + rig.namespace() + "\"]")
                .annotation(QuotaLabels.SHARED_WEIGHT, "{\"cpu\":\"3\"}")
                .build())
        .create();

    try (TopicReader<QuotaKey, QuotaSpec> quotas = rig.reader(rig.topics().quotas())) {
      final QuotaKey key = Keys.quota(name);
      final QuotaSpec spec = awaitValue(quotas, key, s -> true);
      assertThat(spec.getMin()).isEqualTo(Map.of("cpu", 10_000L));
      assertThat(spec.getMax()).isEqualTo(Map.of("cpu", 20_000L, "memory", 40L << 30));
      assertThat(spec.getParent()).contains("dept-a");
      assertThat(spec.getSharedWeight()).contains(Map.of("cpu", 3_000L));
      assertThat(spec.getNamespaces()).containsExactly(rig.namespace());
      assertThat(spec.getAllowLent()).isTrue();
      assertThat(spec.getProblems()).isEmpty();

      rig.mock().quotas().inNamespace(rig.namespace()).withName(name).delete();

      await()
          .atMost(ConnectorRig.WAIT)
          .untilAsserted(() -> assertThat(quotas.last(key)).get().matches(Entry::isTombstone));
    }
  }

  /**
   * Issue 24, point 2: names are cluster-wide, so a later ElasticQuota of the same name in another
   * namespace (here one that sorts first) must not shadow the group: the first created stands for
   * the name and the record names the ignored namespace.
   */
  @Test
  void aLaterNamesakeInAnotherNamespaceNeverShadowsTheFirstAndIsReported() throws Exception {
    startSource();
    final String name = MockCluster.uniqueNamespace("shadowed");
    final String first = "zz-" + name;
    final String later = "aa-" + name;
    final Instant created =
        Instant.parse(
            rig.mock()
                .quotas()
                .resource(quota(first, name).max("cpu", "20").build())
                .create()
                .getMetadata()
                .getCreationTimestamp());
    // Creation times have a resolution of one second: the later one is created in a later second.
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> Instant.now().truncatedTo(ChronoUnit.SECONDS).isAfter(created));
    rig.mock().quotas().resource(quota(later, name).max("cpu", "1").build()).create();

    try (TopicReader<QuotaKey, QuotaSpec> quotas = rig.reader(rig.topics().quotas())) {
      final QuotaKey key = Keys.quota(name);
      final QuotaSpec spec = awaitValue(quotas, key, s -> !s.getIgnoredNamesakes().isEmpty());
      assertThat(spec.getNamespace()).isEqualTo(first);
      assertThat(spec.getMax()).isEqualTo(Map.of("cpu", 20_000L));
      assertThat(spec.getIgnoredNamesakes()).containsExactly(later);

      rig.mock().quotas().inNamespace(later).withName(name).delete();

      final QuotaSpec alone = awaitValue(quotas, key, s -> s.getIgnoredNamesakes().isEmpty());
      assertThat(alone.getNamespace()).isEqualTo(first);
    }
  }

  /**
   * Issue 24: quotaflow.io/namespace-selector binds the namespaces whose labels it matches; the
   * record carries them, and relabelling a namespace publishes the group again.
   */
  @Test
  void aNamespaceSelectorsNamespacesFollowTheNamespacesLabels() {
    final String team = MockCluster.uniqueNamespace("nlp");
    final String dev = team + "-dev";
    final String other = team + "-other";
    labelNamespace(dev, team);
    labelNamespace(other, "someone-else");
    startSource();
    final String name = MockCluster.uniqueNamespace("selecting");
    rig.mock()
        .quotas()
        .resource(
            quota(rig.namespace(), name)
                .max("cpu", "20")
                .annotation(
                    QuotaLabels.NAMESPACE_SELECTOR,
                    "{\"matchLabels\": {\"team\": \"" + team + "\"}}")
                .build())
        .create();

    try (TopicReader<QuotaKey, QuotaSpec> quotas = rig.reader(rig.topics().quotas())) {
      final QuotaKey key = Keys.quota(name);
      final QuotaSpec spec = awaitValue(quotas, key, s -> !s.getSelectedNamespaces().isEmpty());
      assertThat(spec.getSelectedNamespaces()).containsExactly(dev);
      assertThat(spec.getProblems()).isEmpty();

      labelNamespace(other, team);

      final QuotaSpec both = awaitValue(quotas, key, s -> s.getSelectedNamespaces().size() == 2);
      assertThat(both.getSelectedNamespaces()).containsExactly(dev, other);
    }
  }

  private static void labelNamespace(final String name, final String team) {
    rig.mock()
        .client()
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("team", team)
                .endMetadata()
                .build())
        .createOr(existing -> existing.update());
  }

  @Test
  void anElasticQuotaProfileItsChangeAndItsDeleteReachProfilesOnTheClustersPartition() {
    startSource();
    final String name = MockCluster.uniqueNamespace("pool");
    rig.mock()
        .profiles()
        .resource(
            profile(rig.namespace(), name)
                .quotaName("gpu-root")
                .resourceRatio("0.9")
                .nodeLabel("quotaflow.io/pool", "gpu")
                .build())
        .create();

    try (TopicReader<ProfileKey, QuotaProfileSpec> profiles = rig.reader(rig.topics().profiles())) {
      final ProfileKey key = Keys.profile(name);
      final QuotaProfileSpec spec = awaitValue(profiles, key, s -> true);
      assertThat(spec.getTreeId()).isEqualTo(name);
      assertThat(spec.getQuotaName()).isEqualTo("gpu-root");
      assertThat(spec.getResourceRatio()).contains("0.9");
      assertThat(spec.getNodeSelector().getMatchLabels())
          .isEqualTo(Map.of("quotaflow.io/pool", "gpu"));
      assertThat(spec.getProblems()).isEmpty();

      rig.mock()
          .profiles()
          .inNamespace(rig.namespace())
          .withName(name)
          .edit(p -> withSpec(p, "resourceRatio", "0.5"));

      final QuotaProfileSpec changed =
          awaitValue(profiles, key, s -> s.getResourceRatio().filter("0.5"::equals).isPresent());
      assertThat(changed.getQuotaName()).isEqualTo("gpu-root");

      rig.mock().profiles().inNamespace(rig.namespace()).withName(name).delete();

      await()
          .atMost(ConnectorRig.WAIT)
          .untilAsserted(() -> assertThat(profiles.last(key)).get().matches(Entry::isTombstone));
      assertThat(profiles.read(key::equals))
          .as("every record of the profile, on the cluster's partition")
          .hasSizeGreaterThanOrEqualTo(3)
          .extracting(Entry::partition)
          .containsOnly(ClusterPartitioner.partitionOf("east", TestTopics.PARTITIONS));
    }
  }

  @Test
  void aMalformedElasticQuotaIsPublishedWithItsProblemsMarked() {
    startSource();
    final String name = MockCluster.uniqueNamespace("broken");
    rig.mock()
        .quotas()
        .resource(
            quota(rig.namespace(), name)
                .min("cpu", "ten")
                .max("cpu", "20")
                .annotation(QuotaLabels.SHARED_WEIGHT, "{not json")
                .build())
        .create();

    try (TopicReader<QuotaKey, QuotaSpec> quotas = rig.reader(rig.topics().quotas())) {
      final QuotaKey key = Keys.quota(name);
      final QuotaSpec spec = awaitValue(quotas, key, s -> true);

      assertThat(spec.getMax()).isEqualTo(Map.of("cpu", 20_000L));
      assertThat(spec.getMin()).isEmpty();
      assertThat(spec.getSharedWeight()).isEmpty();
      assertThat(spec.getProblems())
          .extracting(problem -> problem.getField())
          .containsExactlyInAnyOrder(
              "spec.min[cpu]", "metadata.annotations[" + QuotaLabels.SHARED_WEIGHT + "]");
      assertThat(
              rig.registry().get(SourceMetrics.MALFORMED).tag("kind", "quotas").counter().count())
          .isGreaterThanOrEqualTo(1.0);
    }
  }

  @Test
  void aNodeBecomesItsAllocatableAndReadinessAndCordoningIsSeen() {
    startSource();
    final String name = MockCluster.uniqueNamespace("node");
    rig.mock()
        .client()
        .resource(node(name).allocatable("cpu", "8").allocatable("memory", "32Gi").build())
        .create();

    try (TopicReader<NodeKey, NodeState> nodes = rig.reader(rig.topics().nodes())) {
      final NodeKey key = NodeKey.newBuilder().setCluster("east").setName(name).build();
      final NodeState state = awaitValue(nodes, key, s -> true);
      assertThat(state.getAllocatable()).isEqualTo(Map.of("cpu", 8_000L, "memory", 32L << 30));
      assertThat(state.getReady()).isTrue();
      assertThat(state.getSchedulable()).isTrue();

      rig.mock().client().nodes().withName(name).edit(n -> cordoned(n));

      assertThat(awaitValue(nodes, key, s -> !s.getSchedulable()).getSchedulable()).isFalse();

      rig.mock().client().nodes().withName(name).delete();
      await()
          .atMost(ConnectorRig.WAIT)
          .untilAsserted(() -> assertThat(nodes.last(key)).get().matches(Entry::isTombstone));
    }
  }

  @Test
  void aPodDeletedWhileTheSourceWasStoppedGetsItsTombstoneOnRestart() {
    startSource();
    rig.mock().client().resource(pod(rig.namespace(), "stays").build()).create();
    rig.mock().client().resource(pod(rig.namespace(), "goes").build()).create();

    try (TopicReader<PodKey, PodState> pods = rig.reader(rig.topics().pods())) {
      awaitValue(pods, podKey("stays"), state -> true);
      awaitValue(pods, podKey("goes"), state -> true);
      source.close();

      rig.mock().client().pods().inNamespace(rig.namespace()).withName("goes").delete();
      startSource();

      await()
          .atMost(ConnectorRig.WAIT)
          .untilAsserted(
              () -> assertThat(pods.last(podKey("goes"))).get().matches(Entry::isTombstone));
      // The restart's snapshot writes every pod once more, so that a reader can drop the pods a
      // snapshot does not re-send; exactly once, not at every event.
      assertThat(pods.read(podKey("stays")::equals))
          .as("an unchanged pod is written once by the restart's snapshot")
          .hasSize(2);
    }
  }

  @Test
  void aKeyTheClusterNoLongerHasIsTombstonedByReconciliation() {
    startSource();
    rig.mock().client().resource(pod(rig.namespace(), "kept").build()).create();

    try (TopicReader<PodKey, PodState> pods = rig.reader(rig.topics().pods())) {
      final PodState kept = awaitValue(pods, podKey("kept"), state -> true);
      // A record the source never saw deleted, as if written before a watch broke.
      writeStray(podKey("ghost"), kept);
      source.close();
      startSource();

      await()
          .atMost(ConnectorRig.WAIT)
          .untilAsserted(
              () -> assertThat(pods.last(podKey("ghost"))).get().matches(Entry::isTombstone));
    }
  }

  /**
   * Issue 26: a watch that cannot reach its API server keeps trying, and how long it has been down
   * shows in the gauge the connectors' readiness reads, instead of going quiet.
   */
  @Test
  void aWatchThatLosesItsApiServerShowsHowLongItHasBeenDown() {
    final MockCluster lonely = MockCluster.start("lonely");
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (KubeSource own =
        new KubeSource(
            List.of(lonely.cluster()),
            rig.topics(),
            rig.kafka(),
            new SourceSettings(Duration.ofMinutes(10), Duration.ofMinutes(10), ConnectorRig.WAIT),
            registry)) {
      own.start().orTimeout(ConnectorRig.WAIT.toSeconds(), TimeUnit.SECONDS).join();
      assertThat(watchDown(registry, "lonely", "pods")).isZero();

      lonely.server().destroy();

      await()
          .atMost(ConnectorRig.WAIT)
          .untilAsserted(() -> assertThat(watchDown(registry, "lonely", "pods")).isPositive());
    } finally {
      lonely.client().close();
    }
  }

  /**
   * Issue 26: the source tells the eviction executor when a decision may rest on inputs that missed
   * changes: while the watch is down, and afterwards for every decision taken before the snapshot
   * that followed the watch's return.
   */
  @Test
  void decisionsTakenBeforeTheWatchWasLostAreStaleOnceItIsBack() {
    final MockCluster gapped = MockCluster.start("gapped");
    MockCluster back = null;
    try (KubeSource own =
        new KubeSource(
            List.of(gapped.cluster()),
            rig.topics(),
            rig.kafka(),
            new SourceSettings(Duration.ofMinutes(10), Duration.ofMinutes(10), ConnectorRig.WAIT)
                .withHeartbeatInterval(Duration.ofMillis(200)),
            new SimpleMeterRegistry())) {
      own.start().orTimeout(ConnectorRig.WAIT.toSeconds(), TimeUnit.SECONDS).join();
      final Instant decided = Instant.now();
      assertThat(own.staleness("gapped", decided)).isEmpty();
      assertThat(own.staleness("elsewhere", decided)).isEmpty();

      gapped.server().destroy();
      await()
          .atMost(ConnectorRig.WAIT)
          .untilAsserted(
              () ->
                  assertThat(own.staleness("gapped", Instant.now()))
                      .hasValueSatisfying(why -> assertThat(why).contains("is down")));

      back = gapped.comeBackOnSamePort();
      await()
          .atMost(ConnectorRig.WAIT)
          .untilAsserted(() -> assertThat(own.staleness("gapped", Instant.now())).isEmpty());
      assertThat(own.staleness("gapped", decided))
          .hasValueSatisfying(why -> assertThat(why).contains("before the relist"));
    } finally {
      gapped.client().close();
      if (back != null) {
        back.close();
      }
    }
  }

  private static double watchDown(
      final SimpleMeterRegistry registry, final String cluster, final String kind) {
    return registry
        .get(KubeSource.WATCH_DOWN)
        .tag("cluster", cluster)
        .tag("kind", kind)
        .gauge()
        .value();
  }

  private void startSource() {
    source =
        new KubeSource(
            List.of(rig.mock().cluster()),
            rig.topics(),
            rig.kafka(),
            new SourceSettings(Duration.ofMinutes(10), Duration.ofMinutes(10), ConnectorRig.WAIT),
            rig.registry());
    source.start().orTimeout(ConnectorRig.WAIT.toSeconds(), TimeUnit.SECONDS).join();
  }

  private void writeStray(final PodKey key, final PodState value) {
    rig.send(rig.topics().pods(), key, value);
  }

  private PodKey podKey(final String name) {
    return Keys.pod(rig.namespace(), name);
  }

  private double unchanged(final String kind) {
    return rig.registry().get(SourceMetrics.UNCHANGED).tag("kind", kind).counter().count();
  }

  private static <K, V> V awaitValue(
      final TopicReader<K, V> reader, final K key, final Predicate<V> condition) {
    return await()
        .atMost(ConnectorRig.WAIT)
        .until(() -> reader.last(key).flatMap(Entry::value).filter(condition), Optional::isPresent)
        .orElseThrow();
  }

  private static Pod edited(final Pod pod, final String node) {
    pod.getSpec().setNodeName(node);
    pod.getStatus().setPhase("Running");
    return pod;
  }

  private static Pod withLabel(final Pod pod, final String key, final String value) {
    pod.getMetadata().getLabels().put(key, value);
    return pod;
  }

  @SuppressWarnings("unchecked")
  private static GenericKubernetesResource withSpec(
      final GenericKubernetesResource resource, final String field, final Object value) {
    ((Map<String, Object>) resource.getAdditionalProperties().get("spec")).put(field, value);
    return resource;
  }

  private static Node cordoned(final Node node) {
    node.getSpec().setUnschedulable(true);
    return node;
  }
}
