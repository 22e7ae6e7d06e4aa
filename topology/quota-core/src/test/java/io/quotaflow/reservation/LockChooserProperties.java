package io.quotaflow.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.ResourceList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Invariants of the choice of one reservation's nodes, exact and heuristic. */
class LockChooserProperties {

  private static LockRequest randomRequest(long seed, int n, boolean capped) {
    final Random random = new Random(seed);
    final List<ReservationCandidate> nodes = RandomReservations.candidates(random, n);
    final ResourceList total = RandomReservations.total(nodes);
    return new LockRequest(
        RandomReservations.target(random, total, 60, 3),
        nodes,
        capped ? RandomReservations.cap(random, total) : ResourceList.empty(),
        total);
  }

  @Property(tries = 400)
  void theExactSearchFindsTheBestSetBySearchingEverySubset(
      @ForAll long seed, @ForAll @IntRange(min = 0, max = 11) int n) {
    final LockRequest request = randomRequest(seed, n, true);

    final Optional<List<String>> exact = LockChooser.exact(request).map(LockChoice::nodes);

    assertThat(exact).isEqualTo(BruteForceChooser.best(request));
  }

  @Property(tries = 300)
  void aChosenSetCoversIsIrreducibleFitsTheCapAndTakesEachCandidateAtMostOnce(
      @ForAll long seed, @ForAll @IntRange(min = 0, max = 60) int n) {
    final LockRequest request = randomRequest(seed, n, true);

    for (final Optional<LockChoice> choice :
        List.of(LockChooser.choose(request), LockChooser.heuristic(request))) {
      if (choice.isEmpty()) {
        continue;
      }
      final List<String> nodes = choice.get().nodes();
      final Set<String> names = new HashSet<>();
      request.candidates().forEach(candidate -> names.add(candidate.name()));
      assertThat(names).containsAll(nodes);
      assertThat(nodes).doesNotHaveDuplicates();
      assertThat(LockChooser.irreducible(request.target(), request.candidates(), nodes)).isTrue();
      ResourceList locked = ResourceList.empty();
      for (final ReservationCandidate candidate : request.candidates()) {
        if (nodes.contains(candidate.name())) {
          locked = locked.plus(candidate.allocatable());
        }
      }
      for (final String dimension : request.capRemaining().names()) {
        assertThat(locked.get(dimension))
            .isLessThanOrEqualTo(request.capRemaining().get(dimension));
      }
    }
  }

  @Property(tries = 300)
  void withoutACapEitherWayFindsASetExactlyWhenTheCandidatesTogetherCover(
      @ForAll long seed, @ForAll @IntRange(min = 0, max = 60) int n) {
    final LockRequest request = randomRequest(seed, n, false);
    final List<String> all = request.candidates().stream().map(ReservationCandidate::name).toList();
    final boolean coverable = LockChooser.covers(request.target(), request.candidates(), all);

    assertThat(LockChooser.choose(request).isPresent()).as("choose").isEqualTo(coverable);
    assertThat(LockChooser.heuristic(request).isPresent()).as("heuristic").isEqualTo(coverable);
  }
}
