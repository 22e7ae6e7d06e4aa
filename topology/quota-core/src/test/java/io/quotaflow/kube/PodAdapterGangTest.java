package io.quotaflow.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.quotaflow.quota.Gang;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecProblem;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How {@link PodAdapter} reads a pod's gang through {@link GangConventions} (issue 28). */
class PodAdapterGangTest {

  private static final String POD_GROUP = "metadata.labels[scheduling.x-k8s.io/pod-group]";
  private static final String KOORD_NAME =
      "metadata.annotations[gang.scheduling.koordinator.sh/name]";
  private static final String KOORD_MIN =
      "metadata.annotations[gang.scheduling.koordinator.sh/min-available]";
  private static final String VOLCANO = "metadata.annotations[scheduling.k8s.io/group-name]";

  @Test
  void aPodWithoutAGangConventionHasNoGang() {
    final QuotaPod pod = adapt(Map.of("app", "web"), Map.of("note", "x"));

    assertThat(pod.gang()).isEmpty();
    assertThat(pod.problems()).isEmpty();
  }

  @Test
  void schedulerPluginsLabelNamesAGangWhoseMinMemberIsUnknownFromThePod() {
    final QuotaPod pod = adapt(Map.of("scheduling.x-k8s.io/pod-group", "train"), Map.of());

    assertThat(pod.gang()).contains(new Gang("train", OptionalInt.empty(), "scheduler-plugins"));
    assertThat(pod.problems()).isEmpty();
  }

  @Test
  void koordinatorAnnotationsNameAGangWithItsMinAvailable() {
    final QuotaPod pod =
        adapt(
            Map.of(),
            Map.of(
                "gang.scheduling.koordinator.sh/name", "mpi",
                "gang.scheduling.koordinator.sh/min-available", "4"));

    assertThat(pod.gang()).contains(new Gang("mpi", OptionalInt.of(4), "koordinator"));
    assertThat(pod.problems()).isEmpty();
  }

  @Test
  void koordinatorNameWithoutMinAvailableLeavesMinMemberUnknown() {
    final QuotaPod pod = adapt(Map.of(), Map.of("gang.scheduling.koordinator.sh/name", "mpi"));

    assertThat(pod.gang()).contains(new Gang("mpi", OptionalInt.empty(), "koordinator"));
    assertThat(pod.problems()).isEmpty();
  }

  @Test
  void volcanoAnnotationNamesAGangWhoseMinMemberIsUnknownFromThePod() {
    final QuotaPod pod = adapt(Map.of(), Map.of("scheduling.k8s.io/group-name", "pg-1"));

    assertThat(pod.gang()).contains(new Gang("pg-1", OptionalInt.empty(), "volcano"));
    assertThat(pod.problems()).isEmpty();
  }

  @Test
  void aBlankNameNamesNoGang() {
    final QuotaPod pod =
        adapt(
            Map.of("scheduling.x-k8s.io/pod-group", ""),
            Map.of("scheduling.k8s.io/group-name", "  "));

    assertThat(pod.gang()).isEmpty();
    assertThat(pod.problems()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"four", "2.5", "0", "-1", "99999999999"})
  void aMalformedMinAvailableIsAProblemAndLeavesMinMemberUnknown(String minAvailable) {
    final QuotaPod pod =
        adapt(
            Map.of(),
            Map.of(
                "gang.scheduling.koordinator.sh/name",
                "mpi",
                "gang.scheduling.koordinator.sh/min-available",
                minAvailable));

    assertThat(pod.gang()).contains(new Gang("mpi", OptionalInt.empty(), "koordinator"));
    assertThat(pod.problems()).extracting(SpecProblem::field).containsExactly(KOORD_MIN);
    assertThat(pod.problems().get(0).reason()).contains(minAvailable);
  }

  @Test
  void minAvailableWithoutAKoordinatorNameIsAProblemAndIgnored() {
    final QuotaPod pod =
        adapt(
            Map.of("scheduling.x-k8s.io/pod-group", "train"),
            Map.of("gang.scheduling.koordinator.sh/min-available", "3"));

    assertThat(pod.gang()).contains(new Gang("train", OptionalInt.empty(), "scheduler-plugins"));
    assertThat(pod.problems()).extracting(SpecProblem::field).containsExactly(KOORD_MIN);
  }

  @Test
  void schedulerPluginsLabelWinsOverADifferentKoordinatorNameWhichIsAProblem() {
    final QuotaPod pod =
        adapt(
            Map.of("scheduling.x-k8s.io/pod-group", "train"),
            Map.of(
                "gang.scheduling.koordinator.sh/name", "other",
                "gang.scheduling.koordinator.sh/min-available", "3"));

    // The losing convention's min-available is not the taken gang's.
    assertThat(pod.gang()).contains(new Gang("train", OptionalInt.empty(), "scheduler-plugins"));
    assertThat(pod.problems()).extracting(SpecProblem::field).containsExactly(KOORD_NAME);
    assertThat(pod.problems().get(0).reason()).contains("\"other\"", "\"train\"", POD_GROUP);
  }

  @Test
  void koordinatorNameWinsOverADifferentVolcanoNameWhichIsAProblem() {
    final QuotaPod pod =
        adapt(
            Map.of(),
            Map.of(
                "gang.scheduling.koordinator.sh/name", "mpi",
                "gang.scheduling.koordinator.sh/min-available", "2",
                "scheduling.k8s.io/group-name", "pg-1"));

    assertThat(pod.gang()).contains(new Gang("mpi", OptionalInt.of(2), "koordinator"));
    assertThat(pod.problems()).extracting(SpecProblem::field).containsExactly(VOLCANO);
  }

  @Test
  void threeDifferentNamesGiveTheFirstAndAProblemForEachOther() {
    final QuotaPod pod =
        adapt(
            Map.of("scheduling.x-k8s.io/pod-group", "a"),
            Map.of(
                "gang.scheduling.koordinator.sh/name", "b", "scheduling.k8s.io/group-name", "c"));

    assertThat(pod.gang()).contains(new Gang("a", OptionalInt.empty(), "scheduler-plugins"));
    assertThat(pod.problems()).extracting(SpecProblem::field).containsExactly(KOORD_NAME, VOLCANO);
  }

  @Test
  void theSameNameThroughSeveralConventionsIsOneGangWithKoordinatorsMinAvailable() {
    final QuotaPod pod =
        adapt(
            Map.of("scheduling.x-k8s.io/pod-group", "train"),
            Map.of(
                "gang.scheduling.koordinator.sh/name", "train",
                "gang.scheduling.koordinator.sh/min-available", "8",
                "scheduling.k8s.io/group-name", "train"));

    assertThat(pod.gang()).contains(new Gang("train", OptionalInt.of(8), "scheduler-plugins"));
    assertThat(pod.problems()).isEmpty();
  }

  @Test
  void aGangProblemDoesNotHideTheRestOfThePod() {
    final QuotaPod pod =
        adapt(
            Map.of("quota.scheduling.koordinator.sh/name", "team-a"),
            Map.of(
                "gang.scheduling.koordinator.sh/name", "mpi",
                "gang.scheduling.koordinator.sh/min-available", "x"));

    assertThat(pod.quotaName()).contains("team-a");
    assertThat(pod.gang()).isPresent();
  }

  private static QuotaPod adapt(Map<String, String> labels, Map<String, String> annotations) {
    final Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withNamespace("ns")
            .withName("p")
            .withLabels(labels)
            .withAnnotations(annotations)
            .endMetadata()
            .withNewSpec()
            .endSpec()
            .build();
    return PodAdapter.toQuotaPod(pod);
  }
}
