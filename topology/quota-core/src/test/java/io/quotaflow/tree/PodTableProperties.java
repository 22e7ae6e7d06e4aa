package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link PodTable} answers as a map from reference to entry does, through any sequence of puts and
 * removals, with references whose hashes collide (runs of linear probing, backward-shift deletion)
 * and enough of them to grow the table.
 */
class PodTableProperties {

  /** "Aa" and "BB" hash alike, so every name made of them shares one String hash code. */
  private static final List<String> SEGMENTS = List.of("Aa", "BB");

  @Property(tries = 200)
  void answersAsAMapThroughPutsAndRemovals(@ForAll("operations") final List<Integer> operations) {
    final PodTable table = new PodTable(4);
    final Map<PodRef, PodEntry> model = new HashMap<>();

    for (final int operation : operations) {
      final PodRef ref = ref(Math.abs(operation) % 96);
      if (operation >= 0) {
        final PodEntry entry = new PodEntry(pod(ref));
        final PodEntry held = table.putIfAbsent(entry);
        assertThat(held).isSameAs(model.get(ref));
        model.putIfAbsent(ref, entry);
      } else {
        assertThat(table.remove(ref)).isSameAs(model.remove(ref));
      }
      for (int i = 0; i < 96; i++) {
        assertThat(table.get(ref(i))).isSameAs(model.get(ref(i)));
      }
      assertThat(table.size()).isEqualTo(model.size());
    }
    assertThat(new HashSet<>(table.values())).isEqualTo(new HashSet<>(model.values()));
  }

  @Provide
  Arbitrary<List<Integer>> operations() {
    return Arbitraries.integers().between(-95, 95).list().ofMaxSize(300);
  }

  /**
   * 96 references: 64 in one namespace whose names all hash alike (six segments of "Aa" or "BB"),
   * 32 with ordinary names.
   */
  private static PodRef ref(final int index) {
    if (index < 64) {
      final String name =
          IntStream.range(0, 6)
              .mapToObj(bit -> SEGMENTS.get((index >> bit) & 1))
              .collect(Collectors.joining());
      return new PodRef("ns", name);
    }
    return new PodRef("ns-" + (index % 3), "pod-" + index);
  }

  private static QuotaPod pod(final PodRef ref) {
    return QuotaPod.builder(ref.namespace(), ref.name()).quotaName("team").build();
  }
}
