package io.quotaflow.source;

import static io.quotaflow.fixtures.KubeObjects.pod;
import static io.quotaflow.fixtures.KubeObjects.podGroup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.cluster.PodGroups;
import io.quotaflow.fixtures.ConnectorRig;
import io.quotaflow.fixtures.Keys;
import io.quotaflow.fixtures.KubeObjects.PodFixture;
import io.quotaflow.fixtures.TopicReader;
import io.quotaflow.fixtures.TopicReader.Entry;
import io.quotaflow.kube.PodGroupApi;
import io.quotaflow.schemas.PodGang;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 28: the source watches the PodGroup objects of the APIs a cluster serves, and writes the
 * pods of scheduler-plugins' and Volcano's gangs with their PodGroup's minMember.
 */
class PodGroupSourceIT {

  private static final String POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group";
  private static final String VOLCANO_ANNOTATION = "scheduling.k8s.io/group-name";

  // A mock per test: whether it serves the PodGroup APIs outlives a test.
  @RegisterExtension
  static final ConnectorRig rig = new ConnectorRig("podgroups").faultyMockPerTest();

  @Test
  void schedulerPluginsAndVolcanoGangsAreWrittenWithTheirPodGroupsMinMember() {
    rig.mock().servePodGroups();
    createPodGroup(PodGroupApi.SCHEDULER_PLUGINS_API_VERSION, "train", 4);
    createPodGroup(PodGroupApi.VOLCANO_API_VERSION, "mpi", 3);
    createPod(pod(rig.namespace(), "train-0").label(POD_GROUP_LABEL, "train"));
    createPod(pod(rig.namespace(), "mpi-0").annotation(VOLCANO_ANNOTATION, "mpi"));
    startSource(SourceSettings.defaults());

    try (TopicReader<PodKey, PodState> pods = rig.reader(rig.topics().pods())) {
      assertThat(awaitGang(pods, "train-0", Optional.of(4)).getConvention())
          .isEqualTo("scheduler-plugins");
      assertThat(awaitGang(pods, "mpi-0", Optional.of(3)).getConvention()).isEqualTo("volcano");
    }
  }

  @Test
  void aPodGroupCreatedAfterItsPodsWritesThemAgainWithItsMinMember() {
    rig.mock().servePodGroups();
    startSource(SourceSettings.defaults());
    createPod(pod(rig.namespace(), "w-0").label(POD_GROUP_LABEL, "late"));
    createPod(pod(rig.namespace(), "w-1").label(POD_GROUP_LABEL, "late"));

    try (TopicReader<PodKey, PodState> pods = rig.reader(rig.topics().pods())) {
      awaitGang(pods, "w-0", Optional.empty());
      awaitGang(pods, "w-1", Optional.empty());

      createPodGroup(PodGroupApi.SCHEDULER_PLUGINS_API_VERSION, "late", 2);

      awaitGang(pods, "w-0", Optional.of(2));
      awaitGang(pods, "w-1", Optional.of(2));
    }
  }

  @Test
  void aMinMemberChangeAndADeleteWriteExactlyTheGangsPodsAgain() {
    rig.mock().servePodGroups();
    createPodGroup(PodGroupApi.VOLCANO_API_VERSION, "job", 4);
    createPodGroup(PodGroupApi.VOLCANO_API_VERSION, "other", 5);
    createPod(pod(rig.namespace(), "job-0").annotation(VOLCANO_ANNOTATION, "job"));
    createPod(pod(rig.namespace(), "other-0").annotation(VOLCANO_ANNOTATION, "other"));
    startSource(SourceSettings.defaults());

    try (TopicReader<PodKey, PodState> pods = rig.reader(rig.topics().pods())) {
      awaitGang(pods, "job-0", Optional.of(4));
      awaitGang(pods, "other-0", Optional.of(5));
      final int otherWrites = pods.read(podKey("other-0")::equals).size();

      rig.mock()
          .podGroups(PodGroups.VOLCANO)
          .inNamespace(rig.namespace())
          .withName("job")
          .edit(podGroup -> withMinMember(podGroup, 6));
      awaitGang(pods, "job-0", Optional.of(6));

      rig.mock().podGroups(PodGroups.VOLCANO).inNamespace(rig.namespace()).withName("job").delete();
      awaitGang(pods, "job-0", Optional.empty());

      // The other gang's pod was not written again: its PodGroup did not change.
      assertThat(pods.read(podKey("other-0")::equals)).hasSize(otherWrites);
    }
  }

