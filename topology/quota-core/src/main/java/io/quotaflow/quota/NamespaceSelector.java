package io.quotaflow.quota;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A Kubernetes label selector over namespaces' labels, as Kueue's ClusterQueue {@code
 * namespaceSelector}: the annotation {@code quotaflow.io/namespace-selector} of an ElasticQuota
 * binds the namespaces it selects to the group (issue 24). Every {@code matchLabels} entry and
 * every requirement must hold; an empty selector selects every namespace, as in Kubernetes.
 *
 * @param matchLabels labels a namespace must carry with these values
 * @param requirements the {@code matchExpressions}
 */
public record NamespaceSelector(Map<String, String> matchLabels, List<Requirement> requirements) {

  /** One {@code matchExpressions} entry. */
  public record Requirement(String key, Operator operator, Set<String> values) {
    public Requirement {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(operator, "operator");
      values = Set.copyOf(values);
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

  /** The operators of a label selector, spelled as Kubernetes spells them. */
  public enum Operator {
    IN("In"),
    NOT_IN("NotIn"),
    EXISTS("Exists"),
    DOES_NOT_EXIST("DoesNotExist");

    private final String spelling;

    Operator(String spelling) {
      this.spelling = spelling;
    }

    public String spelling() {
      return spelling;
    }

    /** Whether the operator takes values ({@code In}, {@code NotIn}); the others must have none. */
    public boolean takesValues() {
      return this == IN || this == NOT_IN;
    }
  }

  public NamespaceSelector {
    matchLabels = Map.copyOf(new TreeMap<>(matchLabels));
    requirements = List.copyOf(requirements);
  }

  /** Whether a namespace with {@code labels} is selected. */
  public boolean matches(Map<String, String> labels) {
    for (final Map.Entry<String, String> label : matchLabels.entrySet()) {
      if (!label.getValue().equals(labels.get(label.getKey()))) {
        return false;
      }
    }
    for (final Requirement requirement : requirements) {
      if (!requirement.matches(labels)) {
        return false;
      }
    }
    return true;
  }
}
