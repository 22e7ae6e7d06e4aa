package io.quotaflow.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ParsersTest {

  private enum Colour {
    RED,
    DARK_BLUE
  }

  @ParameterizedTest(name = "{0} is {1} ms")
  @CsvSource({
    "1500, 1500",
    "100ms, 100",
    "1s, 1000",
    "2m, 120000",
    "1h, 3600000",
    "1d, 86400000",
    "'30 s', 30000",
    "PT90S, 90000",
    "pt2m, 120000"
  })
  void durationsReadInEveryDocumentedForm(final String text, final long millis) {
    assertThat(Parsers.duration(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"", "soon", "1w", "1.5s", "-1s", "s", "1 second", "P", "PT-1S"})
  void durationsRefuseOtherForms(final String text) {
    assertThatThrownBy(() -> Parsers.duration(text)).isInstanceOf(RuntimeException.class);
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"0", "0ms", "0s", "PT0S"})
  void durationsMustBePositive(final String text) {
    assertThatThrownBy(() -> Parsers.duration(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("positive");
  }

  @ParameterizedTest(name = "''{0}'' is {1}")
  @CsvSource({"true, true", "false, false", "TRUE, true", "False, false"})
  void booleansAreTrueOrFalseInAnyCase(final String text, final boolean expected) {
    assertThat(Parsers.bool(text)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"yes", "no", "1", "0", "on", "", "t"})
  void booleansRefuseEverythingElse(final String text) {
    assertThatThrownBy(() -> Parsers.bool(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected true or false");
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"1", "6", "2147483647"})
  void positiveIntsStartAtOne(final String text) {
    assertThat(Parsers.positiveInt(text)).isEqualTo(Integer.parseInt(text));
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"0", "-3", "2147483648", "1.0", "six", ""})
  void positiveIntsRefuseZeroNegativesAndNonIntegers(final String text) {
    assertThatThrownBy(() -> Parsers.positiveInt(text))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"0", "8443", "65535"})
  void portsRangeFromZeroTo65535(final String text) {
    assertThat(Parsers.port(text)).isEqualTo(Integer.parseInt(text));
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"-1", "65536", "http"})
  void portsOutsideTheRangeAreRefused(final String text) {
    assertThatThrownBy(() -> Parsers.port(text)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "''{0}'' is {1}")
  @CsvSource({"5, 5.0", "0.5, 0.5", "1e3, 1000.0"})
  void positiveNumbersMayHaveFractions(final String text, final double expected) {
    assertThat(Parsers.positiveNumber(text)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"0", "-1", "NaN", "Infinity", "fast"})
  void positiveNumbersRefuseZeroNegativesAndNonFiniteValues(final String text) {
    assertThatThrownBy(() -> Parsers.positiveNumber(text))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"", " ", "\t"})
  void nonBlankTextRefusesBlankText(final String text) {
    assertThatThrownBy(() -> Parsers.nonBlank(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("must not be blank");
    assertThat(Parsers.text(text)).isEqualTo(text);
  }

  @ParameterizedTest(name = "''{0}'' is {1}")
  @CsvSource({"red, RED", "RED, RED", "Dark_Blue, DARK_BLUE"})
  void enumsReadTheirNamesInAnyCase(final String text, final Colour expected) {
    assertThat(Parsers.oneOf(Colour.class).apply(text)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"green", "", "dark-blue"})
  void otherEnumNamesAreRefusedListingTheLowerCaseNames(final String text) {
    assertThatThrownBy(() -> Parsers.oneOf(Colour.class).apply(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected one of [red, dark_blue]");
  }

  @ParameterizedTest(name = "''{0}''")
  @CsvSource(
      delimiter = '|',
      value = {"'' | ''", "a | a", "' a , b ' | a,b", "'a,,b,' | a,b", "', ,' | ''"})
  void listsAreCommaSeparatedTrimmedAndSkipEmptyItems(final String text, final String items) {
    final List<String> expected = items.isEmpty() ? List.of() : List.of(items.split(","));

    assertThat(Parsers.list(Parsers::text).apply(text)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(strings = {"1,x", "1, 0"})
  void aListRefusesAnItemItsItemParserRefuses(final String text) {
    final Function<String, List<Integer>> ints = Parsers.list(Parsers::positiveInt);

    assertThatThrownBy(() -> ints.apply(text)).isInstanceOf(IllegalArgumentException.class);
    assertThat(ints.apply("1, 2,3")).containsExactly(1, 2, 3);
  }
}
