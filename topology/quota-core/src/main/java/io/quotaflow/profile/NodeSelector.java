package io.quotaflow.profile;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Kubernetes label selector ({@code matchLabels} and {@code matchExpressions}) over node labels,
 * as an ElasticQuotaProfile's {@code nodeSelector}. All of its terms must hold; an empty selector
 * selects every node, as in Kubernetes.
 *
 * @param matchLabels labels a node must carry with exactly these values
 * @param expressions requirements a node's labels must meet
 */
public record NodeSelector(Map<String, String> matchLabels, List<Requirement> expressions) {

  public NodeSelector {
    matchLabels = Map.copyOf(matchLabels);
    expressions = List.copyOf(expressions);
  }

  /** The selector that selects every node. */
  public static NodeSelector everything() {
    return new NodeSelector(Map.of(), List.of());
  }

  /** Whether a node with {@code labels} is selected. */
  public boolean matches(Map<String, String> labels) {
    for (final Map.Entry<String, String> entry : matchLabels.entrySet()) {
      if (!entry.getValue().equals(labels.get(entry.getKey()))) {
        return false;
      }
    }
    return expressions.stream().allMatch(requirement -> requirement.matches(labels));
  }

  /** One {@code matchExpressions} term. */
  public record Requirement(String key, Operator operator, List<String> values) {
    public Requirement {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(operator, "operator");
      values = List.copyOf(values);
    }

    boolean matches(Map<String, String> labels) {
      final String value = labels.get(key);
      return switch (operator) {
        case IN -> value != null && values.contains(value);
        case NOT_IN -> value == null || !values.contains(value);
        case EXISTS -> value != null;
        case DOES_NOT_EXIST -> value == null;
      };
    }
  }

  /** The operators of a label selector's expressions. */
  public enum Operator {
    IN("In"),
    NOT_IN("NotIn"),
    EXISTS("Exists"),
    DOES_NOT_EXIST("DoesNotExist");

    private final String spelling;

    Operator(String spelling) {
      this.spelling = spelling;
    }

    /** The spelling Kubernetes uses ({@code In}, {@code NotIn}, ...). */
    public String spelling() {
      return spelling;
    }

    /** The operator spelled {@code text}, or null. */
    public static Operator of(String text) {
      for (final Operator operator : values()) {
        if (operator.spelling.equals(text)) {
          return operator;
        }
      }
      return null;
    }
  }
}
