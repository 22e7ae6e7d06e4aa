package io.quotaflow.quota;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Objects;

/**
 * Exact conversion between Kubernetes quantity strings and canonical integer units (SPEC 2): {@code
 * cpu} in milli-cores, every other resource in whole units.
 *
 * <p>Parsing follows the Kubernetes grammar: an optionally signed decimal number ({@code 1}, {@code
 * 1.5}, {@code .5}, {@code 5.}) followed by a decimal SI suffix ({@code n u m k M G T P E}), a
 * binary SI suffix ({@code Ki Mi Gi Ti Pi Ei}) or a decimal exponent ({@code e3}, {@code E-2}). The
 * arithmetic is exact ({@link BigDecimal}); a fraction of the unit rounds away from zero, as
 * Kubernetes rounds, so that a positive amount never rounds down to nothing and a negative one
 * stays negative for validation to see. A value that does not fit a {@code long} is rejected, never
 * clamped.
 *
 * <p>Formatting is the reverse: the shortest exact Kubernetes string ({@code 500m}, {@code 2},
 * {@code 2Gi}), such that parsing it gives back the same amount.
 */
public final class Quantities {

  /** Decimal SI suffixes and their powers of ten. */
  private static final Map<String, Integer> DECIMAL_SUFFIXES =
      Map.of("n", -9, "u", -6, "m", -3, "", 0, "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);

  /** Binary SI suffixes and their powers of two. */
  private static final Map<String, Integer> BINARY_SUFFIXES =
      Map.of("Ki", 10, "Mi", 20, "Gi", 30, "Ti", 40, "Pi", 50, "Ei", 60);

  private static final String[] BINARY_BY_SIZE = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"};
  private static final String[] DECIMAL_BY_SIZE = {"E", "P", "T", "G", "M", "k"};

  /**
   * Beyond this many decimal digits before the point a value cannot fit a long (19 digits) even
   * after the smallest suffix; checked before any big arithmetic so that {@code 1e999999999} is
   * cheap to reject.
   */
  private static final int MAX_INTEGER_DIGITS = 40;

  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private Quantities() {}

  /** Whether a resource is counted in thousandths of its unit (only {@code cpu}). */
  public static boolean isMilliResource(String resource) {
    return ResourceList.CPU.equals(resource);
  }

  /** Whether a resource is an amount of bytes, formatted with binary suffixes. */
  public static boolean isByteResource(String resource) {
    return ResourceList.MEMORY.equals(resource)
        || "ephemeral-storage".equals(resource)
        || "storage".equals(resource)
        || resource.startsWith("hugepages-");
  }

  /**
   * Parses a quantity into the canonical units of {@code resource}.
   *
   * @throws InvalidQuantityException naming the text when it is not a quantity or does not fit
   */
  public static long parse(String resource, String text) {
    Objects.requireNonNull(resource, "resource");
    return isMilliResource(resource) ? parseMilli(text) : parseUnits(text);
  }

  /** Parses a quantity in whole units, rounding a fraction away from zero. */
  public static long parseUnits(String text) {
    return toLong(text, 0, "units");
  }

  /** Parses a quantity in thousandths (milli-units), rounding a fraction away from zero. */
  public static long parseMilli(String text) {
    return toLong(text, 3, "milli-units");
  }

  /**
   * {@code amounts} as a person writes them in a manifest, in name order: {@code cpu 17, memory
   * 38Gi, nvidia.com/gpu 2} (each amount exact, as {@link #format(String, long)}); {@code none} for
   * an empty list.
   */
  public static String format(ResourceList amounts) {
    if (amounts.isEmpty()) {
      return "none";
    }
    final StringBuilder text = new StringBuilder();
    for (int i = 0; i < amounts.size(); i++) {
      text.append(i == 0 ? "" : ", ")
          .append(amounts.nameAt(i))
          .append(' ')
          .append(format(amounts.nameAt(i), amounts.amountAt(i)));
    }
    return text.toString();
  }

  /**
   * The shortest exact Kubernetes quantity for a canonical amount of {@code resource}: {@code cpu}
   * as {@code 2} or {@code 500m}; byte resources with the largest binary suffix that divides
   * exactly ({@code 2Gi}), else the largest decimal one ({@code 1G}), else plain bytes; other
   * resources as plain integers.
   */
  public static String format(String resource, long amount) {
    Objects.requireNonNull(resource, "resource");
    final BigInteger value = BigInteger.valueOf(amount);
    final String sign = value.signum() < 0 ? "-" : "";
    final BigInteger magnitude = value.abs();
    if (magnitude.signum() == 0) {
      return "0";
    }
    if (isMilliResource(resource)) {
      final BigInteger[] wholeAndMilli = magnitude.divideAndRemainder(BigInteger.valueOf(1000));
      return wholeAndMilli[1].signum() == 0 ? sign + wholeAndMilli[0] : sign + magnitude + "m";
    }
    if (isByteResource(resource)) {
      for (final String suffix : BINARY_BY_SIZE) {
        final String exact = exactly(magnitude, BigInteger.TWO.pow(BINARY_SUFFIXES.get(suffix)));
        if (exact != null) {
          return sign + exact + suffix;
        }
      }
      for (final String suffix : DECIMAL_BY_SIZE) {
        final String exact = exactly(magnitude, BigInteger.TEN.pow(DECIMAL_SUFFIXES.get(suffix)));
        if (exact != null) {
          return sign + exact + suffix;
        }
      }
    }
    return sign + magnitude;
  }

  private static String exactly(BigInteger magnitude, BigInteger unit) {
    final BigInteger[] quotientAndRemainder = magnitude.divideAndRemainder(unit);
    return quotientAndRemainder[1].signum() == 0 ? quotientAndRemainder[0].toString() : null;
  }

  private static long toLong(String text, int extraPowerOfTen, String unitName) {
    if (text == null || text.isEmpty()) {
      throw new InvalidQuantityException(String.valueOf(text), "it is empty");
    }
    final long simple = simple(text, extraPowerOfTen);
    return simple >= 0 ? simple : exactly(text, extraPowerOfTen, unitName);
  }

  /**
   * The common form, unsigned digits and a suffix ({@code 500m}, {@code 16Mi}, {@code 2}), in long
   * arithmetic: what {@link #exactly} gives, or -1 when the text has another form or the amount
   * might not fit (then {@link #exactly} decides, and words any error). Webhooks and sources parse
   * a few quantities per pod; the exact path builds several {@code BigDecimal}s for each.
   */
  static long simple(String text, int extraPowerOfTen) {
    int digits = 0;
    long value = 0;
    while (digits < text.length() && digits < 18) {
      final char c = text.charAt(digits);
      if (c < '0' || c > '9') {
        break;
      }
      value = value * 10 + (c - '0');
      digits++;
    }
    if (digits == 0 || (digits < text.length() && isDigitOrPoint(text.charAt(digits)))) {
      return -1;
    }
    final String suffix = text.substring(digits);
    final Integer decimal = DECIMAL_SUFFIXES.get(suffix);
    final Integer binary = decimal == null ? BINARY_SUFFIXES.get(suffix) : null;
    if (decimal == null && binary == null) {
      return -1;
    }
    if (value == 0) {
      return 0;
    }
    final int powerOfTen = extraPowerOfTen + (decimal == null ? 0 : decimal);
    try {
      long result = value;
      if (powerOfTen >= 0) {
        for (int i = 0; i < powerOfTen; i++) {
          result = Math.multiplyExact(result, 10L);
        }
      } else {
        long unit = 1;
        for (int i = 0; i < -powerOfTen; i++) {
          unit *= 10;
        }
        // A fraction of the unit rounds away from zero (up, for a positive amount).
        result = result / unit + (result % unit == 0 ? 0 : 1);
      }
      if (binary != null) {
        for (int i = 0; i < binary; i++) {
          result = Math.multiplyExact(result, 2L);
        }
      }
      return result;
    } catch (ArithmeticException overflow) {
      return -1;
    }
  }

  private static boolean isDigitOrPoint(char c) {
    return (c >= '0' && c <= '9') || c == '.';
  }

  /** The exact conversion of any quantity (see the class comment). */
  static long exactly(String text, int extraPowerOfTen, String unitName) {
    final int numberEnd = endOfNumber(text);
    final String number = text.substring(0, numberEnd);
    final String suffix = text.substring(numberEnd);
    final BigDecimal mantissa = mantissa(text, number);

    int powerOfTen = extraPowerOfTen;
    int powerOfTwo = 0;
    if (DECIMAL_SUFFIXES.containsKey(suffix)) {
      powerOfTen += DECIMAL_SUFFIXES.get(suffix);
    } else if (BINARY_SUFFIXES.containsKey(suffix)) {
      powerOfTwo = BINARY_SUFFIXES.get(suffix);
    } else if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
      final long exponent = exponent(text, suffix.substring(1));
      if (mantissa.signum() == 0) {
        return 0L;
      }
      if (exponent > MAX_INTEGER_DIGITS * 2L) {
        throw tooLarge(text, unitName);
      }
      if (exponent < -MAX_INTEGER_DIGITS * 2L - mantissa.precision()) {
        // Far below one unit: the exact value is a tiny non-zero fraction, which rounds away
        // from zero to one unit.
        return mantissa.signum();
      }
      powerOfTen += (int) exponent;
    } else {
      throw new InvalidQuantityException(
          text,
          "unknown suffix \"" + suffix + "\" (expected one of n u m k M G T P E, Ki..Ei, e<n>)");
    }
    if (mantissa.signum() == 0) {
      return 0L;
    }
    final BigDecimal scaled = mantissa.scaleByPowerOfTen(powerOfTen);
    // Digits before the point; with at most 2^60 more from a binary suffix, anything past this
    // bound cannot fit a long.
    if (scaled.precision() - scaled.scale() > MAX_INTEGER_DIGITS) {
      throw tooLarge(text, unitName);
    }
    final BigDecimal exact =
        powerOfTwo == 0 ? scaled : scaled.multiply(new BigDecimal(BigInteger.TWO.pow(powerOfTwo)));
    final BigDecimal rounded = exact.setScale(0, RoundingMode.UP);
    if (rounded.compareTo(LONG_MAX) > 0 || rounded.compareTo(LONG_MIN) < 0) {
      throw tooLarge(text, unitName);
    }
    return rounded.longValueExact();
  }

