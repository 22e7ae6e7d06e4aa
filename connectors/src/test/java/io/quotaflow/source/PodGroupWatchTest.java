package io.quotaflow.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PodGroupWatchTest {

  @Test
  void autoTrueAndFalseAreReadInAnyCase() {
    assertThat(PodGroupWatch.parse("auto")).isEqualTo(PodGroupWatch.AUTO);
    assertThat(PodGroupWatch.parse(" TRUE ")).isEqualTo(PodGroupWatch.ALWAYS);
    assertThat(PodGroupWatch.parse("False")).isEqualTo(PodGroupWatch.NEVER);
  }

  @Test
  void anythingElseIsRefusedWithWhatIsExpected() {
    assertThatThrownBy(() -> PodGroupWatch.parse("yes"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected auto, true or false, got \"yes\"");
  }

  @Test
  void theSourceWatchesPodGroupsWhereServedByDefault() {
    assertThat(SourceSettings.defaults().podGroups()).isEqualTo(PodGroupWatch.AUTO);
  }
}
