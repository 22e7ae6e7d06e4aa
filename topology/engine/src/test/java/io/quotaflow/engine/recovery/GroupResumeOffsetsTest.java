package io.quotaflow.engine.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A partition never committed is judged only when the reset policy starts it at its first offset.
 */
class GroupResumeOffsetsTest {
  @Test
  void kafkaStreamsDefaultStartsAPartitionNeverCommittedAtItsFirstOffset() {
    assertThat(GroupResumeOffsets.resetsToEarliest(Map.of())).isTrue();
    assertThat(GroupResumeOffsets.resetsToEarliest(Map.of("auto.offset.reset", "earliest")))
        .isTrue();
  }

  @Test
  void anotherPolicyForTheMainConsumerLeavesPartitionsNeverCommittedUnjudged() {
    assertThat(GroupResumeOffsets.resetsToEarliest(Map.of("auto.offset.reset", "latest")))
        .isFalse();
    assertThat(
            GroupResumeOffsets.resetsToEarliest(
                Map.of("consumer.auto.offset.reset", "latest", "auto.offset.reset", "earliest")))
        .isFalse();
    assertThat(
            GroupResumeOffsets.resetsToEarliest(
                Map.of(
                    "main.consumer.auto.offset.reset",
                    "earliest",
                    "consumer.auto.offset.reset",
                    "latest")))
        .isTrue();
  }
}
