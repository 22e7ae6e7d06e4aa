package io.quotaflow.kube;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.quota.SpecialGroups;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads an ElasticQuota ({@code scheduling.sigs.k8s.io/v1alpha1}, as a {@link
 * GenericKubernetesResource}) as a {@link QuotaGroup} (SPEC 3, 12). Pure: no I/O.
 *
 * <p>Nothing here throws on malformed content: a field that cannot be read becomes a {@link
 * SpecProblem} naming it, the field takes its default, and the group is still produced, because the
 * engine must know the group exists to mark it invalid (SPEC 9). An unreadable quantity in {@code
 * spec.min} or {@code spec.max} is left out of that list; an unreadable annotation is ignored as a
 * whole (an unreadable shared-weight falls back to the default weight, as in Koordinator).
 */
public final class ElasticQuotaAdapter {

  private static final JsonMapper JSON =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .build();

  private ElasticQuotaAdapter() {}

  public static QuotaGroup toQuotaGroup(GenericKubernetesResource quota) {
    final List<SpecProblem> problems = new ArrayList<>();
    final ObjectMeta meta = quota.getMetadata() == null ? new ObjectMeta() : quota.getMetadata();
    final Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
    final Map<String, String> annotations =
        meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();

    final String name = meta.getName() == null ? "" : meta.getName();
    if (name.isEmpty()) {
      problems.add(new SpecProblem("metadata.name", "an ElasticQuota needs a name"));
    }
    final Map<String, Object> spec =
        map(quota.getAdditionalProperties().get("spec"), "spec", problems);

    final QuotaGroup.Builder builder =
        QuotaGroup.builder(name)
            .parent(parent(labels))
            .parentGroup("true".equals(labels.get(QuotaLabels.IS_PARENT)))
            .allowLent(!"false".equals(labels.get(QuotaLabels.ALLOW_LENT_RESOURCE)))
            .min(resources(spec.get("min"), "spec.min", problems))
            .max(resources(spec.get("max"), "spec.max", problems))
            .namespaces(namespaces(annotations.get(QuotaLabels.NAMESPACES), problems))
            .treeId(labels.getOrDefault(QuotaLabels.TREE_ID, "").trim())
            .namespace(meta.getNamespace() == null ? "" : meta.getNamespace())
            .allowForceUpdate(
                "true".equals(labels.get(QuotaLabels.ALLOW_FORCE_UPDATE))
                    || "true".equals(annotations.get(QuotaLabels.ALLOW_FORCE_UPDATE)))
            .maxStrictCheckKeys(
                strictKeys(annotations.get(QuotaLabels.MAX_STRICT_CHECK_RESOURCE_KEYS), problems));
    resourceAnnotation(annotations, QuotaLabels.SHARED_WEIGHT, problems)
        .filter(ElasticQuotaAdapter::hasNonZero)
        .ifPresent(builder::sharedWeight);
    resourceAnnotation(annotations, QuotaLabels.LENDING_LIMIT, problems)
        .ifPresent(builder::lendingLimit);
    resourceAnnotation(annotations, QuotaLabels.BORROWING_LIMIT, problems)
        .ifPresent(builder::borrowingLimit);
    NamespaceSelectorAnnotation.read(annotations.get(QuotaLabels.NAMESPACE_SELECTOR), problems)
        .ifPresent(builder::namespaceSelector);
    // Its problems stay with the reservation: a bad one never invalidates the group's quota.
    ReservationAnnotation.read(annotations.get(QuotaLabels.RESERVATION))
        .ifPresent(builder::reservation);
    return builder.problems(problems).build();
  }

  private static String parent(Map<String, String> labels) {
    for (final String key : List.of(QuotaLabels.PARENT, QuotaLabels.PARENT_QUOTA_NAME)) {
      final String value = labels.get(key);
      if (value != null && !value.isEmpty()) {
        return value;
      }
    }
    return SpecialGroups.ROOT;
  }

