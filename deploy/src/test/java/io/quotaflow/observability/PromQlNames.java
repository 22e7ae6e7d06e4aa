package io.quotaflow.observability;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads (or a Grafana variable query such as {@code
 * label_values(metric{...}, label)}): what is left once strings, label matchers, ranges, grouping
 * label lists, Grafana variables, functions, aggregations and keywords are taken out.
 */
final class PromQlNames {

  private static final Pattern STRING =
      Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
  private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
  private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
  private static final Pattern GROUPING =
      Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{?\\w+}?");
  private static final Pattern LABEL_VALUES =
      Pattern.compile("label_values\\((.*),\\s*\\w+\\s*\\)");
  private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.:])[a-zA-Z_:][\\w:]*");

  private static final Set<String> WORDS =
      Set.of(
          "and",
          "or",
          "unless",
          "bool",
          "offset",
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "group_right",
          "sum",
          "min",
          "max",
          "avg",
          "group",
          "stddev",
          "stdvar",
          "count",
          "count_values",
          "bottomk",
          "topk",
          "quantile",
          "inf",
          "nan");

  private PromQlNames() {}

  /** The metric names {@code expression} reads. */
  static Set<String> of(final String expression) {
    String text = expression;
    final Matcher labelValues = LABEL_VALUES.matcher(text);
    if (labelValues.find()) {
      text = labelValues.group(1);
    }
    text = STRING.matcher(text).replaceAll(" ");
    text = MATCHERS.matcher(text).replaceAll(" ");
    text = RANGE.matcher(text).replaceAll(" ");
    text = VARIABLE.matcher(text).replaceAll(" ");
    text = GROUPING.matcher(text).replaceAll(" ");
    final Set<String> names = new TreeSet<>();
    final Matcher identifier = IDENTIFIER.matcher(text);
    while (identifier.find()) {
      final String name = identifier.group();
      final boolean isFunction = text.substring(identifier.end()).stripLeading().startsWith("(");
      if (!isFunction && !WORDS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
        names.add(name);
      }
    }
    return names;
  }
}
