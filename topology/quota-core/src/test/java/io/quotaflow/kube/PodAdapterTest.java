package io.quotaflow.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PodAdapterTest {

  private static final long GI = 1L << 30;

  @Test
  void requestIsTheSumOfTheContainersRequests() {
    final QuotaPod pod =
        adapt(
            pod()
                .withContainers(
                    container("app", requests("cpu", "1500m", "memory", "2Gi")),
                    container("sidecar", requests("cpu", "250m", "memory", "256Mi"))));

    assertThat(pod.request())
        .isEqualTo(ResourceList.of("cpu", 1750, "memory", 2 * GI + 256L * 1024 * 1024));
    assertThat(pod.problems()).isEmpty();
  }

  @Test
  void largestInitContainerWinsPerDimensionOverTheSumOfContainers() {
    final QuotaPod pod =
        adapt(
            pod()
                .withInitContainers(
                    container("fetch", requests("cpu", "2", "memory", "1Gi")),
                    container("migrate", requests("cpu", "500m", "memory", "3Gi")))
                .withContainers(
                    container("a", requests("cpu", "1", "memory", "1Gi")),
                    container("b", requests("cpu", "500m", "memory", "1Gi"))));

    // cpu: max(1.5, 2) = 2; memory: max(2Gi, 3Gi) = 3Gi.
    assertThat(pod.request()).isEqualTo(ResourceList.of("cpu", 2000, "memory", 3 * GI));
  }

  @Test
  void overheadIsAddedOnTopOfTheLargerOfContainersAndInitContainers() {
    final QuotaPod pod =
        adapt(
            pod()
                .withInitContainers(container("init", requests("cpu", "2")))
                .withContainers(container("app", requests("cpu", "1", "memory", "1Gi")))
                .withOverhead(quantities("cpu", "250m", "memory", "120Mi")));

    assertThat(pod.request())
        .isEqualTo(ResourceList.of("cpu", 2250, "memory", GI + 120L * 1024 * 1024));
  }

  @Test
  void aDimensionWithOnlyALimitTakesTheLimitAsItsRequest() {
    final QuotaPod pod =
        adapt(
            pod()
                .withContainers(
                    container(
                        "app",
                        new ResourceRequirementsBuilder()
                            .withRequests(quantities("cpu", "500m"))
                            .withLimits(
                                quantities("cpu", "2", "memory", "4Gi", "nvidia.com/gpu", "1"))
                            .build())));

    assertThat(pod.request())
        .isEqualTo(ResourceList.of("cpu", 500, "memory", 4 * GI, "nvidia.com/gpu", 1));
  }

  @Test
  void sidecarsRunBesideTheContainersAndTheLaterInitContainers() {
    final Container sidecar =
        new ContainerBuilder(container("proxy", requests("cpu", "1")))
            .withRestartPolicy("Always")
            .build();
    final QuotaPod pod =
        adapt(
            pod()
                .withInitContainers(sidecar, container("warmup", requests("cpu", "3")))
                .withContainers(container("app", requests("cpu", "1"))));

    // containers + sidecar = 2; warmup runs beside the sidecar: 3 + 1 = 4.
    assertThat(pod.request()).isEqualTo(ResourceList.of("cpu", 4000));
  }

  @Test
  void podLevelResourcesReplaceTheContainersAggregateForTheDimensionsTheySet() {
    final QuotaPod pod =
        adapt(
            pod()
                .withContainers(container("app", requests("cpu", "1", "memory", "1Gi")))
                .withResources(requests("cpu", "3"))
                .withOverhead(quantities("cpu", "100m")));

    assertThat(pod.request()).isEqualTo(ResourceList.of("cpu", 3100, "memory", GI));
  }

  @Test
  void anUnreadableQuantityIsAProblemNamingTheFieldAndItsDimensionIsLeftOut() {
    final QuotaPod pod =
        adapt(
            pod()
                .withContainers(
                    container("a", requests("cpu", "1", "memory", "1Gi")),
                    container("b", requests("cpu", "lots", "memory", "1Gi"))));

    assertThat(pod.request()).isEqualTo(ResourceList.of("memory", 2 * GI));
    assertThat(pod.problems())
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.field()).isEqualTo("spec.containers[1].resources.requests[cpu]");
              assertThat(problem.reason()).contains("\"lots\" is not a valid quantity");
            });
  }

  @Test
  void anUnreadableOverheadLeavesItsDimensionOut() {
    final QuotaPod pod =
        adapt(
            pod()
                .withContainers(container("a", requests("cpu", "1", "memory", "1Gi")))
                .withOverhead(quantities("memory", "1Qi")));

    assertThat(pod.request()).isEqualTo(ResourceList.of("cpu", 1000));
    assertThat(pod.problems())
        .extracting(SpecProblem::field)
        .containsExactly("spec.overhead[memory]");
  }

  @Test
  void anUnreadableLimitIsIgnoredForTheRequestWhenTheRequestIsSet() {
    final QuotaPod pod =
        adapt(
            pod()
                .withContainers(
                    container(
                        "a",
                        new ResourceRequirementsBuilder()
                            .withRequests(quantities("cpu", "1"))
                            .withLimits(quantities("cpu", "x1"))
                            .build())));

    assertThat(pod.request()).isEqualTo(ResourceList.of("cpu", 1000));
    assertThat(pod.problems())
        .extracting(SpecProblem::field)
        .containsExactly("spec.containers[0].resources.limits[cpu]");
  }

  @Test
  void aTooLargeQuantityIsAProblem() {
    final QuotaPod pod =
        adapt(pod().withContainers(container("a", requests("cpu", "9223372036854776"))));

    assertThat(pod.request()).isEqualTo(ResourceList.empty());
    assertThat(pod.problems())
        .singleElement()
        .satisfies(problem -> assertThat(problem.reason()).contains("does not fit"));
  }

  @Test
  void readsIdentityPriorityNodeAndQuotaLabel() {
    final QuotaPod pod =
        PodAdapter.toQuotaPod(
            new PodBuilder()
                .withNewMetadata()
                .withNamespace("ml")
                .withName("train-1")
                .withUid("0b5c")
                .withLabels(Map.of(QuotaLabels.QUOTA_NAME, "team-a"))
                .endMetadata()
                .withNewSpec()
                .withPriority(1000)
                .withNodeName("node-1")
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .endStatus()
                .build());

    assertThat(pod.ref()).isEqualTo(new PodRef("ml", "train-1"));
    assertThat(pod.uid()).isEqualTo("0b5c");
    assertThat(pod.quotaName()).contains("team-a");
    assertThat(pod.priority()).isEqualTo(1000);
    assertThat(pod.nodeName()).contains("node-1");
    assertThat(pod.isBound()).isTrue();
    assertThat(pod.phase()).isEqualTo(PodPhase.RUNNING);
    assertThat(pod.preemptible()).isTrue();
  }

  @Test
  void aBarePodIsAPendingUnboundPreemptiblePodOfPriorityZeroInTheDefaultNamespace() {
    final QuotaPod pod =
        PodAdapter.toQuotaPod(
            new PodBuilder().withNewMetadata().withName("p").endMetadata().build());

    assertThat(pod.ref()).isEqualTo(new PodRef("default", "p"));
    assertThat(pod.uid()).isEmpty();
    assertThat(pod.quotaName()).isEmpty();
    assertThat(pod.priority()).isZero();
    assertThat(pod.nodeName()).isEmpty();
    assertThat(pod.phase()).isEqualTo(PodPhase.PENDING);
    assertThat(pod.preemptible()).isTrue();
    assertThat(pod.request()).isEqualTo(ResourceList.empty());
    assertThat(pod.creationTime()).isEqualTo(Instant.EPOCH);
    assertThat(pod.startTime()).isEmpty();
    assertThat(pod.deletionTime()).isEmpty();
    assertThat(pod.problems()).isEmpty();
  }

  @Test
  void emptyQuotaLabelAndEmptyNodeNameCountAsUnset() {
    final QuotaPod pod =
        adapt(
            new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withLabels(Map.of(QuotaLabels.QUOTA_NAME, ""))
                .endMetadata()
                .withNewSpec()
                .withNodeName("")
                .endSpec()
                .build());

    assertThat(pod.quotaName()).isEmpty();
    assertThat(pod.isBound()).isFalse();
  }

  @ParameterizedTest(name = "preemptible label \"{0}\" -> preemptible {1}")
  @CsvSource({"false, false", "true, true", "False, true", "no, true", "'', true"})
  void onlyTheLiteralFalseMakesAPodNonPreemptible(String label, boolean preemptible) {
    final QuotaPod pod =
        PodAdapter.toQuotaPod(
            new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withLabels(Map.of(QuotaLabels.PREEMPTIBLE, label))
                .endMetadata()
                .build());

    assertThat(pod.preemptible()).isEqualTo(preemptible);
  }

  @ParameterizedTest(name = "phase {0} -> {1}")
  @CsvSource({
    "Pending, PENDING",
    "Running, RUNNING",
    "Succeeded, SUCCEEDED",
    "Failed, FAILED",
    "Unknown, UNKNOWN",
    "Hibernating, UNKNOWN"
  })
  void mapsThePhase(String phase, PodPhase expected) {
    final QuotaPod pod =
        PodAdapter.toQuotaPod(
            new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .endMetadata()
                .withNewStatus()
                .withPhase(phase)
                .endStatus()
                .build());

    assertThat(pod.phase()).isEqualTo(expected);
  }

  @Test
  void readsCreationStartAndDeletionTimes() {
    final QuotaPod pod =
        PodAdapter.toQuotaPod(
            new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withCreationTimestamp("2024-05-01T10:00:00Z")
                .withDeletionTimestamp("2024-05-01T12:00:00+02:00")
                .endMetadata()
                .withNewStatus()
                .withStartTime("2024-05-01T10:00:05.250Z")
                .endStatus()
                .build());

    assertThat(pod.creationTime()).isEqualTo(Instant.parse("2024-05-01T10:00:00Z"));
    assertThat(pod.startTime()).contains(Instant.parse("2024-05-01T10:00:05.250Z"));
    assertThat(pod.deletionTime()).contains(Instant.parse("2024-05-01T10:00:00Z"));
  }

  @Test
  void anUnreadableTimestampIsAProblem() {
    final QuotaPod pod =
        PodAdapter.toQuotaPod(
            new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withCreationTimestamp("yesterday")
                .endMetadata()
                .build());

    assertThat(pod.creationTime()).isEqualTo(Instant.EPOCH);
    assertThat(pod.problems())
        .containsExactly(
            new SpecProblem(
                "metadata.creationTimestamp", "\"yesterday\" is not an RFC 3339 timestamp"));
  }

  @Test
  void aPodWithoutANameIsAProblem() {
    final QuotaPod pod = PodAdapter.toQuotaPod(new PodBuilder().build());

    assertThat(pod.problems()).extracting(SpecProblem::field).containsExactly("metadata.name");
  }

  // Fixtures.

  private static PodSpecBuilder pod() {
    return new PodSpecBuilder();
  }

  private static QuotaPod adapt(PodSpecBuilder spec) {
    return adapt(
        new PodBuilder()
            .withNewMetadata()
            .withNamespace("ns")
            .withName("p")
            .endMetadata()
            .withSpec(spec.build())
            .build());
  }

  private static QuotaPod adapt(Pod pod) {
    return PodAdapter.toQuotaPod(pod);
  }

  private static Container container(String name, ResourceRequirements resources) {
    return new ContainerBuilder().withName(name).withResources(resources).build();
  }

  private static ResourceRequirements requests(String... pairs) {
    return new ResourceRequirementsBuilder().withRequests(quantities(pairs)).build();
  }

  static Map<String, Quantity> quantities(String... pairs) {
    final Map<String, Quantity> result = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      result.put(pairs[i], new Quantity(pairs[i + 1]));
    }
    return result;
  }
}
