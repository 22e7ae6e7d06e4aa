package io.quotaflow.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** {@link InFlight#of} holds what adding each hold in turn holds, a pod repeated included. */
class InFlightOfProperties {

  private static final List<String> GROUPS = List.of("a", "b", "parent", "root-child");

  @Property(tries = 300)
  void ofIsPlusOfEachInTurn(@ForAll long seed) {
    final Random random = new Random(seed);
    final List<InFlight.Hold> holds = new ArrayList<>();
    final int count = random.nextInt(6);
    for (int i = 0; i < count; i++) {
      final List<String> groups = new ArrayList<>();
      groups.add(GROUPS.get(random.nextInt(2)));
      if (random.nextBoolean()) {
        groups.add("parent");
      }
      holds.add(
          new InFlight.Hold(
              new PodRef("ns", "p" + random.nextInt(4)),
              groups,
              random.nextBoolean()
                  ? ResourceList.of("cpu", 1 + random.nextInt(3) * 500L)
                  : ResourceList.of(
                      "cpu", random.nextLong(), "memory", 1 + (random.nextInt(5) << 20)),
              random.nextBoolean()));
    }
    InFlight folded = InFlight.empty();
    for (final InFlight.Hold hold : holds) {
      folded = folded.plus(hold);
    }

    final InFlight of = InFlight.of(holds);

    assertThat(of.holds()).isEqualTo(folded.holds());
    assertThat(of.isEmpty()).isEqualTo(folded.isEmpty());
    for (final String group : GROUPS) {
      assertThat(of.at(group)).isEqualTo(folded.at(group));
      assertThat(of.nonPreemptibleAt(group)).isEqualTo(folded.nonPreemptibleAt(group));
    }
  }
}
