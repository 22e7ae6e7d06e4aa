package io.quotaflow.status;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PendingWritesTest {

  private final PendingWrites<String> pending = new PendingWrites<>();

  @Test
  void aBurstOfUpdatesToOneGroupBecomesOneWrite() {
    for (int i = 0; i < 50; i++) {
      pending.mark("team-a");
    }

    assertThat(pending.drain()).containsExactly("team-a");
  }

  @Test
  void groupsAreWrittenInTheOrderTheyFirstBecamePending() {
    pending.mark("b");
    pending.mark("a");
    pending.mark("b");
    pending.mark("c");

    assertThat(pending.drain()).containsExactly("b", "a", "c");
  }

  @Test
  void drainingLeavesNothingPending() {
    pending.mark("a");

    pending.drain();

    assertThat(pending.isEmpty()).isTrue();
    assertThat(pending.drain()).isEmpty();
  }

  @Test
  void aForgottenGroupIsNotWritten() {
    pending.mark("a");
    pending.mark("b");

    pending.forget("a");

    assertThat(pending.drain()).containsExactly("b");
  }
}
