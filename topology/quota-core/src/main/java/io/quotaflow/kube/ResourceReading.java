package io.quotaflow.kube;

import io.fabric8.kubernetes.api.model.Quantity;
import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.Quantities.InvalidQuantityException;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A resource list read from a map of quantities: the dimensions that parsed, and those that did not
 * (each of which also left a {@link SpecProblem}).
 */
record ResourceReading(ResourceList values, Set<String> unreadable) {

  ResourceReading {
    unreadable = Set.copyOf(unreadable);
  }

  static ResourceReading empty() {
    return new ResourceReading(ResourceList.empty(), Set.of());
  }

  /**
   * Reads {@code quantities} (values as fabric8 {@link Quantity}, strings or numbers) into
   * canonical units. A value that is not a quantity adds a problem named {@code field[resource]}
   * and its dimension is left out of the values.
   */
  static ResourceReading read(Map<String, ?> quantities, String field, List<SpecProblem> problems) {
    if (quantities == null || quantities.isEmpty()) {
      return empty();
    }
    final TreeMap<String, Long> values = new TreeMap<>();
    final Set<String> unreadable = new TreeSet<>();
    quantities.forEach(
        (resource, value) -> {
          final Optional<Long> amount =
              readOne(resource, value, field + "[" + resource + "]", problems);
          if (amount.isPresent()) {
            values.put(resource, amount.get());
          } else {
            unreadable.add(resource);
          }
        });
    return new ResourceReading(ResourceList.of(values), unreadable);
  }

  /**
   * One quantity in the canonical units of {@code resource}; empty (and a problem) if unreadable.
   */
  static Optional<Long> readOne(
      String resource, Object value, String field, List<SpecProblem> problems) {
    final Optional<String> text = text(value);
    if (text.isEmpty()) {
      problems.add(new SpecProblem(field, describe(value) + " is not a quantity"));
      return Optional.empty();
    }
    try {
      return Optional.of(Quantities.parse(resource, text.get()));
    } catch (InvalidQuantityException e) {
      problems.add(new SpecProblem(field, e.getMessage()));
      return Optional.empty();
    }
  }

  /** The quantity text of a model value: a fabric8 Quantity, a string or a number. */
  private static Optional<String> text(Object value) {
    if (value instanceof Quantity quantity) {
      return Optional.of(quantity.toString());
    }
    if (value instanceof String string) {
      return Optional.of(string);
    }
    if (value instanceof BigDecimal decimal) {
      return Optional.of(decimal.toString());
    }
    if (value instanceof Integer || value instanceof Long || value instanceof BigInteger) {
      return Optional.of(value.toString());
    }
    if (value instanceof Double || value instanceof Float) {
      // Double.toString gives the shortest text that reads back to the same double, so "0.1"
      // in YAML stays "0.1" here.
      return Optional.of(value.toString());
    }
    return Optional.empty();
  }

  private static String describe(Object value) {
    if (value == null) {
      return "an empty value";
    }
    if (value instanceof Map<?, ?>) {
      return "a map";
    }
    if (value instanceof List<?>) {
      return "a list";
    }
    return "\"" + value + "\"";
  }
}
