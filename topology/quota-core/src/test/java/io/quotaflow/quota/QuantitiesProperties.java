package io.quotaflow.quota;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The quick path for the common form of a quantity (digits and a suffix) gives exactly what the
 * exact path gives, and leaves to it every text it does not handle.
 */
class QuantitiesProperties {

  @Property(tries = 3_000)
  void theQuickPathAgreesWithTheExactOne(@ForAll("quantities") String text) {
    for (final int extra : new int[] {0, 3}) {
      final long simple = Quantities.simple(text, extra);
      Long exact;
      try {
        exact = Quantities.exactly(text, extra, "units");
      } catch (Quantities.InvalidQuantityException e) {
        exact = null;
      }
      if (simple >= 0) {
        assertThat(exact).as(text).isEqualTo(simple);
      }
    }
  }

  @Provide
  Arbitrary<String> quantities() {
    final Arbitrary<String> digits =
        Arbitraries.oneOf(
            Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(22),
            Arbitraries.longs().between(0, 4096).map(n -> Long.toString(n)),
            Arbitraries.of("0", "00", "007", "9223372036854775807", "9223372036854775808"));
    final Arbitrary<String> suffixes =
        Arbitraries.of(
            "", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei",
            "e3", "E-2", "x", ".5", ".", "i", "mi");
    final Arbitrary<String> signs = Arbitraries.of("", "", "", "+", "-");
    return Combinators.combine(signs, digits, suffixes).as((s, d, x) -> s + d + x);
  }
}
