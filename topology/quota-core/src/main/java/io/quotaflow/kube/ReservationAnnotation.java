package io.quotaflow.kube;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.quotaflow.quota.ReservationPercentage;
import io.quotaflow.quota.ReservationPolicy;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the ElasticQuota annotation {@code quotaflow.io/reservation}: a JSON object {@code
 * {"policy": "BestEffort"|"Guaranteed", "resource": {...}, "percentage": {"value": 0.2,
 * "dimensions": [...]}}}. Pure; never throws: whatever cannot be read becomes a {@link SpecProblem}
 * of the reservation (not of the group), so a bad annotation invalidates the reservation only.
 *
 * <p>Strict, so that a typo is reported rather than ignored: unknown fields, a policy other than
 * {@code BestEffort} (or Volcano's {@code Best-Effort}) and {@code Guaranteed}, a quantity that
 * does not parse or is negative, a percentage value that is not a JSON number or has more than 18
 * decimal places, dimensions that are not distinct non-empty names, and an annotation naming
 * neither {@code resource} nor {@code percentage}. Range rules (the value within [0, 1], amounts
 * within the group's max and the cluster) are {@code ReservationRules}', which need the cluster.
 */
public final class ReservationAnnotation {

  /** The field path of the annotation in problems. */
  public static final String FIELD = "metadata.annotations[" + QuotaLabels.RESERVATION + "]";

  private static final Set<String> FIELDS = Set.of("policy", "resource", "percentage");
  private static final Set<String> PERCENTAGE_FIELDS = Set.of("value", "dimensions");
  private static final JsonMapper JSON =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .build();

  /** The finest percentage value read: 18 decimal places. */
  static final int MAX_DECIMAL_PLACES = 18;

  /** Jackson's note of where its parse failed, cut down to what a user can act on. */
  private static final Pattern SOURCE_NOTE =
      Pattern.compile("\\s*\\(start marker at \\[Source:.*?]\\)");

  private ReservationAnnotation() {}

  /** Why the text is not JSON, with the column where reading stopped. */
  private static String jsonError(JsonProcessingException e) {
    final String why = SOURCE_NOTE.matcher(e.getOriginalMessage()).replaceAll("");
    return e.getLocation() == null
        ? why
        : why + " (at column " + e.getLocation().getColumnNr() + ")";
  }

  /** The reservation the annotation's text states; empty when {@code text} is null or blank. */
  public static Optional<ReservationSpec> read(String text) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    final JsonNode json;
    try {
      json = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      return Optional.of(
          ReservationSpec.unreadable(
              List.of(new SpecProblem(FIELD, "\"" + text + "\" is not JSON: " + jsonError(e)))));
    }
    if (json == null || !json.isObject()) {
      return Optional.of(
          ReservationSpec.unreadable(
              List.of(
                  new SpecProblem(
                      FIELD, "expected a JSON object with policy, resource and percentage"))));
    }
    final List<SpecProblem> problems = new ArrayList<>();
    unknownFields(json, FIELDS, FIELD, problems);
    final ReservationPolicy policy = policy(json.get("policy"), problems);
    final Optional<ResourceList> resource = resource(json.get("resource"), problems);
    final Optional<ReservationPercentage> percentage = percentage(json.get("percentage"), problems);
    if (!json.has("resource") && !json.has("percentage")) {
      problems.add(new SpecProblem(FIELD, "names neither resource nor percentage"));
    }
    return Optional.of(new ReservationSpec(policy, resource, percentage, problems));
  }

  private static void unknownFields(
      JsonNode object, Set<String> known, String field, List<SpecProblem> problems) {
    object
        .fieldNames()
        .forEachRemaining(
            name -> {
              if (!known.contains(name)) {
                problems.add(
                    new SpecProblem(
                        field + "." + name,
                        "unknown field; expected "
                            + String.join(", ", known.stream().sorted().toList())));
              }
            });
  }

  private static ReservationPolicy policy(JsonNode node, List<SpecProblem> problems) {
    if (node == null || node.isNull()) {
      return ReservationPolicy.BEST_EFFORT;
    }
    final Optional<ReservationPolicy> policy =
        node.isTextual() ? ReservationPolicy.fromLabel(node.asText()) : Optional.empty();
    if (policy.isEmpty()) {
      problems.add(
          new SpecProblem(FIELD + ".policy", node + " is not a policy: BestEffort or Guaranteed"));
      return ReservationPolicy.BEST_EFFORT;
    }
    return policy.get();
  }

  private static Optional<ResourceList> resource(JsonNode node, List<SpecProblem> problems) {
    final String field = FIELD + ".resource";
    if (node == null) {
      return Optional.empty();
    }
    if (!node.isObject()) {
      problems.add(new SpecProblem(field, "expected a JSON object of quantities"));
      return Optional.empty();
    }
    final Map<String, Object> quantities = new LinkedHashMap<>();
    for (final Map.Entry<String, JsonNode> entry : node.properties()) {
      final JsonNode value = entry.getValue();
      quantities.put(
          entry.getKey(),
          value.isTextual() || value.isNumber() ? value.asText() : value.toString());
    }
    final List<SpecProblem> quantityProblems = new ArrayList<>();
    final ResourceList amounts = ResourceReading.read(quantities, field, quantityProblems).values();
    amounts
        .asMap()
        .forEach(
            (dimension, amount) -> {
              if (amount < 0) {
                quantityProblems.add(
                    new SpecProblem(field + "[" + dimension + "]", "must not be negative"));
              }
            });
    if (!quantityProblems.isEmpty()) {
      problems.addAll(quantityProblems);
      return Optional.empty();
    }
    return Optional.of(amounts);
  }

  private static Optional<ReservationPercentage> percentage(
      JsonNode node, List<SpecProblem> problems) {
    final String field = FIELD + ".percentage";
    if (node == null) {
      return Optional.empty();
    }
    if (!node.isObject()) {
      problems.add(new SpecProblem(field, "expected a JSON object with value and dimensions"));
      return Optional.empty();
    }
    final int before = problems.size();
    unknownFields(node, PERCENTAGE_FIELDS, field, problems);
    final JsonNode value = node.get("value");
    BigDecimal share = BigDecimal.ZERO;
    if (value == null || !value.isNumber()) {
      problems.add(
          new SpecProblem(
              field + ".value",
              value == null
                  ? "is missing: the share of the cluster, e.g. 0.2"
                  : value + " is not a number"));
    } else {
      // Exact: the mapper reads decimals as BigDecimal; trailing zeros carry no meaning here.
      share = value.decimalValue().stripTrailingZeros();
      if (share.signum() == 0) {
        share = BigDecimal.ZERO;
      }
      // A share finer than this means nothing for amounts of at most 2^63, and exponents like
      // 1e-999999999 would cost the floor of the target a billion-digit power of ten.
      if (share.scale() > MAX_DECIMAL_PLACES) {
        problems.add(
            new SpecProblem(
                field + ".value",
                value.asText() + " has more than " + MAX_DECIMAL_PLACES + " decimal places"));
      }
    }
    final List<String> dimensions = dimensions(node.get("dimensions"), field, problems);
    if (problems.size() > before) {
      return Optional.empty();
    }
    return Optional.of(new ReservationPercentage(share, dimensions));
  }

  private static List<String> dimensions(JsonNode node, String parent, List<SpecProblem> problems) {
    final String field = parent + ".dimensions";
    if (node == null || node.isNull()) {
      return List.of();
    }
    if (!node.isArray()) {
      problems.add(new SpecProblem(field, "expected a JSON list of resource names"));
      return List.of();
    }
    final Set<String> names = new LinkedHashSet<>();
    for (final JsonNode element : node) {
      if (!element.isTextual() || element.asText().isEmpty()) {
        problems.add(new SpecProblem(field, "expected resource names, found " + element));
        return List.of();
      }
      if (!names.add(element.asText())) {
        problems.add(new SpecProblem(field, element.asText() + " is named twice"));
        return List.of();
      }
    }
    return List.copyOf(names);
  }
}
