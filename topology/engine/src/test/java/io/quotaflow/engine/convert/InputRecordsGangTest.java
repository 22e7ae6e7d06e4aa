package io.quotaflow.engine.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.Gang;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.schemas.PodGang;
import io.quotaflow.schemas.PodState;
import java.time.Instant;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** How the engine reads PodState's gang (issue 28) into {@link QuotaPod#gang()}. */
class InputRecordsGangTest {

  @Test
  void aGangWithMinMemberIsReadAsWritten() {
    final QuotaPod pod = InputRecords.pod("team", "w-0", state(gang("mpi", 4, "koordinator")));

    assertThat(pod.gang()).contains(new Gang("mpi", OptionalInt.of(4), "koordinator"));
  }

  @Test
  void aGangWithoutMinMemberHasItUnknown() {
    final QuotaPod pod =
        InputRecords.pod("team", "w-0", state(gang("train", null, "scheduler-plugins")));

    assertThat(pod.gang()).contains(new Gang("train", OptionalInt.empty(), "scheduler-plugins"));
  }

  @Test
  void aRecordWithoutGangHasNone() {
    assertThat(InputRecords.pod("team", "w-0", state(null)).gang()).isEmpty();
  }

  @Test
  void aRecordBreakingTheGangsRulesIsReadLenientlyRatherThanFailingThePod() {
    assertThat(InputRecords.pod("team", "w-0", state(gang("", 3, "volcano"))).gang()).isEmpty();
    assertThat(InputRecords.pod("team", "w-0", state(gang("pg", 0, "volcano"))).gang())
        .contains(new Gang("pg", OptionalInt.empty(), "volcano"));
  }

  private static PodGang gang(String name, Integer minMember, String convention) {
    return PodGang.newBuilder()
        .setName(name)
        .setMinMember(minMember)
        .setConvention(convention)
        .build();
  }

  private static PodState state(PodGang gang) {
    return PodState.newBuilder()
        .setUid("u-1")
        .setCreationTime(Instant.parse("2026-02-01T10:00:00Z"))
        .setGang(gang)
        .build();
  }
}
