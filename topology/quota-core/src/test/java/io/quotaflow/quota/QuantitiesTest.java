package io.quotaflow.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.quota.Quantities.InvalidQuantityException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuantitiesTest {

  @ParameterizedTest(name = "cpu \"{0}\" is {1} milli-cores")
  @CsvSource({
    "1, 1000",
    "0, 0",
    "2, 2000",
    "100m, 100",
    "1500m, 1500",
    "1.5, 1500",
    "0.1, 100",
    ".5, 500",
    "5., 5000",
    "+1, 1000",
    "-1, -1000",
    "-100m, -100",
    "0.0001, 1", // a fraction of a milli-core rounds up
    "1n, 1",
    "1u, 1",
    "999999n, 1",
    "1000000n, 1",
    "1000001n, 2",
    "1500u, 2",
    "-1n, -1", // rounds away from zero: a negative value stays negative for validation
    "1k, 1000000",
    "1M, 1000000000",
    "1e3, 1000000",
    "1E3, 1000000",
    "1e-3, 1",
    "1E+3, 1000000",
    "1.0E-3, 1",
    "15e-4, 2",
    "1Ki, 1024000",
    "0.5Ki, 512000",
    "9223372036854775807m, 9223372036854775807",
    "9223372036854775.807, 9223372036854775807",
    "-9223372036854775808m, -9223372036854775808",
    "9223372036854775.8069, 9223372036854775807", // rounds up, still fits
    "0e999999999999999, 0",
    "1e-999999999999, 1",
    "-1e-999999999999, -1",
    "00012, 12000",
    "1e03, 1000000",
  })
  void parsesCpuInMilliCores(String text, long expected) {
    assertThat(Quantities.parse("cpu", text)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} \"{1}\" is {2} units")
  @CsvSource({
    "memory, 1, 1",
    "memory, 128974848, 128974848",
    "memory, 129e6, 129000000",
    "memory, 129M, 129000000",
    "memory, 123Mi, 128974848",
    "memory, 1Ki, 1024",
    "memory, 2Gi, 2147483648",
    "memory, 1.5Gi, 1610612736",
    "memory, 1Ti, 1099511627776",
    "memory, 1Pi, 1125899906842624",
    "memory, 1Ei, 1152921504606846976",
    "memory, 7Ei, 8070450532247928832",
    "memory, 7.999999999999999999Ei, 9223372036854775807", // just below 2^63
    "memory, -8Ei, -9223372036854775808",
    "memory, 1k, 1000",
    "memory, 1G, 1000000000",
    "memory, 1T, 1000000000000",
    "memory, 1P, 1000000000000000",
    "memory, 1E, 1000000000000000000",
    "memory, 9E, 9000000000000000000",
    "memory, 100m, 1", // a tenth of a byte rounds up to one byte
    "memory, 1500m, 2",
    "memory, 0.1, 1",
    "memory, 1n, 1",
    "memory, 0, 0",
    "memory, 0Gi, 0",
    "memory, 0.0, 0",
    "memory, 9223372036854775807, 9223372036854775807",
    "memory, 9223372036854775807000m, 9223372036854775807",
    "memory, 9.223372036854775807e18, 9223372036854775807",
    "nvidia.com/gpu, 2, 2",
    "nvidia.com/gpu, 0.5, 1",
    "nvidia.com/gpu, 1k, 1000",
    "pods, 110, 110",
  })
  void parsesOtherResourcesInWholeUnits(String resource, String text, long expected) {
    assertThat(Quantities.parse(resource, text)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "\"{0}\" is rejected")
  @CsvSource(
      value = {
        "''", "abc", "m", "Gi", "-", "+", ".", "1.2.3", "1Qi", "1 Gi", "' 1'", "'1 '", "1gi", "1K",
        "1e", "1e+", "1e1.5", "1ee3", "1mi", "0x10", "true", "+-1", "1e3m",
        "١٢", // Arabic-Indic digits are not ASCII digits
        "'1,5'",
      },
      quoteCharacter = '\'')
  void rejectsTextThatIsNotAQuantity(String text) {
    assertThatThrownBy(() -> Quantities.parse("cpu", text))
        .isInstanceOfSatisfying(
            InvalidQuantityException.class,
            e -> {
              assertThat(e.text()).isEqualTo(text);
              assertThat(e.getMessage()).startsWith("\"" + text + "\" is not a valid quantity: ");
            });
  }

  @ParameterizedTest(name = "{0} \"{1}\" does not fit a long")
  @CsvSource({
    "memory, 9223372036854775808",
    "memory, -9223372036854775809",
    "memory, 8Ei",
    "memory, 9.3E",
    "memory, 1e19",
    "memory, 9223372036854775807.1", // rounds up past the maximum
    "memory, 1e999999999999999",
    "memory, 123456789012345678901234567890123456789012345678901234567890",
    "cpu, 9223372036854775808m",
    "cpu, 9223372036854776", // fits as cores, not as milli-cores
    "cpu, 9223372036854775.8071",
    "cpu, 9E",
    "cpu, 9Pi",
    "cpu, -9223372036854776",
  })
  void rejectsValuesThatDoNotFitALong(String resource, String text) {
    assertThatThrownBy(() -> Quantities.parse(resource, text))
        .isInstanceOf(InvalidQuantityException.class)
        .hasMessageContaining("\"" + text + "\"")
        .hasMessageContaining("does not fit a 64-bit integer");
  }

  @Test
  void rejectsNullAsEmpty() {
    assertThatThrownBy(() -> Quantities.parseUnits(null))
        .isInstanceOf(InvalidQuantityException.class)
        .hasMessageContaining("empty");
  }

  @ParameterizedTest(name = "{0} {1} formats as \"{2}\"")
  @CsvSource({
    "cpu, 0, 0",
    "cpu, 500, 500m",
    "cpu, 2000, 2",
    "cpu, 2500, 2500m",
    "cpu, -1500, -1500m",
    "cpu, -3000, -3",
    "cpu, 9223372036854775807, 9223372036854775807m",
    "cpu, -9223372036854775808, -9223372036854775808m",
    "memory, 2147483648, 2Gi",
    "memory, 1610612736, 1536Mi",
    "memory, 1024, 1Ki",
    "memory, 1000, 1k",
    "memory, 1000000000, 1G",
    "memory, 1536, 1536",
    "memory, 1, 1",
    "memory, -2147483648, -2Gi",
    "memory, -9223372036854775808, -8Ei",
    "memory, 9223372036854775807, 9223372036854775807",
    "ephemeral-storage, 10737418240, 10Gi",
    "hugepages-2Mi, 4194304, 4Mi",
    "nvidia.com/gpu, 4, 4",
    "nvidia.com/gpu, 1024, 1024",
    "pods, 1000, 1000",
  })
  void formatsCanonicalAmountsAsKubernetesQuantities(String resource, long amount, String text) {
    assertThat(Quantities.format(resource, amount)).isEqualTo(text);
  }

  @Property
  void formattedCpuParsesBackToTheSameAmount(@ForAll long amount) {
    assertThat(Quantities.parse("cpu", Quantities.format("cpu", amount))).isEqualTo(amount);
  }

  @Property
  void formattedMemoryParsesBackToTheSameAmount(@ForAll long amount) {
    assertThat(Quantities.parse("memory", Quantities.format("memory", amount))).isEqualTo(amount);
  }

  @Property
  void formattedMemoryInWholeMebibytesParsesBack(@ForAll int mebibytes) {
    final long amount = mebibytes * 1024L * 1024L;
    assertThat(Quantities.parse("memory", Quantities.format("memory", amount))).isEqualTo(amount);
  }

  @Property
  void plainIntegersParseToThemselvesAndToAThousandTimesAsMilli(@ForAll int value) {
    final String text = Integer.toString(value);
    assertThat(Quantities.parseUnits(text)).isEqualTo(value);
    assertThat(Quantities.parseMilli(text)).isEqualTo(value * 1000L);
  }

  @org.junit.jupiter.api.Test
  void aResourceListReadsAsAPersonWritesIt() {
    final ResourceList amounts =
        ResourceList.builder()
            .put("cpu", 17_000)
            .put("memory", 40_802_189_312L)
            .put("nvidia.com/gpu", 2)
            .put("ephemeral-storage", 1_500)
            .build();

    org.assertj.core.api.Assertions.assertThat(Quantities.format(amounts))
        .isEqualTo("cpu 17, ephemeral-storage 1500, memory 38Gi, nvidia.com/gpu 2");
    org.assertj.core.api.Assertions.assertThat(Quantities.format(ResourceList.empty()))
        .isEqualTo("none");
  }
}
