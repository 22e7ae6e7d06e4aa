package io.quotaflow.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.quotaflow.engine.convert.InputRecords;
import io.quotaflow.quota.Gang;
import io.quotaflow.schemas.PodGang;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodState;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** A pod's gang (issue 28) from a fabric8 Pod to its PodState and back into the engine. */
class PodKindGangTest {

  private static final Topic<PodKey, PodState> PODS = TopicCatalogue.withDefaultPrefix().pods();
  private static final PodKind KIND = new PodKind(PODS);

  @Test
  void schedulerPluginsGangIsWrittenWithoutMinMember() {
    final PodState state = state(pod(Map.of("scheduling.x-k8s.io/pod-group", "train"), Map.of()));

    assertThat(state.getGang())
        .contains(
            PodGang.newBuilder()
                .setName("train")
                .setMinMember(null)
                .setConvention("scheduler-plugins")
                .build());
    assertThat(state.getProblems()).isEmpty();
  }

  @Test
  void koordinatorGangIsWrittenWithItsMinAvailable() {
    final PodState state =
        state(
            pod(
                Map.of(),
                Map.of(
                    "gang.scheduling.koordinator.sh/name", "mpi",
                    "gang.scheduling.koordinator.sh/min-available", "3")));

    assertThat(state.getGang())
        .contains(
            PodGang.newBuilder()
                .setName("mpi")
                .setMinMember(3)
                .setConvention("koordinator")
                .build());
  }

  @Test
  void volcanoGangIsWrittenWithoutMinMember() {
    final PodState state = state(pod(Map.of(), Map.of("scheduling.k8s.io/group-name", "pg")));

    assertThat(state.getGang())
        .contains(
            PodGang.newBuilder().setName("pg").setMinMember(null).setConvention("volcano").build());
  }

  @Test
  void aPodWithoutAGangIsWrittenWithNone() {
    assertThat(state(pod(Map.of("app", "x"), Map.of())).getGang()).isEmpty();
  }

  @Test
  void conflictingNamesAreWrittenAsTheTakenGangAndAProblem() {
    final PodState state =
        state(
            pod(
                Map.of("scheduling.x-k8s.io/pod-group", "a"),
                Map.of("scheduling.k8s.io/group-name", "b")));

    assertThat(state.getGang().map(PodGang::getName)).contains("a");
    assertThat(state.getProblems())
        .singleElement()
        .satisfies(
            problem ->
                assertThat(problem.getField())
                    .isEqualTo("metadata.annotations[scheduling.k8s.io/group-name]"));
  }

  @Test
  void theEngineReadsTheGangTheConnectorWroteThroughTheTopicsSerde() {
    final Map<Map<String, String>, Gang> expected =
        Map.of(
            Map.of(
                "gang.scheduling.koordinator.sh/name", "mpi",
                "gang.scheduling.koordinator.sh/min-available", "5"),
            new Gang("mpi", OptionalInt.of(5), "koordinator"),
            Map.of("scheduling.k8s.io/group-name", "pg"),
            new Gang("pg", OptionalInt.empty(), "volcano"));
    expected.forEach(
        (annotations, gang) -> {
          final byte[] bytes =
              PODS.valueSerializer().serialize(PODS.name(), state(pod(Map.of(), annotations)));
          final PodState read = PODS.valueDeserializer().deserialize(PODS.name(), bytes);

          assertThat(InputRecords.pod("team", "w-0", read).gang()).contains(gang);
        });
    final PodState plain = state(pod(Map.of(), Map.of()));
    assertThat(
            InputRecords.pod(
                    "team",
                    "w-0",
                    PODS.valueDeserializer()
                        .deserialize(
                            PODS.name(), PODS.valueSerializer().serialize(PODS.name(), plain)))
                .gang())
        .isEmpty();
  }

  private static PodState state(Pod pod) {
    return KIND.map("east", pod).value();
  }

  private static Pod pod(Map<String, String> labels, Map<String, String> annotations) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace("team")
        .withName("w-0")
        .withUid("u-1")
        .withCreationTimestamp("2026-02-01T10:00:00Z")
        .withLabels(labels)
        .withAnnotations(annotations)
        .endMetadata()
        .withNewSpec()
        .endSpec()
        .build();
  }
}
