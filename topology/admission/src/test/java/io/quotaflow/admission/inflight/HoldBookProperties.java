package io.quotaflow.admission.inflight;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.GangKey;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.rules.GangAdmission;
import io.quotaflow.rules.InFlight;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Predicate;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The book against a plain model (a map of pod to hold and expiry): whatever the order of renewals,
 * releases and expiries, it keeps the same holds and sums, and its expiry queue does not keep the
 * replaced entries of renewed pods.
 */
class HoldBookProperties {

  private static final List<String> CHAIN_A = List.of("team-a", "dept");
  private static final List<String> CHAIN_B = List.of("team-b", "dept");

  private record Held(InFlight.Hold hold, Instant expiresAt) {}

  @Property(tries = 200)
  void holdsWhatAPlainMapHolds(@ForAll long seed) {
    final Random random = new Random(seed);
    final HoldBook book = new HoldBook();
    final Map<PodRef, Held> model = new HashMap<>();
    long clock = 0;
    for (int step = 0; step < 400; step++) {
      final PodRef pod = new PodRef("ns", "p" + random.nextInt(12));
      final int op = random.nextInt(10);
      if (op < 6) {
        // Expiries a little out of order, as requests take their time before the book's lock.
        final Instant expiresAt = Instant.ofEpochMilli(clock + 50 + random.nextInt(10));
        final InFlight.Hold hold = hold(pod, random);
        book.add(hold, expiresAt);
        model.put(pod, new Held(hold, expiresAt));
      } else if (op < 8) {
        book.release(pod);
        model.remove(pod);
      } else {
        clock += random.nextInt(20);
        final Instant now = Instant.ofEpochMilli(clock);
        // Without markers the time to live alone decides; with them, a hold also waits until
        // the inputs the engine read reach its expiry (they lag behind now by up to 100 ms here).
        final Optional<Instant> inputsAsOf =
            random.nextBoolean()
                ? Optional.empty()
                : Optional.of(Instant.ofEpochMilli(clock - random.nextInt(100)));
        final Predicate<Held> due =
            held ->
                !held.expiresAt().isAfter(now)
                    && inputsAsOf.map(asOf -> !asOf.isBefore(held.expiresAt())).orElse(true);
        final long expected = model.values().stream().filter(due).count();
        model.values().removeIf(due);
        assertThat(book.expire(now, inputsAsOf)).isEqualTo((int) expected);
      }
      assertThat(book.size()).isEqualTo(model.size());
      for (final PodRef ref : model.keySet()) {
        assertThat(book.entry(ref)).isPresent();
        assertThat(book.entry(ref).get().hold).isEqualTo(model.get(ref).hold());
        assertThat(book.entry(ref).get().expiresAt).isEqualTo(model.get(ref).expiresAt());
      }
      for (final String group : List.of("team-a", "team-b", "dept")) {
        assertThat(book.heldAt(group)).isEqualTo(sum(model, group, false));
        assertThat(book.view(List.of(group), Optional.empty()).nonPreemptibleAt(group))
            .isEqualTo(sum(model, group, true));
      }
    }
  }

  /** A gang's hold in the model: what each member takes, how many are still to come. */
  private record GangHeld(List<String> chain, ResourceList part, int left, Instant expiresAt) {}

