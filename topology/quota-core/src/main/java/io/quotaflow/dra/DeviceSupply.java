package io.quotaflow.dra;

import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.ResourceList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The devices ResourceSlices publish, as the quota resources they add to the cluster total
 * (semantics.md section 22.8). Pure and exact (sums saturate, as {@link ResourceList} does).
 *
 * <p>Each device of a pool's newest generation counts once, as the first mapped DeviceClass (by
 * class name) whose driver publishes it ({@link ClassDriver}, as {@code All} reads it): that
 * mapping's resource times its count, plus its capacity rules. A node-local slice's devices go to
 * their node ({@link #nodes}), counted there as the larger of them and the node's own allocatable
 * per resource; the devices of slices bound to no single node go to one node of their own, {@link
 * #UNBOUND_NODE}, which counts in the default tree only. A device no mapped class selects counts
 * nothing and is reported.
 *
 * @param byNode per node name, the resources of its node-local slices' devices
 * @param unbound the resources of the devices of slices bound to no single node
 * @param problems devices no mapped class selects, one line per driver
 */
public record DeviceSupply(
    Map<String, ResourceList> byNode, ResourceList unbound, List<String> problems) {

  /**
   * The name of the node that carries the devices of slices bound to no single node. Not a valid
   * Kubernetes node name (a colon), so it never meets a real node.
   */
  public static final String UNBOUND_NODE = "resourceslices:not-node-local";

  private static final DeviceSupply NONE =
      new DeviceSupply(Map.of(), ResourceList.empty(), List.of());

  public DeviceSupply {
    byNode = Map.copyOf(byNode);
    Objects.requireNonNull(unbound, "unbound");
    problems = List.copyOf(problems);
  }

  /** No devices: the nodes count as they are. */
  public static DeviceSupply none() {
    return NONE;
  }

  /** Whether {@code name} is the node of {@link #UNBOUND_NODE}: no node pool selects it. */
  public static boolean isUnboundNode(String name) {
    return UNBOUND_NODE.equals(name);
  }

  /** What the slices of {@code objects} add to the cluster total under {@code mappings}. */
  public static DeviceSupply of(DraObjects objects, DeviceClassMappings mappings) {
    if (objects.slices().isEmpty()) {
      return NONE;
    }
    final Map<String, DeviceClassMapping> byDriver = mappingsByDriver(objects, mappings);
    final Map<PoolKey, Long> newest = new HashMap<>();
    for (final SliceDevices slice : objects.slices()) {
      newest.merge(new PoolKey(slice.driver(), slice.pool()), slice.generation(), Math::max);
    }
    final List<SliceDevices> slices = new ArrayList<>(objects.slices());
    // One order whatever order the slices came in, so a device listed twice counts in one place.
    slices.sort(
        Comparator.comparing(SliceDevices::driver)
            .thenComparing(SliceDevices::pool)
            .thenComparing(SliceDevices::nodeName));
    final Map<String, ResourceList> byNode = new TreeMap<>();
    ResourceList unbound = ResourceList.empty();
    final Set<DeviceId> seen = new HashSet<>();
    final Map<String, Integer> unmapped = new TreeMap<>();
    for (final SliceDevices slice : slices) {
      if (slice.generation() < newest.get(new PoolKey(slice.driver(), slice.pool()))) {
        continue;
      }
      final DeviceClassMapping mapping = byDriver.get(slice.driver());
      for (final PublishedDevice device : slice.devices()) {
        if (!seen.add(device.id())) {
          continue;
        }
        if (mapping == null) {
          unmapped.merge(slice.driver(), 1, Integer::sum);
          continue;
        }
        final ResourceList amount = units(mapping, device);
        if (slice.nodeLocal()) {
          byNode.merge(slice.nodeName(), amount, ResourceList::plus);
        } else {
          unbound = unbound.plus(amount);
        }
      }
    }
    final List<String> problems = new ArrayList<>();
    unmapped.forEach(
        (driver, count) ->
            problems.add(
                "driver "
                    + driver
                    + " publishes "
                    + count
                    + (count == 1 ? " device" : " devices")
                    + " no mapped DeviceClass selects; not counted in the cluster total"));
    return new DeviceSupply(byNode, unbound, problems);
  }

  /**
   * {@code nodes} with the devices added: a node with node-local devices counts, per resource, the
   * larger of its allocatable and its devices (a device plugin and a DRA driver publish the same
   * GPU, so the two are never summed); the devices of slices bound to no node follow as one ready,
   * schedulable node named {@link #UNBOUND_NODE}. Node-local devices of a node not listed count
   * nothing. Without devices, {@code nodes} itself.
   */
  public List<QuotaNode> nodes(List<QuotaNode> nodes) {
    if (byNode.isEmpty() && unbound.isEmpty()) {
      return nodes;
    }
    final List<QuotaNode> result = new ArrayList<>(nodes.size() + 1);
    for (final QuotaNode node : nodes) {
      result.add(node(node));
    }
    unboundNode().ifPresent(result::add);
    return result;
  }

  /** {@code node} with its node-local devices counted, per resource the larger amount. */
  public QuotaNode node(QuotaNode node) {
    final ResourceList devices = byNode.get(node.name());
    if (devices == null) {
      return node;
    }
    ResourceList allocatable = node.allocatable();
    for (final String resource : devices.names()) {
      if (!allocatable.contains(resource) || devices.get(resource) > allocatable.get(resource)) {
        allocatable = allocatable.with(resource, devices.get(resource));
      }
    }
    return new QuotaNode(
        node.name(),
        allocatable,
        node.ready(),
        node.schedulable(),
        node.deleting(),
        node.problems(),
        node.labels());
  }

  /** The node that carries the devices of slices bound to no single node; empty when none. */
  public Optional<QuotaNode> unboundNode() {
    return unbound.isEmpty()
        ? Optional.empty()
        : Optional.of(QuotaNode.healthy(UNBOUND_NODE, unbound));
  }

  /** The device's resources under its mapping: the count, and each capacity rule rounded up. */
  private static ResourceList units(DeviceClassMapping mapping, PublishedDevice device) {
    final Map<String, Long> capacityUnits = new LinkedHashMap<>();
    for (final CapacityRule rule : mapping.capacities()) {
      capacityUnits.put(rule.resource(), rule.units(device.capacity(rule.capacity())));
    }
    return DeviceUnits.of(mapping, 1, capacityUnits);
  }

  /** Per driver, the first mapped class (by class name) that selects it. */
  private static Map<String, DeviceClassMapping> mappingsByDriver(
      DraObjects objects, DeviceClassMappings mappings) {
    final Map<String, DeviceClassMapping> byDriver = new HashMap<>();
    for (final DeviceClassMapping mapping : mappings.all()) {
      ClassDriver.of(mapping.deviceClass(), objects.deviceClass(mapping.deviceClass()))
          .ifPresent(driver -> byDriver.putIfAbsent(driver, mapping));
    }
    return byDriver;
  }

  private record PoolKey(String driver, String pool) {}
}
