package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The renumbering of group slots into tree order, and how it moves and rewrites arrays. */
class SlotPermutationTest {

  private static final boolean[] PRESENT = {true, true, true, true, true, false, true, true};

  @Test
  void treeOrderKeepsTheFixedSlotsThenFollowsTheTreeThenTheGroupsOutsideItThenFreeSlots() {
    // Breadth first: root 0, its children 2, 7, 1, 4; then 4's child 3. Slot 6 is outside.
    final int[] order = {0, 2, 7, 1, 4, 3};
    final int[] unattached = {6};

    final SlotPermutation p = SlotPermutation.treeOrder(order, unattached, PRESENT, 8);

    assertThat(p).isNotNull();
    assertThat(new int[] {p.target(0), p.target(1), p.target(2)}).containsExactly(0, 1, 2);
    assertThat(new int[] {p.target(7), p.target(4), p.target(3)}).containsExactly(3, 4, 5);
    assertThat(p.target(6)).isEqualTo(6);
    assertThat(p.target(5)).as("the free slot goes last").isEqualTo(7);
    assertThat(p.target(-1)).as("no slot stays no slot").isEqualTo(-1);
    assertThat(p.target(9)).as("slots past the permutation stay put").isEqualTo(9);
  }

  @Test
  void treeOrderIsNullWhenEverySlotIsAlreadyInPlace() {
    final int[] order = {0, 1, 2, 3, 4};
    final boolean[] present = {true, true, true, true, true};

    assertThat(SlotPermutation.treeOrder(order, new int[0], present, 5)).isNull();
  }

  @Test
  void moveCarriesEachValueToItsSlotsTargetAndLeavesTheTailAlone() {
    final SlotPermutation p = new SlotPermutation(new int[] {0, 2, 3, 1});
    final long[] longs = {10, 11, 12, 13, 14};
    final String[] names = {"a", "b", "c", "d", "e"};
    final boolean[] flags = {false, true, false, false, true};

    p.move(longs);
    p.move(names);
    p.move(flags);

    assertThat(longs).containsExactly(10, 13, 11, 12, 14);
    assertThat(names).containsExactly("a", "d", "b", "c", "e");
    assertThat(flags).containsExactly(false, false, true, false, true);
  }

  @Test
  void renumberRewritesTheSlotsAnArrayHolds() {
    final SlotPermutation p = new SlotPermutation(new int[] {0, 2, 3, 1});
    final int[] children = {3, 1, -1, 7};

    assertThat(p.renumbered(children)).containsExactly(1, 2, -1, 7);
    assertThat(children).as("renumbered copies").containsExactly(3, 1, -1, 7);
  }
}
