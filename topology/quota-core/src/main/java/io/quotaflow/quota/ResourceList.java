package io.quotaflow.quota;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
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
 *
 * <p>Held as two parallel arrays sorted by name: the quota core builds millions of these small
 * lists (a handful of dimensions each), where a tree map per list cost most of the allocation.
 */
public final class ResourceList {

  public static final String CPU = "cpu";
  public static final String MEMORY = "memory";

  private static final String[] NO_NAMES = new String[0];
  private static final long[] NO_AMOUNTS = new long[0];
  private static final ResourceList EMPTY = new ResourceList(NO_NAMES, NO_AMOUNTS);

  /** Distinct, sorted by {@link String#compareTo}. */
  private final String[] names;

  /** {@code amounts[i]} belongs to {@code names[i]}. */
  private final long[] amounts;

  private ResourceList(String[] names, long[] amounts) {
    this.names = names;
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
    final int size = amounts.size();
    final String[] names = new String[size];
    final long[] values = new long[size];
    int i = 0;
    for (final Map.Entry<String, Long> entry : amounts.entrySet()) {
      final String name = Objects.requireNonNull(entry.getKey(), "resource name");
      names[i] = name;
      values[i] = Objects.requireNonNull(entry.getValue(), () -> "amount of " + name);
      i++;
    }
    sort(names, values, size);
    return new ResourceList(names, values);
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

  /** Sorts the first {@code size} names (distinct) and their amounts by name: insertion sort. */
  private static void sort(String[] names, long[] amounts, int size) {
    for (int i = 1; i < size; i++) {
      final String name = names[i];
      if (names[i - 1].compareTo(name) <= 0) {
        continue;
      }
      final long amount = amounts[i];
      int j = i - 1;
      while (j >= 0 && names[j].compareTo(name) > 0) {
        names[j + 1] = names[j];
        amounts[j + 1] = amounts[j];
        j--;
      }
      names[j + 1] = name;
      amounts[j + 1] = amount;
    }
  }

  /** A builder; putting a name again replaces its amount. */
  public static Builder builder() {
    return new Builder();
  }

  /** Collects amounts for one list; {@link #build()} may be called once. */
  public static final class Builder {
    private String[] names = new String[4];
    private long[] amounts = new long[4];
    private int size;
    private boolean sorted = true;

    private Builder() {}

    public Builder put(String name, long amount) {
      Objects.requireNonNull(name, "resource name");
      if (size > 0) {
        final int order = names[size - 1].compareTo(name);
        if (order == 0) {
          amounts[size - 1] = amount;
          return this;
        }
        if (order > 0) {
          final int at = indexOf(names, size, name);
          if (at >= 0) {
            amounts[at] = amount;
            return this;
          }
          sorted = false;
        }
      }
      if (size == names.length) {
        names = Arrays.copyOf(names, size * 2);
        amounts = Arrays.copyOf(amounts, size * 2);
      }
      names[size] = name;
      amounts[size] = amount;
      size++;
      return this;
    }

    public ResourceList build() {
      if (names == null) {
        throw new IllegalStateException("already built");
      }
      final String[] builtNames = names.length == size ? names : Arrays.copyOf(names, size);
      final long[] builtAmounts = amounts.length == size ? amounts : Arrays.copyOf(amounts, size);
      names = null;
      amounts = null;
      if (size == 0) {
        return EMPTY;
      }
      if (!sorted) {
        sort(builtNames, builtAmounts, size);
      }
      return new ResourceList(builtNames, builtAmounts);
    }
  }

  /** The position of {@code name} among the first {@code size} names, or -1. */
  private static int indexOf(String[] names, int size, String name) {
    for (int i = 0; i < size; i++) {
      if (names[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  private int indexOf(String name) {
    final String[] own = names;
    if (own.length <= 8) {
      for (int i = 0; i < own.length; i++) {
        if (own[i].equals(name)) {
          return i;
        }
      }
      return -1;
    }
    final int at = Arrays.binarySearch(own, name);
    return at >= 0 ? at : -1;
  }

  /** The amount of a dimension, 0 when absent. */
  public long get(String name) {
    final int at = indexOf(Objects.requireNonNull(name, "resource name"));
    return at < 0 ? 0L : amounts[at];
  }

  public boolean contains(String name) {
    return indexOf(Objects.requireNonNull(name, "resource name")) >= 0;
  }

  public boolean isEmpty() {
    return names.length == 0;
  }

  /** How many dimensions are present. */
  public int size() {
    return names.length;
  }

  /**
   * The name of the {@code i}-th dimension in name order ({@code 0 <= i < size()}): with {@link
   * #amountAt}, a walk over the list that allocates nothing, for the quota core's loaders.
   */
  public String nameAt(int i) {
    return names[i];
  }

  /** The amount of the {@code i}-th dimension in name order (see {@link #nameAt}). */
  public long amountAt(int i) {
    return amounts[i];
  }

  /** The dimensions present, sorted by name. */
  public Set<String> names() {
    return new NameSet();
  }

  /** A sorted, unmodifiable view. */
  public Map<String, Long> asMap() {
    return new MapView();
  }

  /** This list with one dimension set. */
  public ResourceList with(String name, long amount) {
    Objects.requireNonNull(name, "resource name");
    final int at = indexOf(name);
    if (at >= 0) {
      final long[] copy = amounts.clone();
      copy[at] = amount;
      return new ResourceList(names, copy);
    }
    final int size = names.length;
    final String[] newNames = Arrays.copyOf(names, size + 1);
    final long[] newAmounts = Arrays.copyOf(amounts, size + 1);
    newNames[size] = name;
    newAmounts[size] = amount;
    sort(newNames, newAmounts, size + 1);
    return new ResourceList(newNames, newAmounts);
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
    final int size = this.names.length;
    final String[] kept = new String[size];
    final long[] keptAmounts = new long[size];
    int n = 0;
    for (int i = 0; i < size; i++) {
      if (names.contains(this.names[i])) {
        kept[n] = this.names[i];
        keptAmounts[n] = amounts[i];
        n++;
      }
    }
    if (n == size) {
      return this;
    }
    return n == 0 ? EMPTY : new ResourceList(Arrays.copyOf(kept, n), Arrays.copyOf(keptAmounts, n));
  }

  /** A merge of the two sorted lists. */
  private ResourceList combine(ResourceList other, LongBinaryOperator op) {
    if (other.isEmpty()) {
      return this;
    }
    final String[] a = names;
    final String[] b = other.names;
    final String[] merged = new String[a.length + b.length];
    final long[] values = new long[a.length + b.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length || j < b.length) {
      final int order = i >= a.length ? 1 : j >= b.length ? -1 : a[i].compareTo(b[j]);
      if (order < 0) {
        merged[n] = a[i];
        values[n] = op.applyAsLong(amounts[i], 0L);
        i++;
      } else if (order > 0) {
        merged[n] = b[j];
        values[n] = op.applyAsLong(0L, other.amounts[j]);
        j++;
      } else {
        merged[n] = a[i];
        values[n] = op.applyAsLong(amounts[i], other.amounts[j]);
        i++;
        j++;
      }
      n++;
    }
    return n == merged.length
        ? new ResourceList(merged, values)
        : new ResourceList(Arrays.copyOf(merged, n), Arrays.copyOf(values, n));
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
    return o instanceof ResourceList other
        && Arrays.equals(names, other.names)
        && Arrays.equals(amounts, other.amounts);
  }

  /** The hash of {@link #asMap()}, as for any map. */
  @Override
  public int hashCode() {
    int hash = 0;
    for (int i = 0; i < names.length; i++) {
      hash += names[i].hashCode() ^ Long.hashCode(amounts[i]);
    }
    return hash;
  }

  /** As a sorted map prints: {@code {cpu=1000, memory=1024}}. */
  @Override
  public String toString() {
    final StringBuilder text = new StringBuilder("{");
    for (int i = 0; i < names.length; i++) {
      if (i > 0) {
        text.append(", ");
      }
      text.append(names[i]).append('=').append(amounts[i]);
    }
    return text.append('}').toString();
  }

  /** Walks the slots in name order; {@link #at} is what one slot yields. */
  private abstract class SlotIterator<T> implements Iterator<T> {
    private int next;

    @Override
    public final boolean hasNext() {
      return next < names.length;
    }

    @Override
    public final T next() {
      if (next >= names.length) {
        throw new NoSuchElementException();
      }
      return at(next++);
    }

    abstract T at(int slot);
  }

  /** The names, read only, in order. */
  private final class NameSet extends AbstractSet<String> {
    @Override
    public Iterator<String> iterator() {
      return new SlotIterator<>() {
        @Override
        String at(int slot) {
          return names[slot];
        }
      };
    }

    @Override
    public int size() {
      return names.length;
    }

    @Override
    public boolean contains(Object o) {
      return o instanceof String name && indexOf(name) >= 0;
    }
  }

  /** The entries, read only, in name order. */
  private final class MapView extends AbstractMap<String, Long> {
    @Override
    public Set<Map.Entry<String, Long>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public Iterator<Map.Entry<String, Long>> iterator() {
          return new SlotIterator<>() {
            @Override
            Map.Entry<String, Long> at(int slot) {
              return new SimpleImmutableEntry<>(names[slot], amounts[slot]);
            }
          };
        }

        @Override
        public int size() {
          return names.length;
        }
      };
    }

    @Override
    public int size() {
      return names.length;
    }

    @Override
    public boolean containsKey(Object key) {
      return key instanceof String name && indexOf(name) >= 0;
    }

    @Override
    public Long get(Object key) {
      if (!(key instanceof String name)) {
        return null;
      }
      final int at = indexOf(name);
      return at < 0 ? null : amounts[at];
    }

    @Override
    public Set<String> keySet() {
      return new NameSet();
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super Long> action) {
      for (int i = 0; i < names.length; i++) {
        action.accept(names[i], amounts[i]);
      }
    }
  }
}
