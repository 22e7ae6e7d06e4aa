package io.quotaflow.tree;

import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.ResourceList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cluster total (SPEC 3): the sum of the allocatable resources of the nodes that count (not
 * being deleted; optionally only Ready and schedulable ones), kept exactly per dimension as nodes
 * come and go. The root distributes it (SPEC 7) less what the special groups use (SPEC 8).
 */
final class NodeTotals {

  private final GroupTable t;
  private final QuotaOptions options;
  private final Map<String, QuotaNode> nodes = new HashMap<>();
  private final Map<String, ResourceList> countedAllocatable = new HashMap<>();
  private final ExactSums total = new ExactSums(1);

  /** Per dimension: how many counted nodes have it. */
  private int[] nodeDimCount = new int[0];

  /** The total changed since {@link #refresh} last took it. */
  private boolean dirty = true;

  /** The total as of the last {@link #refresh}. */
  private ResourceList reported = ResourceList.empty();

  NodeTotals(GroupTable t, QuotaOptions options) {
    this.t = t;
    this.options = options;
  }

  /** Makes room for {@code count} dimensions. */
  void syncDimensions(int count) {
    if (nodeDimCount.length < count) {
      nodeDimCount = Arrays.copyOf(nodeDimCount, count);
      total.ensure(count, 1);
    }
  }

  /**
   * Adds or replaces a node; {@code onNewDimensions} runs after its dimensions are interned and
   * before they are counted.
   */
  void put(QuotaNode node, Runnable onNewDimensions) {
    final QuotaNode old = nodes.put(node.name(), node);
    if (node.equals(old)) {
      return;
    }
    uncount(node.name());
    if (!node.deleting()
        && (!options.onlyReadySchedulableNodes() || (node.ready() && node.schedulable()))) {
      final ResourceList allocatable =
          PodAccounting.derive(node.allocatable(), options.derivedResources());
      countedAllocatable.put(node.name(), allocatable);
      allocatable.asMap().forEach((dimension, amount) -> t.dims.intern(dimension));
      onNewDimensions.run();
      allocatable
          .asMap()
          .forEach(
              (dimension, amount) -> {
                final int d = t.dims.id(dimension);
                total.add(d, 0, amount);
                nodeDimCount[d]++;
              });
    }
    dirty = true;
  }

  void remove(String name) {
    if (nodes.remove(name) != null) {
      uncount(name);
      dirty = true;
    }
  }

  private void uncount(String name) {
    final ResourceList old = countedAllocatable.remove(name);
    if (old != null) {
      old.asMap()
          .forEach(
              (dimension, amount) -> {
                final int d = t.dims.id(dimension);
                total.subtract(d, 0, amount);
                nodeDimCount[d]--;
              });
    }
  }

  /** Every node as last put, counted or not. */
  List<QuotaNode> inputs() {
    return new ArrayList<>(nodes.values());
  }

  /** The total in dimension {@code d}, saturated. */
  long total(int d) {
    return total.get(d, 0);
  }

  /** Whether some counted node has dimension {@code d}. */
  boolean hasDimension(int d) {
    return nodeDimCount[d] > 0;
  }

  /** Takes the total if it changed since the last call; true if it did. */
  boolean refresh() {
    if (!dirty) {
      return false;
    }
    final Map<String, Long> amounts = new TreeMap<>();
    for (int d = 0; d < t.dims.count(); d++) {
      if (nodeDimCount[d] > 0) {
        amounts.put(t.dims.name(d), total.get(d, 0));
      }
    }
    reported = ResourceList.of(amounts);
    dirty = false;
    return true;
  }

  /** The total as of the last {@link #refresh}, in the dimensions some node has. */
  ResourceList reported() {
    return reported;
  }
}
