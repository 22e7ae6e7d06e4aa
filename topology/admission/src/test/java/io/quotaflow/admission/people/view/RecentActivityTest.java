package io.quotaflow.admission.people.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RecentActivityTest {

  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private static RecentActivity.Eviction command(String id, String pod) {
    return new RecentActivity.Eviction(
        id,
        new PodRef("ns", pod),
        "g",
        "over",
        "reclaimed-after-delay",
        List.of("cpu"),
        1,
        T0,
        Optional.empty(),
        "",
        Optional.empty());
  }

  private static RecentActivity.Denial denial(String pod, String reason) {
    return new RecentActivity.Denial(
        new PodRef("ns", pod), "g", "exceeds-runtime", reason, "pod webhook", false, T0, 1);
  }

  @Test
  void keepsAtMostTheLimitNewestFirst() {
    final RecentActivity activity = new RecentActivity(2);
    activity.commandIssued("east", command("1", "p1"));
    activity.commandIssued("east", command("2", "p2"));
    activity.commandIssued("east", command("3", "p3"));

    assertThat(activity.evictions("east"))
        .extracting(RecentActivity.Eviction::commandId)
        .containsExactly("3", "2");
    assertThat(activity.evictions("west")).isEmpty();
  }

  @Test
  void anOutcomeCompletesItsCommandAndACommandReadTwiceIsKeptOnce() {
    final RecentActivity activity = new RecentActivity(5);
    activity.commandIssued("east", command("1", "p1"));
    activity.commandIssued("east", command("1", "p1"));

    activity.resultArrived("east", "1", "EVICTED", "done", T0.plusSeconds(1));
    activity.resultArrived("east", "unknown", "GONE", "", T0);

    assertThat(activity.evictions("east")).hasSize(1);
    assertThat(activity.evictions("east").get(0).outcome()).contains("EVICTED");
    assertThat(activity.evictions("east").get(0).completedAt()).contains(T0.plusSeconds(1));
  }

  @Test
  void theSameDenialAgainCountsUpAndAnotherIsAdded() {
    final RecentActivity activity = new RecentActivity(5);
    final List<String> changed = new ArrayList<>();
    activity.onChange(changed::add);

    activity.denied("east", denial("p", "too big"));
    activity.denied("east", denial("p", "too big"));
    activity.denied("east", denial("p", "other reason"));

    assertThat(activity.denials("east"))
        .extracting(RecentActivity.Denial::reason, RecentActivity.Denial::count)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("other reason", 1),
            org.assertj.core.groups.Tuple.tuple("too big", 2));
    assertThat(changed).containsExactly("east", "east", "east");
  }
}
