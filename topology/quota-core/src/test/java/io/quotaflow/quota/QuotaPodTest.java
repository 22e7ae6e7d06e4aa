package io.quotaflow.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** QuotaPod's written-out equals and hashCode keep the record's meaning: every field counts. */
class QuotaPodTest {

  private static QuotaPod pod(String namespace, String name) {
    return QuotaPod.builder(namespace, name)
        .uid("uid-1")
        .quotaName("team-a")
        .nodeName("node-1")
        .phase(PodPhase.RUNNING)
        .priority(10)
        .request(ResourceList.of("cpu", 500, "memory", 1L << 30))
        .preemptible(true)
        .creationTime(Instant.ofEpochSecond(100))
        .startTime(Instant.ofEpochSecond(110))
        .deletionTime(Instant.ofEpochSecond(200))
        .problems(List.of(new SpecProblem("spec.priority", "unreadable")))
        .build();
  }

  @Test
  void podsWithEqualFieldsOfOtherInstancesAreEqualAndHashAlike() {
    final QuotaPod one = pod("ns", "web-0");
    // Other string instances, as a decoded record carries.
    final QuotaPod other = pod(new String("ns"), new String("web-0"));

    assertThat(one).isEqualTo(other).hasSameHashCodeAs(other);
    assertThat(one.toBuilder().build()).isEqualTo(one).hasSameHashCodeAs(one);
  }

  @Test
  void everyFieldTellsPodsApart() {
    final QuotaPod base = pod("ns", "web-0");
    final Map<String, UnaryOperator<QuotaPod.Builder>> changes =
        Map.ofEntries(
            Map.entry("uid", b -> b.uid("uid-2")),
            Map.entry("quotaName", b -> b.quotaName("team-b")),
            Map.entry("phase", b -> b.phase(PodPhase.PENDING)),
            Map.entry("nodeName", b -> b.nodeName("node-2")),
            Map.entry("priority", b -> b.priority(11)),
            Map.entry("request", b -> b.request(ResourceList.of("cpu", 501, "memory", 1L << 30))),
            Map.entry("preemptible", b -> b.preemptible(false)),
            Map.entry("creationTime", b -> b.creationTime(Instant.ofEpochSecond(101))),
            Map.entry("startTime", b -> b.startTime(Instant.ofEpochSecond(111))),
            Map.entry("deletionTime", b -> b.deletionTime(Instant.ofEpochSecond(201))),
            Map.entry("problems", b -> b.problems(List.of())));
    changes.forEach(
        (field, change) ->
            assertThat(change.apply(base.toBuilder()).build())
                .as(field)
                .isNotEqualTo(base)
                .satisfies(changed -> assertThat(base).as(field).isNotEqualTo(changed)));
    assertThat(pod("ns", "web-1")).as("name").isNotEqualTo(base);
    assertThat(pod("other", "web-0")).as("namespace").isNotEqualTo(base);
  }

  @Test
  void anUnsetOptionalFieldDiffersFromASetOne() {
    final QuotaPod pending = QuotaPod.builder("ns", "web-0").build();

    assertThat(pending.toBuilder().nodeName("node-1").build()).isNotEqualTo(pending);
    assertThat(pending.toBuilder().quotaName("team-a").build()).isNotEqualTo(pending);
    assertThat(pending.toBuilder().deletionTime(Instant.EPOCH).build()).isNotEqualTo(pending);
    assertThat(pending).isNotEqualTo(null).isNotEqualTo("ns/web-0");
  }
}
