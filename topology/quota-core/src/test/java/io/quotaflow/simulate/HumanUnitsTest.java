package io.quotaflow.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HumanUnitsTest {

  @ParameterizedTest(name = "{0} {1} shows as {2}")
  @CsvSource({
    "cpu, 0, 0",
    "cpu, 500, 0.5",
    "cpu, 2000, 2",
    "cpu, 42250, 42.25",
    "cpu, 1, 0.001",
    "cpu, -1500, -1.5",
    "memory, 0, 0Gi",
    "memory, 2147483648, 2Gi",
    "memory, 1610612736, 1.5Gi",
    "memory, 1300000000, 1.21Gi",
    "memory, 536870912, 512Mi",
    "memory, 1000, 1000",
    "memory, 2048, 2Ki",
    "memory, -536870912, -512Mi",
    "ephemeral-storage, 10737418240, 10Gi",
    "nvidia.com/gpu, 4, 4",
    "pods, 330, 330",
  })
  void showsAmountsInTheUnitsPeopleRead(String resource, long amount, String shown) {
    assertThat(HumanUnits.format(resource, amount)).isEqualTo(shown);
  }
}
