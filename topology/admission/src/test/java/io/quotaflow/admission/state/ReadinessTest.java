package io.quotaflow.admission.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ReadinessTest {

  @Test
  void runningWithQueryableStoresIsReady() {
    final Readiness readiness = Readiness.of(KafkaStreams.State.RUNNING, true, Optional.empty());

    assertThat(readiness).isEqualTo(Readiness.ready("the engine is RUNNING"));
  }

  @Test
  void aRebalanceAfterStateWasLoadedStaysReadyAndSaysSo() {
    final Readiness readiness =
        Readiness.of(KafkaStreams.State.REBALANCING, true, Optional.of("may have migrated"));

    assertThat(readiness.ready()).isTrue();
    assertThat(readiness.detail()).contains("REBALANCING", "last state");
  }

  @Test
  void storesUnqueryableWhileRunningStayReadyOnceLoaded() {
    final Readiness loaded =
        Readiness.of(KafkaStreams.State.RUNNING, true, Optional.of("task 0_1 is restoring"));
    final Readiness fresh =
        Readiness.of(KafkaStreams.State.RUNNING, false, Optional.of("task 0_1 is restoring"));

    assertThat(loaded.ready()).isTrue();
    assertThat(loaded.detail()).contains("restoring", "last state");
    assertThat(fresh.ready()).isFalse();
    assertThat(fresh.detail()).contains("not queryable", "restoring");
  }

  @Test
  void noStateEverLoadedIsNotReadyEvenWhileRebalancing() {
    final Readiness readiness =
        Readiness.of(KafkaStreams.State.REBALANCING, false, Optional.empty());

    assertThat(readiness.ready()).isFalse();
    assertThat(readiness.detail()).contains("REBALANCING", "not loaded");
  }

  @ParameterizedTest
  @EnumSource(
      value = KafkaStreams.State.class,
      names = {"CREATED", "ERROR", "PENDING_ERROR", "NOT_RUNNING", "PENDING_SHUTDOWN"})
  void anEngineNotStartedStoppingOrFailedIsNotReadyWhateverItLoaded(KafkaStreams.State state) {
    final Readiness readiness = Readiness.of(state, true, Optional.empty());

    assertThat(readiness.ready()).isFalse();
    assertThat(readiness.detail()).isEqualTo("the engine is " + state);
  }
}
