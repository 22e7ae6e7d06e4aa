package io.quotaflow.tree;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/** Interns resource names to small dense ids, so that the core computes on primitive arrays. */
final class Dimensions {

  private final Map<String, Integer> ids = new HashMap<>();
  private String[] names = new String[8];
  private int count;
  private int[] sorted = new int[0];

  int intern(String name) {
    // A cluster has a handful of dimensions: a scan beats hashing the (often fresh) name string.
    if (count <= 8) {
      for (int i = 0; i < count; i++) {
        if (names[i].equals(name)) {
          return i;
        }
      }
    }
    final Integer id = ids.get(name);
    if (id != null) {
      return id;
    }
    if (count == names.length) {
      names = Arrays.copyOf(names, count * 2);
    }
    names[count] = name;
    ids.put(name, count);
    count++;
    sorted = null;
    return count - 1;
  }

  /** The id of a known name, or -1. */
  int id(String name) {
    final Integer id = ids.get(name);
    return id == null ? -1 : id;
  }

  String name(int id) {
    return names[id];
  }

  int count() {
    return count;
  }

  /** All ids ordered by name, for building sorted resource lists. */
  int[] sortedIds() {
    if (sorted == null) {
      final Integer[] boxed = new Integer[count];
      for (int i = 0; i < count; i++) {
        boxed[i] = i;
      }
      Arrays.sort(boxed, Comparator.comparing(i -> names[i]));
      sorted = new int[count];
      for (int i = 0; i < count; i++) {
        sorted[i] = boxed[i];
      }
    }
    return sorted;
  }
}
