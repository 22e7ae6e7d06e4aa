package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.Gang;
import io.quotaflow.quota.GangKey;
import io.quotaflow.quota.GangSummary;
import io.quotaflow.quota.GangSummary.State;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaPod;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** A group's gangs as simulate, the query API and the web view show them (section 21.4). */
class GangSummariesTest {

  private static Gang gang(String name, int minMember) {
    return new Gang(name, OptionalInt.of(minMember), "koordinator");
  }

  private static QuotaPod running(String name, Gang gang) {
    return Fixtures.runningPod("g", name).gang(gang).build();
  }

  private static QuotaPod pending(String name, Gang gang) {
    return Fixtures.pod("g", name).gang(gang).build();
  }

  private static GangSummary only(List<QuotaPod> pods) {
    final List<GangSummary> gangs = GangSummaries.of(pods, QuotaOptions.DEFAULTS);
    assertThat(gangs).hasSize(1);
    return gangs.get(0);
  }

  @Test
  void aGangRunningAtLeastItsMinMemberIsRunningEvenWithMembersPending() {
    final Gang train = gang("train", 2);
    final GangSummary summary =
        only(List.of(running("t1", train), running("t2", train), pending("t3", train)));

    assertThat(summary.key()).isEqualTo(new GangKey("ns-g", "train"));
    assertThat(summary.convention()).isEqualTo("koordinator");
    assertThat(summary.minMember()).hasValue(2);
    assertThat(summary.members()).isEqualTo(3);
    assertThat(summary.running()).isEqualTo(2);
    assertThat(summary.pending()).isEqualTo(1);
    assertThat(summary.terminating()).isZero();
    assertThat(summary.state()).isEqualTo(State.RUNNING);
    assertThat(summary.membersOfMin()).isEqualTo("3/2");
  }

  @Test
  void aGangRunningFewerThanItsMinMemberIsIncomplete() {
    final Gang train = gang("train", 3);
    assertThat(only(List.of(running("t1", train), running("t2", train))).state())
        .isEqualTo(State.INCOMPLETE);
    assertThat(only(List.of(running("t1", train), pending("t2", train))).state())
        .isEqualTo(State.INCOMPLETE);
  }

  @Test
  void aGangWithNoMemberRunningIsWaitingWhileOneIsPendingAndTerminatingOtherwise() {
    final Gang train = gang("train", 2);
    final QuotaPod leaving =
        Fixtures.runningPod("g", "t2").gang(train).deletionTime(Instant.EPOCH).build();
    final GangSummary waiting = only(List.of(pending("t1", train), leaving));
    final GangSummary gone = only(List.of(leaving));

    assertThat(waiting.state()).isEqualTo(State.WAITING);
    assertThat(waiting.terminating()).isEqualTo(1);
    assertThat(waiting.running()).isZero();
    assertThat(gone.state()).isEqualTo(State.TERMINATING);
    assertThat(gone.members()).isEqualTo(1);
  }

  @Test
  void withMinMemberUnknownEveryMemberSeenIsNeededTogether() {
    final Gang unknown = new Gang("mpi", OptionalInt.empty(), "volcano");
    final GangSummary partial = only(List.of(running("m1", unknown), pending("m2", unknown)));
    final GangSummary whole = only(List.of(running("m1", unknown), running("m2", unknown)));

    assertThat(partial.minMember()).isEmpty();
    assertThat(partial.membersOfMin()).isEqualTo("2/?");
    assertThat(partial.state()).isEqualTo(State.INCOMPLETE);
    assertThat(whole.state()).isEqualTo(State.RUNNING);
  }

  @Test
  void finishedPodsAreNoMembersAndPodsWithoutAGangNoGang() {
    final Gang train = gang("train", 1);
    final QuotaPod done = Fixtures.pod("g", "t0").gang(train).phase(PodPhase.SUCCEEDED).build();
    final QuotaPod alone = Fixtures.runningPod("g", "solo").build();

    assertThat(GangSummaries.of(List.of(done, alone), QuotaOptions.DEFAULTS)).isEmpty();
    assertThat(only(List.of(done, alone, running("t1", train))).members()).isEqualTo(1);
  }

  @Test
  void aBoundPodNotYetRunningIsPendingUnderTheRunningUsedPolicy() {
    final Gang train = gang("train", 1);
    final QuotaPod bound = Fixtures.pod("g", "t1").gang(train).nodeName("node-1").build();
    final QuotaOptions runningPolicy =
        QuotaOptions.DEFAULTS.withUsedPolicy(QuotaOptions.UsedPolicy.RUNNING);

    assertThat(GangSummaries.of(List.of(bound), QuotaOptions.DEFAULTS).get(0).state())
        .isEqualTo(State.RUNNING);
    assertThat(GangSummaries.of(List.of(bound), runningPolicy).get(0).state())
        .isEqualTo(State.WAITING);
  }

  @Test
  void gangsAreOrderedByNamespaceThenNameAndTheSameNameInAnotherNamespaceIsAnotherGang() {
    final Gang b = gang("b", 1);
    final Gang a = gang("a", 1);
    final QuotaPod elsewhere = QuotaPod.builder("ns-a", "x").quotaName("g").gang(b).build();
    final List<GangSummary> gangs =
        GangSummaries.of(
            List.of(running("p1", b), running("p2", a), elsewhere), QuotaOptions.DEFAULTS);

    assertThat(gangs)
        .extracting(GangSummary::key)
        .containsExactly(
            new GangKey("ns-a", "b"), new GangKey("ns-g", "a"), new GangKey("ns-g", "b"));
  }

  @Test
  void theLargestDeclaredMinMemberAndTheFirstMembersConventionAreTheGangs() {
    final QuotaPod first =
        Fixtures.runningPod("g", "a").gang(new Gang("t", OptionalInt.of(2), "volcano")).build();
    final QuotaPod second =
        Fixtures.runningPod("g", "b").gang(new Gang("t", OptionalInt.of(4), "koordinator")).build();
    final GangSummary summary = only(List.of(second, first));

    assertThat(summary.minMember()).hasValue(4);
    assertThat(summary.convention()).isEqualTo("volcano");
    assertThat(summary.state()).isEqualTo(State.INCOMPLETE);
  }
}
