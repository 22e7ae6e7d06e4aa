package io.quotaflow.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.quota.SpecialQuotaNamespaces;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which ElasticQuota stands for a name (issue 24), special groups only from special namespaces. */
class NamesakesTest {

  private static GenericKubernetesResource quota(String namespace, String name, String created) {
    final GenericKubernetesResource quota = new GenericKubernetesResource();
    quota.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace(namespace)
            .withName(name)
            .withCreationTimestamp(created)
            .build());
    return quota;
  }

  @Test
  void theFirstCreatedWins() {
    final var first = quota("zz", "team-a", "2026-01-01T00:00:00Z");
    final var later = quota("aa", "team-a", "2026-01-02T00:00:00Z");
    assertThat(Namesakes.winner(List.of(later, first), SpecialQuotaNamespaces.DEFAULT))
        .contains(first);
    assertThat(Namesakes.ignored(List.of(later, first), SpecialQuotaNamespaces.DEFAULT))
        .containsExactly("aa");
  }

  /** Issue 39 point 5 (attack): an older tenant's object never wins a special group's name. */
  @Test
  void aTenantsOlderSpecialGroupNeverWinsAndIsReported() {
    final var tenant = quota("team-a", SpecialGroups.DEFAULT, "2026-01-01T00:00:00Z");
    final var system = quota("kube-system", SpecialGroups.DEFAULT, "2026-01-02T00:00:00Z");
    assertThat(Namesakes.winner(List.of(tenant, system), SpecialQuotaNamespaces.DEFAULT))
        .contains(system);
    assertThat(Namesakes.ignored(List.of(tenant, system), SpecialQuotaNamespaces.DEFAULT))
        .containsExactly("team-a");
  }

  @Test
  void onlyTenantsSpecialGroupsStandForNothing() {
    final var tenant = quota("team-a", SpecialGroups.ROOT, "2026-01-01T00:00:00Z");
    final var other = quota("team-b", SpecialGroups.ROOT, "2026-01-02T00:00:00Z");
    assertThat(Namesakes.winner(List.of(tenant, other), SpecialQuotaNamespaces.DEFAULT)).isEmpty();
    assertThat(Namesakes.ignored(List.of(tenant, other), SpecialQuotaNamespaces.DEFAULT))
        .containsExactly("team-a", "team-b");
  }
}