  @Test
  void aPodGroupChangeOtherThanItsMinMemberWritesNothing() {
    rig.mock().servePodGroups();
    createPodGroup(PodGroupApi.SCHEDULER_PLUGINS_API_VERSION, "steady", 2);
    createPod(pod(rig.namespace(), "s-0").label(POD_GROUP_LABEL, "steady"));
    startSource(SourceSettings.defaults());

    try (TopicReader<PodKey, PodState> pods = rig.reader(rig.topics().pods())) {
      awaitGang(pods, "s-0", Optional.of(2));
      final double unchangedBefore = unchanged();

      rig.mock()
          .podGroups(PodGroups.SCHEDULER_PLUGINS)
          .inNamespace(rig.namespace())
          .withName("steady")
          .edit(podGroup -> withMinMember(podGroup, 7));
      awaitGang(pods, "s-0", Optional.of(7));
      final int writes = pods.read(podKey("s-0")::equals).size();

      rig.mock()
          .podGroups(PodGroups.SCHEDULER_PLUGINS)
          .inNamespace(rig.namespace())
          .withName("steady")
          .edit(
              podGroup -> {
                podGroup.setAdditionalProperty("status", Map.of("phase", "Running"));
                return podGroup;
              });
      // A pod mapped again would count as unchanged; a status change maps none.
      createPod(pod(rig.namespace(), "marker").label(POD_GROUP_LABEL, "steady"));
      awaitGang(pods, "marker", Optional.of(7));
      assertThat(pods.read(podKey("s-0")::equals)).hasSize(writes);
      assertThat(unchanged()).isEqualTo(unchangedBefore);
    }
  }

  @Test
  void aClusterThatServesNoPodGroupsWatchesNoneAndIsReady() {
    // The mock's store keeps PodGroups even unserved: one is there, and must not be read. Had it
    // been, the pod's first record would carry its minMember (PodGroups list before pods).
    createPodGroup(PodGroupApi.SCHEDULER_PLUGINS_API_VERSION, "train", 4);
    createPod(pod(rig.namespace(), "train-0").label(POD_GROUP_LABEL, "train"));
    startSource(SourceSettings.defaults());

    try (TopicReader<PodKey, PodState> pods = rig.reader(rig.topics().pods())) {
      awaitGang(pods, "train-0", Optional.empty());
      assertThat(watchDown()).isZero();
      createPod(pod(rig.namespace(), "train-1").label(POD_GROUP_LABEL, "train"));
      awaitGang(pods, "train-1", Optional.empty());
    }
  }

  @Test
  void onAClusterServingOneApiAutoWatchesThatOneAndIsReady() {
    rig.mock().servePodGroups();
    rig.mock().faults().unserve("/apis/scheduling.volcano.sh/v1beta1");
    createPodGroup(PodGroupApi.SCHEDULER_PLUGINS_API_VERSION, "train", 4);
    createPod(pod(rig.namespace(), "train-0").label(POD_GROUP_LABEL, "train"));
    createPod(pod(rig.namespace(), "mpi-0").annotation(VOLCANO_ANNOTATION, "mpi"));
    startSource(SourceSettings.defaults());

    try (TopicReader<PodKey, PodState> pods = rig.reader(rig.topics().pods())) {
      awaitGang(pods, "train-0", Optional.of(4));
      awaitGang(pods, "mpi-0", Optional.empty());
      assertThat(watchDown()).isZero();
    }
  }

  @Test
  void trueWatchesAnApiTheClusterDoesNotServeAndShowsTheWatchDown() {
    rig.mock().servePodGroups();
    rig.mock().faults().unserve("/apis/scheduling.volcano.sh/v1beta1");
    final KubeSource source =
        newSource(SourceSettings.defaults().withPodGroups(PodGroupWatch.ALWAYS));
    final CompletableFuture<Void> started = source.start();

    // The Volcano informer's list is refused, and tried again: the pod watch never starts.
    await()
        .atMost(ConnectorRig.WAIT)
        .until(() -> rig.mock().faults().refused("/apis/scheduling.volcano.sh/v1beta1/") >= 2);
    // The gauge counts from its first reading while down.
    await().atMost(ConnectorRig.WAIT).until(() -> watchDown() > 0);
    assertThat(started).isNotDone();
  }

  @Test
  void offWatchesNoPodGroupEvenWhereServed() {
    rig.mock().servePodGroups();
    createPodGroup(PodGroupApi.SCHEDULER_PLUGINS_API_VERSION, "train", 4);
    createPod(pod(rig.namespace(), "train-0").label(POD_GROUP_LABEL, "train"));
    startSource(SourceSettings.defaults().withPodGroups(PodGroupWatch.NEVER));

    try (TopicReader<PodKey, PodState> pods = rig.reader(rig.topics().pods())) {
      awaitGang(pods, "train-0", Optional.empty());
      assertThat(watchDown()).isZero();
    }
  }

