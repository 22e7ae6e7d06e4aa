package io.quotaflow.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What in-flight admissions hold as they come and go. */
class InFlightTest {

  private static InFlight.Hold hold(String pod, ResourceList request) {
    return new InFlight.Hold(new PodRef("ns", pod), List.of("team", "parent"), request, true);
  }

  @Test
  void aZeroRequestOutlivingTheOthersOfItsGroupIsDroppedAndRenewed() {
    // A BestEffort pod admitted beside a pod with requests: once the other's hold goes,
    // the group's sum is all zeros and is dropped; the zero request must still come and go.
    final InFlight both =
        InFlight.empty()
            .plus(hold("web", ResourceList.of("cpu", 500)))
            .plus(hold("best-effort", ResourceList.empty()))
            .plus(hold("zero", ResourceList.of("cpu", 0)));

    final InFlight zerosLeft = both.minus(new PodRef("ns", "web"));
    assertThat(zerosLeft.at("team")).isEqualTo(ResourceList.empty());

    final InFlight renewed =
        zerosLeft
            .plus(hold("best-effort", ResourceList.empty()))
            .plus(hold("zero", ResourceList.of("cpu", 0)));
    final InFlight none =
        renewed.minus(new PodRef("ns", "best-effort")).minus(new PodRef("ns", "zero"));

    assertThat(none.isEmpty()).isTrue();
    assertThat(none.at("team")).isEqualTo(ResourceList.empty());
    assertThat(none.nonPreemptibleAt("parent")).isEqualTo(ResourceList.empty());
  }

  @Test
  void theHoldsAtAGroupAreSummed() {
    final InFlight held =
        InFlight.empty()
            .plus(hold("a", ResourceList.of("cpu", 500)))
            .plus(hold("b", ResourceList.of("cpu", 250, "memory", 1L << 30)));

    assertThat(held.at("parent")).isEqualTo(ResourceList.of("cpu", 750, "memory", 1L << 30));
    assertThat(held.minus(new PodRef("ns", "a")).at("team"))
        .isEqualTo(ResourceList.of("cpu", 250, "memory", 1L << 30));
  }
}
