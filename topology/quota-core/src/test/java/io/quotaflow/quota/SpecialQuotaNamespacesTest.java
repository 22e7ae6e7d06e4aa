package io.quotaflow.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Issue 39 point 5: only the special namespaces' ElasticQuotas define the special groups. */
class SpecialQuotaNamespacesTest {

  private final SpecialQuotaNamespaces rule = SpecialQuotaNamespaces.DEFAULT;

  @Test
  void theDefaultNamespacesAreTheWebhooks() {
    assertThat(rule.namespaces())
        .containsExactlyInAnyOrder("kube-system", "quotaflow", "koordinator-system");
  }

  @Test
  void aSpecialGroupOfATenantNamespaceIsRefused() {
    for (final String name : SpecialGroups.ALL) {
      assertThat(rule.mayDefine(name, "team-a")).as(name).isFalse();
      assertThat(rule.refusal(name, "team-a"))
          .get()
          .asString()
          .contains(name, "team-a", "koordinator-system or kube-system or quotaflow");
    }
  }

  @Test
  void aSpecialGroupOfUnknownNamespaceIsRefused() {
    assertThat(rule.mayDefine(SpecialGroups.ROOT, "")).isFalse();
    assertThat(rule.refusal(SpecialGroups.ROOT, "")).get().asString().contains("(unknown)");
  }

  @Test
  void aSpecialGroupOfASpecialNamespaceAndAnyOrdinaryGroupStand() {
    for (final String name : SpecialGroups.ALL) {
      assertThat(rule.mayDefine(name, "kube-system")).isTrue();
      assertThat(rule.refusal(name, "koordinator-system")).isEmpty();
    }
    assertThat(rule.mayDefine("team-a", "team-b")).isTrue();
    assertThat(rule.mayDefine(QuotaGroup.builder("team-a").build())).isTrue();
  }

  @Test
  void theNamespacesAreConfigurable() {
    final SpecialQuotaNamespaces only = new SpecialQuotaNamespaces(Set.of("platform"));
    assertThat(only.mayDefine(SpecialGroups.SYSTEM, "platform")).isTrue();
    assertThat(only.mayDefine(SpecialGroups.SYSTEM, "kube-system")).isFalse();
  }
}
