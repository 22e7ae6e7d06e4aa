package io.quotaflow.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeviceClassMappingsTest {

  @Test
  void theDefaultMapsNvidiasGpuClassToOneGpuPerDevice() {
    assertThat(DeviceClassMappings.defaults().all())
        .containsExactly(DeviceClassMapping.ofCount("gpu.nvidia.com", "nvidia.com/gpu"));
  }

  @Test
  void anEntryGivesTheCountPerDeviceAndTheCapacityRules() {
    final DeviceClassMappings mappings =
        DeviceClassMappings.parse(
            " gpu.nvidia.com -> nvidia.com/gpu x 1 [memory / 1Gi -> quotaflow.io/gpu-memory] ;"
                + "tpu.example.com->example.com/tpu*4;"
                + "mig.nvidia.com -> nvidia.com/mig [memory -> example.com/mig-bytes,"
                + " multiprocessors -> example.com/sm];");

    assertThat(mappings.find("gpu.nvidia.com"))
        .contains(
            new DeviceClassMapping(
                "gpu.nvidia.com",
                "nvidia.com/gpu",
                1,
                List.of(new CapacityRule("memory", "quotaflow.io/gpu-memory", 1L << 30))));
    assertThat(mappings.find("tpu.example.com"))
        .contains(new DeviceClassMapping("tpu.example.com", "example.com/tpu", 4, List.of()));
    assertThat(mappings.find("mig.nvidia.com").orElseThrow().capacities())
        .containsExactly(
            new CapacityRule("memory", "example.com/mig-bytes", 1),
            new CapacityRule("multiprocessors", "example.com/sm", 1));
    assertThat(mappings.find("fpga.example.com")).isEmpty();
  }

  @Test
  void aConfigMapGivesOneEntryPerKey() {
    assertThat(
            DeviceClassMappings.fromConfigMapData(
                Map.of(
                    "gpu.nvidia.com", "nvidia.com/gpu [memory / 1Gi -> quotaflow.io/gpu-memory]",
                    "tpu.example.com", "example.com/tpu x 4")))
        .isEqualTo(
            DeviceClassMappings.parse(
                "gpu.nvidia.com -> nvidia.com/gpu [memory / 1Gi -> quotaflow.io/gpu-memory];"
                    + " tpu.example.com -> example.com/tpu x 4"));
  }

  @Test
  void aBlankSettingMapsNoClass() {
    assertThat(DeviceClassMappings.parse(" ").all()).isEmpty();
  }

  @Test
  void unreadableEntriesAreRefusedNamingTheEntry() {
    assertThatThrownBy(() -> DeviceClassMappings.parse("gpu.nvidia.com => nvidia.com/gpu"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("\"gpu.nvidia.com => nvidia.com/gpu\" is not a device class");
    assertThatThrownBy(() -> DeviceClassMappings.parse("a -> x; a -> y"))
        .hasMessage("device class a is mapped twice");
    assertThatThrownBy(() -> DeviceClassMappings.parse("a -> x x 0"))
        .hasMessageContaining("must count as at least 1 x");
    assertThatThrownBy(() -> DeviceClassMappings.parse("a -> x [memory / 1Zi -> y]"))
        .hasMessageStartingWith("the unit of \"memory / 1Zi -> y\"");
    assertThatThrownBy(() -> DeviceClassMappings.parse("a -> x [memory / 0 -> y]"))
        .hasMessageContaining("must be at least 1");
    assertThatThrownBy(() -> DeviceClassMappings.parse("a -> x [memory -> y, cores -> y]"))
        .hasMessageContaining("derive the same resource twice");
    assertThatThrownBy(() -> DeviceClassMappings.parse("a -> x [memory]"))
        .hasMessageStartingWith("\"memory\" in \"a -> x [memory]\" is not a capacity rule");
  }
}
