package io.quotaflow.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.QuotaOptions.DefaultWeightPolicy;
import io.quotaflow.tree.QuotaOptions.DerivedResourceRule;
import io.quotaflow.tree.QuotaOptions.UsedPolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SimulateConfigTest {

  @Test
  void readsEverySetting() throws Exception {
    final QuotaOptions options =
        SimulateConfig.read(
                "c.properties",
                Map.of(
                    "min-scale",
                    "false",
                    "default-shared-weight",
                    "MIN",
                    "used-policy",
                    "running",
                    "count-terminating-pods",
                    "False",
                    "only-ready-schedulable-nodes",
                    "true",
                    "default-group-max",
                    "{\"cpu\": \"4\", \"memory\": \"8Gi\"}",
                    "derived-resources",
                    "nvidia.com/gpu->quotaflow.io/gpu-memory*32"))
            .options();

    assertThat(options.minScaling()).isFalse();
    assertThat(options.defaultWeight()).isEqualTo(DefaultWeightPolicy.MIN);
    assertThat(options.usedPolicy()).isEqualTo(UsedPolicy.RUNNING);
    assertThat(options.countTerminatingPods()).isFalse();
    assertThat(options.onlyReadySchedulableNodes()).isTrue();
    assertThat(options.defaultGroupMax())
        .isEqualTo(ResourceList.of("cpu", 4000, "memory", 8L << 30));
    assertThat(options.derivedResources())
        .containsExactly(new DerivedResourceRule("nvidia.com/gpu", "quotaflow.io/gpu-memory", 32));
  }

  @Test
  void anEmptyFileKeepsTheDefaults() throws Exception {
    assertThat(SimulateConfig.read("c.properties", Map.of()).options())
        .isEqualTo(QuotaOptions.DEFAULTS);
  }

  @Test
  void derivedRulesAreCommaSeparatedAndAcceptSpacesAndX() {
    assertThat(
            SimulateConfig.parseRules(
                " nvidia.com/gpu -> quotaflow.io/gpu-memory * 32 ,"
                    + "nvidia.com/mig-1g.10gb -> quotaflow.io/gpu-memory x 10,"))
        .containsExactly(
            new DerivedResourceRule("nvidia.com/gpu", "quotaflow.io/gpu-memory", 32),
            new DerivedResourceRule("nvidia.com/mig-1g.10gb", "quotaflow.io/gpu-memory", 10));
  }

  @Test
  void aMalformedRuleIsRejectedWithTheRule() {
    assertThatThrownBy(() -> SimulateConfig.parseRules("nvidia.com/gpu=>gpu-memory*32"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("\"nvidia.com/gpu=>gpu-memory*32\" is not a rule");
    assertThatThrownBy(() -> SimulateConfig.parseRules("a->b*99999999999999999999"))
        .hasMessageContaining("too large");
  }

  @Test
  void badValuesNameTheFileTheSettingAndTheValue() {
    assertThatThrownBy(() -> SimulateConfig.read("c.properties", Map.of("min-scale", "yes")))
        .isInstanceOf(BadInputException.class)
        .hasMessage("c.properties: min-scale: expected true or false, found \"yes\"");
    assertThatThrownBy(
            () -> SimulateConfig.read("c.properties", Map.of("default-group-max", "cpu=4")))
        .hasMessage(
            "c.properties: default-group-max: expected a JSON object of quantities, found"
                + " \"cpu=4\"");
    assertThatThrownBy(
            () ->
                SimulateConfig.read(
                    "c.properties", Map.of("default-group-max", "{\"cpu\": \"x\"}")))
        .hasMessageStartingWith("c.properties: default-group-max: cpu: \"x\" is not a valid");
  }
}