  /** The index just past {@code [+-]digits[.digits]}. */
  private static int endOfNumber(String text) {
    int i = 0;
    if (text.charAt(0) == '+' || text.charAt(0) == '-') {
      i++;
    }
    while (i < text.length() && (Character.isDigit(text.charAt(i)) || text.charAt(i) == '.')) {
      i++;
    }
    return i;
  }

  private static BigDecimal mantissa(String text, String number) {
    final int signLength = number.startsWith("+") || number.startsWith("-") ? 1 : 0;
    final String unsigned = number.substring(signLength);
    final int point = unsigned.indexOf('.');
    final boolean hasDigit = unsigned.chars().anyMatch(c -> c >= '0' && c <= '9');
    final boolean asciiOnly = unsigned.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    if (!hasDigit || !asciiOnly || (point >= 0 && unsigned.indexOf('.', point + 1) >= 0)) {
      throw new InvalidQuantityException(text, "it does not start with a decimal number");
    }
    // BigDecimal rejects "5." and ".5" only in some forms: normalise both explicitly.
    final String normalised =
        (unsigned.startsWith(".") ? "0" : "")
            + (unsigned.endsWith(".") ? unsigned + "0" : unsigned);
    final BigDecimal magnitude = new BigDecimal(normalised);
    return number.startsWith("-") ? magnitude.negate() : magnitude;
  }

