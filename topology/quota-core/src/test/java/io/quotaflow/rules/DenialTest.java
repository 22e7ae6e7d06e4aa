package io.quotaflow.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.reason.Reason;
import io.quotaflow.rules.Denial.Check;
import org.junit.jupiter.api.Test;

/** A denial's message shows amounts as people write them in manifests, not canonical units. */
class DenialTest {

  private static final long GI = 1L << 30;

  @Test
  void memoryIsShownInBinaryUnits() {
    final Denial denial =
        new Denial(
            Check.RUNTIME,
            Reason.EXCEEDS_RUNTIME,
            "team-a",
            "memory",
            38 * GI,
            30 * GI,
            2 * GI,
            8 * GI,
            "");

    assertThat(denial.message())
        .isEqualTo(
            "exceeds-runtime: group team-a memory: used 30Gi + in-flight 2Gi + request 8Gi > runtime 38Gi");
  }

  @Test
  void cpuIsShownInCoresOrMillicores() {
    final Denial denial =
        new Denial(Check.NON_PREEMPTIBLE_MIN, "team-a", "cpu", 17_000, 16_000, 0, 1_500, "");

    assertThat(denial.message())
        .isEqualTo(
            "non-preemptible-over-min: group team-a cpu: used 16 + in-flight 0 + request 1500m >"
                + " min (non-preemptible) 17");
  }

  @Test
  void countedResourcesAreShownAsIntegers() {
    final Denial denial =
        new Denial(
            Check.RUNTIME, Reason.EXCEEDS_RUNTIME, "team-a", "nvidia.com/gpu", 4, 3, 0, 2, "");

    assertThat(denial.message())
        .isEqualTo(
            "exceeds-runtime: group team-a nvidia.com/gpu: used 3 + in-flight 0 + request 2 > runtime 4");
  }

  @Test
  void everyMessageStartsWithItsReasonsCode() {
    final Denial unknown = new Denial(Check.UNKNOWN_GROUP, "dept", "", 0, 0, 0, 0, "no status");
    final Denial parent = new Denial(Check.NOT_A_LEAF, "dept", "", 0, 0, 0, 0, "a parent");

    assertThat(unknown.reason()).isEqualTo(Reason.UNKNOWN_GROUP);
    assertThat(unknown.message()).isEqualTo("unknown-group: group dept: no status");
    assertThat(parent.message()).isEqualTo("parent-group: group dept: a parent");
  }

  @Test
  void aRuntimeDenialNeedsItsReasonSpelledOut() {
    assertThatThrownBy(() -> new Denial(Check.RUNTIME, "team", "cpu", 1, 1, 0, 1, ""))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