  private static ResourceList resources(Object value, String field, List<SpecProblem> problems) {
    return ResourceReading.read(map(value, field, problems), field, problems).values();
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

  /** A JSON resource-list annotation; empty when absent, blank or unreadable (with a problem). */
  private static Optional<ResourceList> resourceAnnotation(
      Map<String, String> annotations, String key, List<SpecProblem> problems) {
    final String field = annotationField(key);
    final Optional<JsonNode> json = json(annotations.get(key), field, problems);
    if (json.isEmpty()) {
      return Optional.empty();
    }
    if (!json.get().isObject()) {
      problems.add(new SpecProblem(field, "expected a JSON object of quantities"));
      return Optional.empty();
    }
    final Map<String, Object> quantities = new LinkedHashMap<>();
    for (final Map.Entry<String, JsonNode> entry : json.get().properties()) {
      final JsonNode value = entry.getValue();
      quantities.put(
          entry.getKey(),
          value.isTextual() || value.isNumber() ? value.asText() : value.toString());
    }
    final List<SpecProblem> quantityProblems = new ArrayList<>();
    final ResourceReading reading = ResourceReading.read(quantities, field, quantityProblems);
    if (!quantityProblems.isEmpty()) {
      // A weight or limit with a hole in it would silently change the meaning of the rest.
      problems.addAll(quantityProblems);
      return Optional.empty();
    }
    return Optional.of(reading.values());
  }

  private static List<String> namespaces(String annotation, List<SpecProblem> problems) {
    final String field = annotationField(QuotaLabels.NAMESPACES);
    final Optional<JsonNode> json = json(annotation, field, problems);
    if (json.isEmpty()) {
      return List.of();
    }
    final List<String> namespaces = new ArrayList<>();
    if (json.get().isArray()) {
      for (final JsonNode element : json.get()) {
        if (!element.isTextual() || element.asText().isEmpty()) {
          problems.add(
              new SpecProblem(field, "expected a JSON list of namespace names, found " + element));
          return List.of();
        }
        namespaces.add(element.asText());
      }
      return namespaces;
    }
    problems.add(new SpecProblem(field, "expected a JSON list of namespace names"));
    return List.of();
  }

  /**
   * The resource names of {@code max-strict-check-resource-keys}: a JSON list of non-empty strings.
   * Anything else is a problem naming the annotation (tolerated: the group stays valid and no max
   * is checked strictly) and no key.
   */
  private static List<String> strictKeys(String annotation, List<SpecProblem> problems) {
    final String field = annotationField(QuotaLabels.MAX_STRICT_CHECK_RESOURCE_KEYS);
    final Optional<JsonNode> json = json(annotation, field, problems);
    if (json.isEmpty()) {
      return List.of();
    }
    if (!json.get().isArray()) {
      problems.add(
          new SpecProblem(field, "expected a JSON list of resource names, found " + json.get()));
      return List.of();
    }
    final List<String> keys = new ArrayList<>();
    for (final JsonNode element : json.get()) {
      if (!element.isTextual() || element.asText().isBlank()) {
        problems.add(
            new SpecProblem(field, "expected a JSON list of resource names, found " + element));
        return List.of();
      }
      if (!keys.contains(element.asText())) {
        keys.add(element.asText());
      }
    }
    return keys;
  }

  private static Optional<JsonNode> json(String text, String field, List<SpecProblem> problems) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(JSON.readTree(text));
    } catch (JsonProcessingException e) {
      problems.add(
          new SpecProblem(field, "\"" + text + "\" is not JSON: " + e.getOriginalMessage()));
      return Optional.empty();
    }
  }

  private static boolean hasNonZero(ResourceList weight) {
    // An all-zero weight means "not set" (SPEC 3): the group gets the default weight.
    return weight.asMap().values().stream().anyMatch(amount -> amount != 0);
  }

  private static String annotationField(String key) {
    return "metadata.annotations[" + key + "]";
  }
}