  private static long exponent(String text, String digits) {
    final int signLength = digits.startsWith("+") || digits.startsWith("-") ? 1 : 0;
    final String unsigned = digits.substring(signLength);
    if (unsigned.isEmpty() || !unsigned.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new InvalidQuantityException(text, "the exponent \"" + digits + "\" is not an integer");
    }
    // A very long exponent only needs to be known as "huge"; keep it within long arithmetic.
    final String trimmed = unsigned.replaceFirst("^0+(?=.)", "");
    final long magnitude = trimmed.length() > 12 ? Long.MAX_VALUE / 2 : Long.parseLong(trimmed);
    return digits.startsWith("-") ? -magnitude : magnitude;
  }

  private static InvalidQuantityException tooLarge(String text, String unitName) {
    return new InvalidQuantityException(
        text,
        "it does not fit a 64-bit integer of " + unitName + " (at most " + Long.MAX_VALUE + ")");
  }

  /** A text that is not a Kubernetes quantity, or one too large for canonical units. */
  public static final class InvalidQuantityException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String text;
    private final String reason;

    public InvalidQuantityException(String text, String reason) {
      super("\"" + text + "\" is not a valid quantity: " + reason);
      this.text = text;
      this.reason = reason;
    }

    /** The text that was rejected, as given. */
    public String text() {
      return text;
    }

    /** Why, without the text. */
    public String reason() {
      return reason;
    }
  }
}
