package io.quotaflow.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.rules.AdmissionCheck.PodState;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.QuotaOptions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A what-if computed ahead (the admission plugin computes it before taking its lock) gives the
 * decision of the check that computes its own, whether the in-flight admissions at the pod's group
 * are still what it was computed for or have changed since.
 */
class WhatIfAheadTest {

  static java.util.stream.Stream<NewPodAdmissionTest.RoomForANewPod> cases() {
    return NewPodAdmissionTest.roomForANewPod();
  }

  @ParameterizedTest
  @MethodSource("cases")
  void aWhatIfComputedAheadDecidesAsTheCheckDoes(NewPodAdmissionTest.RoomForANewPod room) {
    final ClusterQuotaState state = room.cluster().state();
    final QuotaOptions options = QuotaOptions.DEFAULTS.withMinScaling(state.options().minScaling());
    final List<ResourceList> holds =
        List.of(
            ResourceList.empty(),
            cpu(1),
            cpu(room.largestAdmitted()),
            cpu(3 * room.largestAdmitted() + 7));
    for (final long asked : List.of(1L, room.largestAdmitted(), room.largestAdmitted() + 1)) {
      for (final PodState pod : PodState.values()) {
        final AdmissionRequest request =
            new AdmissionRequest(
                new PodRef("ns", "new"), room.group(), cpu(asked), true, Optional.empty());
        for (final ResourceList now : holds) {
          final InFlight inFlight =
              now.isEmpty()
                  ? InFlight.empty()
                  : InFlight.empty()
                      .plus(
                          new InFlight.Hold(
                              new PodRef("ns", "held"), List.of(room.group()), now, false));
          final AdmissionDecision fresh =
              AdmissionCheck.check(request, state.whatIfInputs(), inFlight, pod, options);
          for (final ResourceList then : holds) {
            final AdmissionCheck.WhatIf ahead =
                AdmissionCheck.whatIf(request, state.whatIfInputs(), then, pod, options);

            assertThat(
                    AdmissionCheck.check(
                        request, state.whatIfInputs(), inFlight, pod, options, ahead))
                .as("%s, asked %d, %s, held %s then %s", room, asked, pod, now, then)
                .isEqualTo(fresh);
          }
        }
      }
    }
  }

  private static ResourceList cpu(long milli) {
    return ResourceList.of("cpu", milli);
  }
}
