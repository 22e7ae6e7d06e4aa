package io.quotaflow.eviction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which pods quotaflow never evicts, and why it says so. */
class ProtectedPodsTest {
  private final ProtectedPods defaults = ProtectedPods.DEFAULTS;

  @Test
  void kubernetesAndQuotaflowNamespacesAreProtectedByDefault() {
    assertThat(defaults.reason("kube-system", Optional.empty(), Optional.empty()))
        .hasValue("namespace kube-system is protected");
    assertThat(defaults.reason("quotaflow", Optional.empty(), Optional.empty())).isPresent();
    assertThat(defaults.reason("team-a", Optional.empty(), Optional.of(1000))).isEmpty();
  }

  @Test
  void systemPriorityClassesAreProtectedByNameAndByValue() {
    assertThat(defaults.reason("team-a", Optional.of("system-node-critical"), Optional.empty()))
        .hasValue("priority class system-node-critical is protected");
    assertThat(defaults.reason("team-a", Optional.of("renamed"), Optional.of(2_000_001_000)))
        .hasValue("priority 2000001000 is a system priority");
    // The highest priority a user-defined class may have is not a system one.
    assertThat(defaults.reason("team-a", Optional.of("high"), Optional.of(1_000_000_000)))
        .isEmpty();
  }
}
