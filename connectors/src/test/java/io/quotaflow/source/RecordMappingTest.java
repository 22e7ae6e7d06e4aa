package io.quotaflow.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.engine.convert.InputRecords;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ReservationPercentage;
import io.quotaflow.quota.ReservationPolicy;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.schemas.FieldProblem;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaSpec;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordMappingTest {

  private static final Instant CREATED = Instant.parse("2026-02-01T10:00:00Z");
  private static final Instant STARTED = Instant.parse("2026-02-01T10:00:05Z");

  @Test
  void aPodKeepsEverythingTheEngineReads() {
    final QuotaPod pod =
        QuotaPod.builder("team-a", "web-1")
            .uid("u-1")
            .quotaName("a")
            .running("node-1")
            .priority(100)
            .request(ResourceList.of("cpu", 500, "memory", 1L << 30))
            .preemptible(false)
            .creationTime(CREATED)
            .startTime(STARTED)
            .problems(List.of(new SpecProblem("spec.overhead[cpu]", "bad")))
            .build();

    final PodState state = RecordMapping.podState(pod);

    assertThat(state.getUid()).isEqualTo("u-1");
    assertThat(state.getQuotaName()).contains("a");
    assertThat(state.getPhase()).isEqualTo(io.quotaflow.schemas.PodPhase.RUNNING);
    assertThat(state.getNodeName()).contains("node-1");
    assertThat(state.getPriority()).isEqualTo(100);
    assertThat(state.getRequests()).isEqualTo(Map.of("cpu", 500L, "memory", 1L << 30));
    assertThat(state.getPreemptible()).isFalse();
    assertThat(state.getCreationTime()).isEqualTo(CREATED);
    assertThat(state.getStartTime()).contains(STARTED);
    assertThat(state.getDeletionTime()).isEmpty();
    assertThat(state.getProblems())
        .containsExactly(
            FieldProblem.newBuilder().setField("spec.overhead[cpu]").setReason("bad").build());
    assertThat(RecordMapping.podKey("east", pod).getCluster()).isEqualTo("east");
  }

  @Test
  void everyPodPhaseHasARecordPhase() {
    for (final PodPhase phase : PodPhase.values()) {
      final QuotaPod pod = QuotaPod.builder("ns", "p").phase(phase).build();

      assertThat(RecordMapping.podState(pod).getPhase().name()).isEqualTo(phase.name());
    }
  }

  @Test
  void aChildOfTheRootHasNoParentInItsRecord() {
    final QuotaSpec spec =
        RecordMapping.quotaSpec(QuotaGroup.builder("a").parent(SpecialGroups.ROOT).build());

    assertThat(spec.getParent()).isEmpty();
    assertThat(spec.getSharedWeight()).isEmpty();
    assertThat(spec.getLendingLimit()).isEmpty();
    assertThat(spec.getBorrowingLimit()).isEmpty();
  }

  @Test
  void aGroupKeepsItsSpecificationLimitsAndNamespaces() {
    final QuotaGroup group =
        QuotaGroup.builder("a")
            .parent("dept")
            .parentGroup(true)
            .min(ResourceList.of("cpu", 1_000))
            .max(ResourceList.of("cpu", 4_000))
            .sharedWeight(ResourceList.of("cpu", 2_000))
            .allowLent(false)
            .lendingLimit(ResourceList.of("cpu", 500))
            .borrowingLimit(ResourceList.of("cpu", 1_500))
            .namespaces(List.of("ns-1", "ns-2"))
            .build();

    final QuotaSpec spec = RecordMapping.quotaSpec(group);

    assertThat(spec.getParent()).contains("dept");
    assertThat(spec.getIsParent()).isTrue();
    assertThat(spec.getMin()).isEqualTo(Map.of("cpu", 1_000L));
    assertThat(spec.getMax()).isEqualTo(Map.of("cpu", 4_000L));
    assertThat(spec.getSharedWeight()).contains(Map.of("cpu", 2_000L));
    assertThat(spec.getAllowLent()).isFalse();
    assertThat(spec.getLendingLimit()).contains(Map.of("cpu", 500L));
    assertThat(spec.getBorrowingLimit()).contains(Map.of("cpu", 1_500L));
    assertThat(spec.getNamespaces()).containsExactly("ns-1", "ns-2");
    assertThat(RecordMapping.quotaKey("east", group).getName()).isEqualTo("a");
  }

  @Test
  void aGroupsReservationReachesTheEngineAsReadAndAGroupWithoutOneHasNone() {
    final ReservationSpec reservation =
        ReservationSpec.of(ReservationPolicy.GUARANTEED, ResourceList.of("cpu", 16_000))
            .withPercentage(new ReservationPercentage(new BigDecimal("0.2"), List.of("memory")));
    final QuotaGroup group = QuotaGroup.builder("a").reservation(reservation).build();

    final QuotaSpec spec = RecordMapping.quotaSpec(group);

    assertThat(InputRecords.group("a", spec).reservation()).contains(reservation);
    assertThat(RecordMapping.quotaSpec(QuotaGroup.builder("b").build()).getReservation()).isEmpty();
  }

  @Test
  void aNodeKeepsAllocatableReadinessSchedulabilityAndDeletion() {
    final NodeState state =
        RecordMapping.nodeState(
            new QuotaNode("n1", ResourceList.of("cpu", 8_000), false, false, true, List.of()));

    assertThat(state.getAllocatable()).isEqualTo(Map.of("cpu", 8_000L));
    assertThat(state.getReady()).isFalse();
    assertThat(state.getSchedulable()).isFalse();
    assertThat(state.getDeleting()).isTrue();
  }

  @Test
  void theSameGroupAlwaysMapsToTheSameBytes() {
    final QuotaGroup group =
        QuotaGroup.builder("a").max(ResourceList.of("memory", 1, "cpu", 2, "pods", 3)).build();
    final var topic = io.quotaflow.topics.TopicCatalogue.withDefaultPrefix().quotas();

    final byte[] first = topic.valueSerializer().serialize("t", RecordMapping.quotaSpec(group));
    final byte[] second =
        topic.valueSerializer().serialize("t", RecordMapping.quotaSpec(group.toBuilder().build()));

    assertThat(first).isEqualTo(second);
  }
}
