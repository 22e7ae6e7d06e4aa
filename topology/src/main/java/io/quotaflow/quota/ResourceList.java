package io.quotaflow.quota;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongBinaryOperator;

/**
 * An immutable list of resource amounts in canonical integer units (SPEC 2): {@code cpu} in
 * milli-cores, every other resource in whole units (bytes, devices, counts).
 *
 * <p>Names are kept sorted so that iteration, {@code equals} and printing are deterministic. A
 * dimension that is absent is not the same as a dimension present with 0: {@link #contains}
 * distinguishes them, because a quota group "tracks" exactly the dimensions that appear in its min
 * or max (SPEC 3). {@link #get} returns 0 for an absent dimension. Arithmetic saturates at {@link
 * Long#MAX_VALUE} and {@link Long#MIN_VALUE} instead of overflowing.
 */
public final class ResourceList {

  public static final String CPU = "cpu";
  public static final String MEMORY = "memory";

  private static final ResourceList EMPTY = new ResourceList(new TreeMap<>());

  private final TreeMap<String, Long> amounts;

  private ResourceList(TreeMap<String, Long> amounts) {
    this.amounts = amounts;
  }

  public static ResourceList empty() {
    return EMPTY;
  }

  /** A list from a map of canonical amounts; the map is copied. */
  public static ResourceList of(Map<String, Long> amounts) {
    if (amounts.isEmpty()) {
      return EMPTY;
    }
    final TreeMap<String, Long> copy = new TreeMap<>();
    amounts.forEach(
        (name, amount) ->
            copy.put(
                Objects.requireNonNull(name, "resource name"),
                Objects.requireNonNull(amount, () -> "amount of " + name)));
    return new ResourceList(copy);
  }

  public static ResourceList of(String name, long amount) {
    return of(Map.of(name, amount));
  }

  public static ResourceList of(String name1, long amount1, String name2, long amount2) {
    return of(Map.of(name1, amount1, name2, amount2));
  }

  public static ResourceList of(
      String name1, long amount1, String name2, long amount2, String name3, long amount3) {
    return of(Map.of(name1, amount1, name2, amount2, name3, amount3));
  }

  /** A builder that hands its map over to the list it builds, without copying. */
  public static Builder builder() {
    return new Builder();
  }

  /** Collects amounts for one list; {@link #build()} may be called once. */
  public static final class Builder {
    private TreeMap<String, Long> amounts = new TreeMap<>();

    private Builder() {}

    public Builder put(String name, long amount) {
      amounts.put(Objects.requireNonNull(name, "resource name"), amount);
      return this;
    }

    public ResourceList build() {
      final TreeMap<String, Long> built = amounts;
      amounts = null;
      return built.isEmpty() ? EMPTY : new ResourceList(built);
    }
  }

  /** The amount of a dimension, 0 when absent. */
  public long get(String name) {
    final Long amount = amounts.get(name);
    return amount == null ? 0L : amount;
  }

  public boolean contains(String name) {
    return amounts.containsKey(name);
  }

  public boolean isEmpty() {
    return amounts.isEmpty();
  }

  /** The dimensions present, sorted by name. */
  public Set<String> names() {
    return Collections.unmodifiableSet(amounts.keySet());
  }

  /** A sorted, unmodifiable view. */
  public Map<String, Long> asMap() {
    return Collections.unmodifiableSortedMap(amounts);
  }

  /** This list with one dimension set. */
  public ResourceList with(String name, long amount) {
    final TreeMap<String, Long> copy = new TreeMap<>(amounts);
    copy.put(name, amount);
    return new ResourceList(copy);
  }

  /** Union of dimensions; a dimension absent on one side counts as 0. Saturating. */
  public ResourceList plus(ResourceList other) {
    return combine(other, ResourceList::saturatedAdd);
  }

  /** Union of dimensions; a dimension absent on one side counts as 0. Saturating. */
  public ResourceList minus(ResourceList other) {
    return combine(other, ResourceList::saturatedSubtract);
  }

  /** This list restricted to the given dimensions. */
  public ResourceList only(Set<String> names) {
    final TreeMap<String, Long> kept = new TreeMap<>();
    amounts.forEach(
        (name, amount) -> {
          if (names.contains(name)) {
            kept.put(name, amount);
          }
        });
    return kept.size() == amounts.size() ? this : new ResourceList(kept);
  }

  private ResourceList combine(ResourceList other, LongBinaryOperator op) {
    if (other.isEmpty()) {
      return this;
    }
    final TreeMap<String, Long> result = new TreeMap<>(amounts);
    other.amounts.forEach((name, amount) -> result.put(name, op.applyAsLong(get(name), amount)));
    amounts.forEach(
        (name, amount) -> {
          if (!other.contains(name)) {
            result.put(name, op.applyAsLong(amount, 0L));
          }
        });
    return new ResourceList(result);
  }

  public static long saturatedAdd(long a, long b) {
    final long sum = a + b;
    // Overflow happened iff both operands have the same sign and the sum's sign differs.
    if (((a ^ sum) & (b ^ sum)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return sum;
  }

  public static long saturatedSubtract(long a, long b) {
    final long difference = a - b;
    if (((a ^ b) & (a ^ difference)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return difference;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ResourceList other && amounts.equals(other.amounts);
  }

  @Override
  public int hashCode() {
    return amounts.hashCode();
  }

  @Override
  public String toString() {
    return amounts.toString();
  }
}
