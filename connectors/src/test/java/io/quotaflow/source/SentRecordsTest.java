package io.quotaflow.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SentRecordsTest {

  private final SentRecords<String> sent = new SentRecords<>();

  @Test
  void holdsExactlyTheLastValueWritten() {
    sent.wrote("a", new byte[] {1, 2});

    assertThat(sent.holds("a", new byte[] {1, 2})).isTrue();
    assertThat(sent.holds("a", new byte[] {1, 3})).isFalse();
    assertThat(sent.holds("b", new byte[] {1, 2})).isFalse();
  }

  @Test
  void aSeededValueCountsAsHeld() {
    sent.seed(Map.of("a", new byte[] {7}));

    assertThat(sent.holds("a", new byte[] {7})).isTrue();
    assertThat(sent.keys()).containsExactly("a");
  }

  @Test
  void aTombstoneMakesTheKeyNotLive() {
    sent.wrote("a", new byte[] {1});

    sent.tombstoned("a");

    assertThat(sent.isLive("a")).isFalse();
    assertThat(sent.keys()).isEmpty();
  }

  @Test
  void aFailedValueLeavesTheKeyLiveButUnconfirmed() {
    final byte[] value = {1};
    sent.wrote("a", value);

    sent.valueFailed("a", value);

    assertThat(sent.isLive("a")).isTrue();
    assertThat(sent.isUnconfirmed("a")).isTrue();
    assertThat(sent.holds("a", new byte[] {1})).isFalse();
  }

  @Test
  void aFailureOfAnOlderValueDoesNotHideANewerOne() {
    final byte[] older = {1};
    final byte[] newer = {2};
    sent.wrote("a", older);
    sent.wrote("a", newer);

    sent.valueFailed("a", older);

    assertThat(sent.holds("a", newer)).isTrue();
  }

  @Test
  void aFailedTombstoneLeavesTheKeyToBeTombstonedAgain() {
    sent.wrote("a", new byte[] {1});
    sent.tombstoned("a");

    sent.tombstoneFailed("a");

    assertThat(sent.isLive("a")).isTrue();
    assertThat(sent.isUnconfirmed("a")).isTrue();
  }

  @Test
  void aFailedTombstoneDoesNotHideAValueWrittenAfterIt() {
    sent.tombstoned("a");
    sent.wrote("a", new byte[] {3});

    sent.tombstoneFailed("a");

    assertThat(sent.holds("a", new byte[] {3})).isTrue();
  }
}