  /**
   * The same with gangs (docs/semantics.md section 21): members' holds counted per gang, gang holds
   * shrinking by one part per member and gone after the last, all in the same sums.
   */
  @Property(tries = 200)
  void keepsGangsAsAPlainModelDoes(@ForAll long seed) {
    final Random random = new Random(seed);
    final HoldBook book = new HoldBook();
    final Map<PodRef, Held> pods = new HashMap<>();
    final Map<PodRef, GangKey> memberOf = new HashMap<>();
    final Map<GangKey, GangHeld> gangs = new HashMap<>();
    long clock = 0;
    for (int step = 0; step < 400; step++) {
      final PodRef pod = new PodRef("ns", "p" + random.nextInt(12));
      final GangKey gang = new GangKey("ns", "g" + random.nextInt(3));
      final Instant expiresAt = Instant.ofEpochMilli(clock + 50 + random.nextInt(10));
      final int op = random.nextInt(10);
      if (op < 4) {
        final InFlight.Hold hold = hold(pod, random);
        book.addMember(hold, expiresAt, gang);
        pods.put(pod, new Held(hold, expiresAt));
        memberOf.put(pod, gang);
      } else if (op < 5) {
        final InFlight.Hold hold = hold(pod, random);
        book.add(hold, expiresAt);
        pods.put(pod, new Held(hold, expiresAt));
        memberOf.remove(pod);
      } else if (op < 6) {
        book.release(pod);
        pods.remove(pod);
        memberOf.remove(pod);
      } else if (op < 7) {
        final InFlight.Hold part = hold(gang.holdRef(), random);
        final int left = 1 + random.nextInt(4);
        book.addGang(
            gang,
            new InFlight.Hold(
                part.pod(),
                part.groups(),
                GangAdmission.times(part.request(), left),
                part.nonPreemptible()),
            part.request(),
            expiresAt);
        gangs.put(gang, new GangHeld(part.groups(), part.request(), left, expiresAt));
      } else if (op < 8) {
        book.takePart(gang);
        gangs.computeIfPresent(
            gang,
            (key, held) ->
                held.left() == 1
                    ? null
                    : new GangHeld(held.chain(), held.part(), held.left() - 1, held.expiresAt()));
      } else {
        clock += random.nextInt(20);
        final Instant now = Instant.ofEpochMilli(clock);
        book.expire(now, Optional.empty());
        pods.values().removeIf(held -> !held.expiresAt().isAfter(now));
        memberOf.keySet().retainAll(pods.keySet());
        gangs.values().removeIf(held -> !held.expiresAt().isAfter(now));
      }
      assertThat(book.size()).isEqualTo(pods.size() + gangs.size());
      for (int g = 0; g < 3; g++) {
        final GangKey key = new GangKey("ns", "g" + g);
        assertThat(book.membersHeld(key))
            .isEqualTo((int) memberOf.values().stream().filter(key::equals).count());
        assertThat(book.gangHold(key).map(entry -> entry.hold.request()))
            .isEqualTo(
                Optional.ofNullable(gangs.get(key))
                    .map(held -> GangAdmission.times(held.part(), held.left())));
      }
      for (final String group : List.of("team-a", "team-b", "dept")) {
        ResourceList expected = sum(pods, group, false);
        for (final GangHeld held : gangs.values()) {
          if (held.chain().contains(group)) {
            expected = expected.plus(GangAdmission.times(held.part(), held.left()));
          }
        }
        assertThat(book.heldAt(group)).isEqualTo(expected);
      }
    }
  }

  @Test
  void renewingTheSamePodsDoesNotGrowTheExpiryQueue() {
    final HoldBook book = new HoldBook();
    final Random random = new Random(1);
    for (int i = 0; i < 100_000; i++) {
      final PodRef pod = new PodRef("ns", "p" + i % 500);
      book.add(hold(pod, random), Instant.ofEpochMilli(30_000 + i));
    }

    assertThat(book.size()).isEqualTo(500);
    assertThat(book.queued()).isLessThanOrEqualTo(2 * 500 + 65);
    assertThat(book.expire(Instant.ofEpochMilli(30_000 + 99_999), Optional.empty())).isEqualTo(500);
    assertThat(book.queued()).isZero();
  }

  private static InFlight.Hold hold(PodRef pod, Random random) {
    return new InFlight.Hold(
        pod,
        random.nextBoolean() ? CHAIN_A : CHAIN_B,
        ResourceList.of("cpu", 1 + random.nextInt(1000), "memory", random.nextInt(3) << 20),
        random.nextInt(4) == 0);
  }

  private static ResourceList sum(Map<PodRef, Held> model, String group, boolean nonPreemptible) {
    ResourceList sum = ResourceList.empty();
    for (final Held held : model.values()) {
      final InFlight.Hold hold = held.hold();
      if (hold.groups().contains(group) && (!nonPreemptible || hold.nonPreemptible())) {
        sum = sum.plus(hold.request());
      }
    }
    return sum;
  }
}