  @Test
  void aDiscoveryThatFailsAtStartIsAskedAgainNotTakenForNoPodGroups() {
    rig.mock().servePodGroups();
    createPodGroup(PodGroupApi.SCHEDULER_PLUGINS_API_VERSION, "train", 4);
    createPod(pod(rig.namespace(), "train-0").label(POD_GROUP_LABEL, "train"));
    rig.mock().faults().goDown();
    // A client that does not retry by itself: each refused discovery reaches the source, which
    // must ask again rather than take the APIs for absent.
    final KubernetesClient impatient =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder(rig.mock().cluster().client().getConfiguration())
                    .withRequestRetryBackoffLimit(0)
                    .build())
            .build();
    rig.closeAfterTest(impatient);
    final KubeSource source =
        newSource(new KubeCluster(rig.mock().name(), impatient), SourceSettings.defaults());
    final CompletableFuture<Void> started = source.start();

    await()
        .atMost(ConnectorRig.WAIT)
        .until(() -> rig.mock().faults().refused("/apis/scheduling.x-k8s.io/v1alpha1") >= 2);
    assertThat(started).isNotDone();
    rig.mock().faults().comeBack();

    started.orTimeout(ConnectorRig.WAIT.toSeconds(), TimeUnit.SECONDS).join();
    try (TopicReader<PodKey, PodState> pods = rig.reader(rig.topics().pods())) {
      awaitGang(pods, "train-0", Optional.of(4));
    }
  }

  private void startSource(final SourceSettings settings) {
    newSource(settings).start().orTimeout(ConnectorRig.WAIT.toSeconds(), TimeUnit.SECONDS).join();
  }

  private KubeSource newSource(final SourceSettings settings) {
    return newSource(rig.mock().cluster(), settings);
  }

  private KubeSource newSource(final KubeCluster cluster, final SourceSettings settings) {
    return rig.closeAfterTest(
        new KubeSource(
            List.of(cluster),
            rig.topics(),
            rig.kafka(),
            new SourceSettings(
                Duration.ofMinutes(10),
                Duration.ofMinutes(10),
                ConnectorRig.WAIT,
                true,
                true,
                SourceSettings.DEFAULT_HEARTBEAT_INTERVAL,
                SourceSettings.DEFAULT_SNAPSHOT_INTERVAL,
                SourceSettings.DEFAULT_RECOVERY_SNAPSHOT_REPEAT,
                settings.podGroups()),
            rig.registry()));
  }

  private static void createPodGroup(final String apiVersion, final String name, final int min) {
    final GenericKubernetesResource podGroup = podGroup(apiVersion, rig.namespace(), name, min);
    rig.mock()
        .podGroups(
            PodGroupApi.VOLCANO_API_VERSION.equals(apiVersion)
                ? PodGroups.VOLCANO
                : PodGroups.SCHEDULER_PLUGINS)
        .resource(podGroup)
        .create();
  }

  private static void createPod(final PodFixture pod) {
    rig.mock().client().resource(pod.build()).create();
  }

  @SuppressWarnings("unchecked")
  private static GenericKubernetesResource withMinMember(
      final GenericKubernetesResource podGroup, final int minMember) {
    ((Map<String, Object>) podGroup.getAdditionalProperties().get("spec"))
        .put("minMember", minMember);
    return podGroup;
  }

  /** The pod's gang as last written, once its minMember is {@code minMember}. */
  private static PodGang awaitGang(
      final TopicReader<PodKey, PodState> pods,
      final String name,
      final Optional<Integer> minMember) {
    return await()
        .atMost(ConnectorRig.WAIT)
        .until(
            () ->
                pods.last(podKey(name))
                    .flatMap(Entry::value)
                    .flatMap(PodState::getGang)
                    .filter(gang -> gang.getMinMember().equals(minMember)),
            Optional::isPresent)
        .orElseThrow();
  }

  private static PodKey podKey(final String name) {
    return Keys.pod(rig.namespace(), name);
  }

  private static double watchDown() {
    return rig.registry()
        .get(KubeSource.WATCH_DOWN)
        .tag("cluster", rig.mock().name())
        .tag("kind", "pods")
        .gauge()
        .value();
  }

  private static double unchanged() {
    return rig.registry().get(SourceMetrics.UNCHANGED).tag("kind", "pods").counter().count();
  }
}
