package io.quotaflow.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.dra.DeviceClassMappings;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.QuotaOptions.DerivedResourceRule;
import io.quotaflow.tree.QuotaOptions.UsedPolicy;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QuotaSettingsTest {

  @Test
  void theDefaultsAreTheComputationsDefaults() {
    final QuotaSemantics semantics = QuotaSettings.read(ConfigLoader.of(QuotaSettings.ALL).build());

    assertThat(semantics.options()).isEqualTo(QuotaOptions.DEFAULTS);
    assertThat(semantics.deviceClasses()).isEqualTo(DeviceClassMappings.defaults());
    assertThat(semantics.fairShareHalfLife()).isEmpty();
  }

  @Test
  void valuesReachTheOptions() {
    final QuotaSemantics semantics =
        QuotaSettings.read(
            ConfigLoader.of(QuotaSettings.ALL)
                .set("quota.namespace.binding.open", "true")
                .set("quota.special.group.namespaces", "kube-system,monitoring")
                .set("quota.used.policy", "RUNNING")
                .set("quota.default.group.max", "{\"cpu\": \"4\"}")
                .set("fairshare.memory.enabled", "true")
                .set("fairshare.memory.half-life", "1d")
                .build());

    assertThat(semantics.options().namespaceBinding().open()).isTrue();
    assertThat(semantics.options().namespaceBinding().specialGroupNamespaces())
        .containsExactlyInAnyOrder("kube-system", "monitoring");
    assertThat(semantics.options().usedPolicy()).isEqualTo(UsedPolicy.RUNNING);
    assertThat(semantics.options().defaultGroupMax()).isEqualTo(ResourceList.of("cpu", 4000));
    assertThat(semantics.fairShareHalfLife()).isEqualTo(Optional.of(Duration.ofDays(1)));
  }

  @Test
  void aFileNameIsTheKeyWithoutQuotaAndWithDashes() {
    assertThat(QuotaSettings.fileName(QuotaSettings.NAMESPACE_BINDING_OPEN))
        .isEqualTo("namespace-binding-open");
    assertThat(QuotaSettings.fileName(QuotaSettings.RESERVATION_MAX_LOCKED_PERCENT))
        .isEqualTo("reservation-max-locked-percent");
    assertThat(QuotaSettings.fileName(QuotaSettings.FAIRSHARE_MEMORY_HALF_LIFE))
        .isEqualTo("fairshare-memory-half-life");
    assertThat(QuotaSettings.fileName(QuotaSettings.MIN_SCALING)).isEqualTo("min-scale");
  }

  @Test
  void parsersSayWhatTheyExpect() {
    assertThatThrownBy(() -> QuotaSettings.USED_POLICY.parse("sometimes"))
        .hasMessageEndingWith("expected bound or running");
    assertThatThrownBy(() -> QuotaParsers.percent("101"))
        .hasMessage("expected a whole percentage from 0 to 100");
    assertThatThrownBy(() -> QuotaParsers.derivedResource("a=>b*3"))
        .hasMessageStartingWith("\"a=>b*3\" is not a rule");
    assertThatThrownBy(() -> QuotaParsers.resources("cpu=4"))
        .hasMessage("expected a JSON object of quantities");
    assertThat(QuotaParsers.resources(" ")).isEqualTo(ResourceList.empty());
    assertThat(QuotaParsers.derivedResources("a -> b x 3, c->d*4,"))
        .containsExactly(
            new DerivedResourceRule("a", "b", 3), new DerivedResourceRule("c", "d", 4));
  }

  @Test
  void sharedParsersBoundIntsAndWholeSeconds() {
    assertThat(Parsers.atMost(10).apply("10")).isEqualTo(10);
    assertThatThrownBy(() -> Parsers.atMost(10).apply("11")).hasMessage("must be at most 10: 11");
    assertThatThrownBy(() -> Parsers.atMost(10).apply("0")).hasMessage("must be at least 1");
    assertThat(Parsers.wholeSeconds("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThatThrownBy(() -> Parsers.wholeSeconds("1500ms")).hasMessageContaining("whole seconds");
  }
}
