package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.Gang;
import io.quotaflow.quota.GangKey;
import io.quotaflow.quota.GangSummary;
import io.quotaflow.quota.GangSummary.State;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaPod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** What a group's gang summaries promise, whatever its pods (section 21.4). */
class GangSummariesProperties {

  private static final QuotaOptions OPTIONS = QuotaOptions.DEFAULTS;
  private static final String[] PHASES = {"pending", "running", "terminating", "finished"};

  @Property(tries = 500)
  void everyUnfinishedMemberIsCountedOnceInOneGangListedByKey(@ForAll long seed) {
    final List<QuotaPod> pods = pods(new Random(seed));
    final List<GangSummary> gangs = GangSummaries.of(pods, OPTIONS);

    final Set<GangKey> expectedKeys = new TreeSet<>();
    int unfinishedMembers = 0;
    int runningMembers = 0;
    for (final QuotaPod pod : pods) {
      final Optional<GangKey> key = GangKey.of(pod);
      if (key.isPresent() && !pod.phase().isFinished()) {
        expectedKeys.add(key.get());
        unfinishedMembers++;
        if (pod.isBound() && pod.deletionTime().isEmpty()) {
          runningMembers++;
        }
      }
    }
    assertThat(gangs).extracting(GangSummary::key).containsExactlyElementsOf(expectedKeys);
    assertThat(gangs.stream().mapToInt(GangSummary::members).sum()).isEqualTo(unfinishedMembers);
    assertThat(gangs.stream().mapToInt(GangSummary::running).sum()).isEqualTo(runningMembers);
    for (final GangSummary gang : gangs) {
      assertThat(gang.members()).isPositive();
      assertThat(gang.running() + gang.pending() + gang.terminating()).isEqualTo(gang.members());
    }
  }

  @Property(tries = 300)
  void theOrderOfThePodsChangesNothing(@ForAll long seed) {
    final Random random = new Random(seed);
    final List<QuotaPod> pods = pods(random);
    final List<QuotaPod> shuffled = new ArrayList<>(pods);
    Collections.shuffle(shuffled, random);

    assertThat(GangSummaries.of(shuffled, OPTIONS)).isEqualTo(GangSummaries.of(pods, OPTIONS));
  }

  @Property(tries = 300)
  void aRunningGangStaysRunningWhenAnotherMemberStartsAndIncompleteOnlyWithAMemberRunning(
      @ForAll long seed) {
    final Random random = new Random(seed);
    final List<QuotaPod> pods = pods(random);
    for (final GangSummary gang : GangSummaries.of(pods, OPTIONS)) {
      if (gang.state() == State.INCOMPLETE) {
        assertThat(gang.running()).isPositive();
        assertThat(gang.running()).isLessThan(gang.minMember().orElse(gang.members()));
      }
      if (gang.state() != State.RUNNING) {
        continue;
      }
      final QuotaPod joining =
          QuotaPod.builder(gang.key().namespace(), "joining")
              .quotaName("g")
              .running("n")
              .gang(new Gang(gang.key().name(), gang.minMember(), gang.convention()))
              .build();
      final List<QuotaPod> more = new ArrayList<>(pods);
      more.add(joining);
      final GangSummary after =
          GangSummaries.of(more, OPTIONS).stream()
              .filter(each -> each.key().equals(gang.key()))
              .findFirst()
              .orElseThrow();
      assertThat(after.state()).isEqualTo(State.RUNNING);
      assertThat(after.running()).isEqualTo(gang.running() + 1);
    }
  }

  @Property(tries = 100)
  void podsWithoutGangsHaveNoGangs(@ForAll long seed) {
    final List<QuotaPod> pods = new ArrayList<>();
    for (final QuotaPod pod : pods(new Random(seed))) {
      if (pod.gang().isEmpty()) {
        pods.add(pod);
      }
    }
    assertThat(GangSummaries.of(pods, OPTIONS)).isEmpty();
  }

  /** Up to 30 pods in two namespaces, some in one of three gangs (gang-0 without minMember). */
  private static List<QuotaPod> pods(Random random) {
    final List<QuotaPod> pods = new ArrayList<>();
    final int count = random.nextInt(30);
    for (int i = 0; i < count; i++) {
      final QuotaPod.Builder pod =
          QuotaPod.builder(random.nextBoolean() ? "ns-a" : "ns-b", "p" + i).quotaName("g");
      switch (PHASES[random.nextInt(PHASES.length)]) {
        case "running" -> pod.running("n");
        case "terminating" -> pod.running("n").deletionTime(Instant.EPOCH);
        case "finished" -> pod.phase(PodPhase.SUCCEEDED);
        default -> pod.phase(PodPhase.PENDING);
      }
      if (random.nextInt(4) != 0) {
        final int gang = random.nextInt(3);
        final OptionalInt minMember =
            gang == 0 ? OptionalInt.empty() : OptionalInt.of(1 + random.nextInt(4));
        pod.gang(
            new Gang("gang-" + gang, minMember, random.nextBoolean() ? "volcano" : "koordinator"));
      }
      pods.add(pod.build());
    }
    return pods;
  }
}
