package io.quotaflow.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.quotaflow.profile.NodeSelector;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.ResourceRatio;
import io.quotaflow.quota.SpecProblem;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an ElasticQuotaProfile ({@code quota.koordinator.sh/v1alpha1}) as a {@link QuotaProfile}.
 * Pure. Like {@link ElasticQuotaAdapter} it never throws: a field that cannot be read becomes a
 * {@link SpecProblem} and takes its default (ratio 1; a selector that cannot be read selects no
 * node), and the profile is still produced so that its tree's root can carry the reason.
 */
public final class ElasticQuotaProfileAdapter {

  private ElasticQuotaProfileAdapter() {}

  public static QuotaProfile toQuotaProfile(GenericKubernetesResource resource) {
    final List<SpecProblem> problems = new ArrayList<>();
    final ObjectMeta meta =
        resource.getMetadata() == null ? new ObjectMeta() : resource.getMetadata();
    final String name = meta.getName() == null ? "" : meta.getName();
    final Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
    final String labelledTree = labels.getOrDefault(QuotaLabels.TREE_ID, "").trim();
    final Map<String, Object> spec =
        map(resource.getAdditionalProperties().get("spec"), "spec", problems);
    final String quotaName = text(spec.get("quotaName"));
    return new QuotaProfile(
        name,
        labelledTree.isEmpty() ? name : labelledTree,
        quotaName,
        strings(spec.get("quotaLabels"), "spec.quotaLabels", problems),
        ratio(spec.get("resourceRatio"), problems),
        selector(spec.get("nodeSelector"), problems),
        problems);
  }

  private static ResourceRatio ratio(Object value, List<SpecProblem> problems) {
    if (value == null || text(value).isBlank()) {
      return ResourceRatio.ONE;
    }
    try {
      return new ResourceRatio(new BigDecimal(text(value).trim()));
    } catch (NumberFormatException e) {
      problems.add(new SpecProblem("spec.resourceRatio", "\"" + value + "\" is not a number"));
      return ResourceRatio.ONE;
    }
  }

  private static NodeSelector selector(Object value, List<SpecProblem> problems) {
    if (value == null) {
      problems.add(new SpecProblem("spec.nodeSelector", "is required"));
      return unreadable();
    }
    final List<SpecProblem> found = new ArrayList<>();
    final Map<String, Object> selector = map(value, "spec.nodeSelector", found);
    final Map<String, String> matchLabels =
        strings(selector.get("matchLabels"), "spec.nodeSelector.matchLabels", found);
    final List<NodeSelector.Requirement> expressions = new ArrayList<>();
    final Object list = selector.get("matchExpressions");
    if (list != null && !(list instanceof List<?>)) {
      found.add(new SpecProblem("spec.nodeSelector.matchExpressions", "expected a list"));
    } else if (list != null) {
      int index = 0;
      for (final Object item : (List<?>) list) {
        final String field = "spec.nodeSelector.matchExpressions[" + index++ + "]";
        final Map<String, Object> term = map(item, field, found);
        final NodeSelector.Operator operator = NodeSelector.Operator.of(text(term.get("operator")));
        final String key = text(term.get("key"));
        final List<String> values = new ArrayList<>();
        if (term.get("values") instanceof List<?> given) {
          given.forEach(v -> values.add(text(v)));
        }
        if (key.isEmpty() || operator == null) {
          found.add(
              new SpecProblem(
                  field, "needs a key and an operator (In, NotIn, Exists, DoesNotExist)"));
        } else {
          expressions.add(new NodeSelector.Requirement(key, operator, values));
        }
      }
    }
    problems.addAll(found);
    return found.isEmpty() ? new NodeSelector(matchLabels, expressions) : unreadable();
  }

  /** What an unreadable selector selects: nothing (a key no node can carry). */
  private static NodeSelector unreadable() {
    return new NodeSelector(
        Map.of(),
        List.of(
            new NodeSelector.Requirement(
                "quotaflow.io/unreadable-selector", NodeSelector.Operator.IN, List.of())));
  }

  private static Map<String, String> strings(
      Object value, String field, List<SpecProblem> problems) {
    final Map<String, String> result = new LinkedHashMap<>();
    map(value, field, problems).forEach((key, v) -> result.put(key, text(v)));
    return result;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value, String field, List<SpecProblem> problems) {
    if (value == null) {
      return Map.of();
    }
    if (value instanceof Map<?, ?> map) {
      return (Map<String, Object>) map;
    }
    problems.add(new SpecProblem(field, "expected a map, found \"" + value + "\""));
    return Map.of();
  }

  private static String text(Object value) {
    return value == null ? "" : value.toString();
  }
}
