package io.quotaflow.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WarmUpTest {
  private final WarmUp untilSteady = WarmUp.of(null);

  @Test
  void warmsUpAtLeastTheMinimumEvenWhenTheFirstRunsAgree() {
    assertThat(untilSteady.another(List.of())).isTrue();
    assertThat(untilSteady.another(List.of(40.0, 40.0, 40.0, 40.0))).isTrue();
    assertThat(untilSteady.another(List.of(40.0, 40.0, 40.0, 40.0, 40.0))).isFalse();
  }

  @Test
  void goesOnWhileTheCpuPerEventStillFallsByMoreThanTheTolerance() {
    // The series one JVM gave on two cores, then a sixth run that fell again.
    assertThat(untilSteady.another(List.of(118.2, 72.1, 56.4, 46.2, 41.7)))
        .as("41.7 is within 10 %% of 46.2")
        .isFalse();
    assertThat(untilSteady.another(List.of(118.2, 72.1, 56.4, 46.2, 41.7, 31.6))).isTrue();
    assertThat(untilSteady.another(List.of(118.2, 72.1, 56.4, 46.2, 41.7, 31.6, 30.0))).isFalse();
  }

  @Test
  void aRunSlowerThanTheOneBeforeByMoreThanTheToleranceIsNotSteadyEither() {
    assertThat(untilSteady.another(List.of(40.0, 40.0, 40.0, 40.0, 46.0))).isTrue();
  }

  @Test
  void stopsAtTheMaximum() {
    assertThat(untilSteady.another(List.of(100.0, 80.0, 60.0, 45.0, 33.0, 25.0, 19.0, 14.0)))
        .isFalse();
  }

  @Test
  void aFixedCountIsExactlyThatMany() {
    final WarmUp three = WarmUp.of(3);
    assertThat(three.another(List.of(100.0, 100.0))).isTrue();
    assertThat(three.another(List.of(100.0, 100.0, 100.0))).isFalse();
    assertThat(WarmUp.of(0).another(List.of())).isFalse();
  }
}
