package io.quotaflow.kube;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotaflow.quota.NamespaceSelector;
import io.quotaflow.quota.NamespaceSelector.Operator;
import io.quotaflow.quota.NamespaceSelector.Requirement;
import io.quotaflow.quota.SpecProblem;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the annotation {@code quotaflow.io/namespace-selector}: a Kubernetes label selector in
 * JSON, {@code {"matchLabels": {...}, "matchExpressions": [{"key", "operator", "values"}]}}.
 * Anything else is a problem naming the annotation, and the selector is then left out (it selects
 * nothing).
 */
public final class NamespaceSelectorAnnotation {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  private static final String FIELD =
      "metadata.annotations[" + QuotaLabels.NAMESPACE_SELECTOR + "]";

  private NamespaceSelectorAnnotation() {}

  /**
   * The selector {@code text} states; empty when absent or blank, or unreadable (with problems).
   */
  public static Optional<NamespaceSelector> read(String text, List<SpecProblem> problems) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    final JsonNode json;
    try {
      json = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      problems.add(
          new SpecProblem(FIELD, "\"" + text + "\" is not JSON: " + e.getOriginalMessage()));
      return Optional.empty();
    }
    final List<SpecProblem> found = new ArrayList<>();
    final NamespaceSelector selector = selector(json, found);
    problems.addAll(found);
    return found.isEmpty() ? Optional.of(selector) : Optional.empty();
  }

  private static NamespaceSelector selector(JsonNode json, List<SpecProblem> problems) {
    if (!json.isObject()) {
      problems.add(new SpecProblem(FIELD, "expected a label selector (a JSON object)"));
      return null;
    }
    final Map<String, String> labels = new LinkedHashMap<>();
    final List<Requirement> requirements = new ArrayList<>();
    for (final Map.Entry<String, JsonNode> entry : json.properties()) {
      switch (entry.getKey()) {
        case "matchLabels" -> matchLabels(entry.getValue(), labels, problems);
        case "matchExpressions" -> matchExpressions(entry.getValue(), requirements, problems);
        default ->
            problems.add(
                new SpecProblem(
                    FIELD,
                    "unknown field "
                        + entry.getKey()
                        + "; a label selector has matchLabels and matchExpressions"));
      }
    }
    return new NamespaceSelector(labels, requirements);
  }

  private static void matchLabels(
      JsonNode json, Map<String, String> labels, List<SpecProblem> problems) {
    if (!json.isObject()) {
      problems.add(new SpecProblem(FIELD, "matchLabels must be an object of label values"));
      return;
    }
    for (final Map.Entry<String, JsonNode> label : json.properties()) {
      if (!label.getValue().isTextual()) {
        problems.add(new SpecProblem(FIELD, "matchLabels." + label.getKey() + " must be a string"));
        continue;
      }
      labels.put(label.getKey(), label.getValue().asText());
    }
  }

  private static void matchExpressions(
      JsonNode json, List<Requirement> requirements, List<SpecProblem> problems) {
    if (!json.isArray()) {
      problems.add(new SpecProblem(FIELD, "matchExpressions must be a list"));
      return;
    }
    for (int i = 0; i < json.size(); i++) {
      final JsonNode expression = json.get(i);
      final String where = "matchExpressions[" + i + "]";
      final String key = expression.path("key").asText("");
      final Optional<Operator> operator = operator(expression.path("operator").asText(""));
      if (key.isEmpty() || operator.isEmpty()) {
        problems.add(
            new SpecProblem(
                FIELD,
                where
                    + " needs a key and an operator, one of "
                    + Arrays.stream(Operator.values()).map(Operator::spelling).toList()));
        continue;
      }
      final Set<String> values = new LinkedHashSet<>();
      final JsonNode valueList = expression.path("values");
      if (!valueList.isMissingNode() && !valueList.isNull()) {
        if (!valueList.isArray()) {
          problems.add(new SpecProblem(FIELD, where + ".values must be a list of strings"));
          continue;
        }
        valueList.forEach(value -> values.add(value.asText()));
      }
      if (operator.get().takesValues() == values.isEmpty()) {
        problems.add(
            new SpecProblem(
                FIELD,
                where
                    + ": "
                    + operator.get().spelling()
                    + (operator.get().takesValues()
                        ? " needs at least one value"
                        : " takes no values")));
        continue;
      }
      requirements.add(new Requirement(key, operator.get(), values));
    }
  }

  private static Optional<Operator> operator(String spelling) {
    return Arrays.stream(Operator.values()).filter(o -> o.spelling().equals(spelling)).findFirst();
  }
}
