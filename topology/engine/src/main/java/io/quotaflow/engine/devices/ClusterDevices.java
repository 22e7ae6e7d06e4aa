package io.quotaflow.engine.devices;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.quotaflow.dra.ClaimedDevices;
import io.quotaflow.dra.DeviceCharge;
import io.quotaflow.dra.DeviceSupply;
import io.quotaflow.dra.DraObjects;
import io.quotaflow.dra.SliceDevices;
import io.quotaflow.engine.convert.DraRecords;
import io.quotaflow.engine.convert.InputRecords;
import io.quotaflow.engine.store.InputId;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.schemas.DeviceClassState;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.ResourceClaimState;
import io.quotaflow.schemas.ResourceClaimTemplateState;
import io.quotaflow.schemas.ResourceSliceState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DRA objects of one cluster as the engine last read them, and the cluster's pods that name
 * claims (docs/semantics.md section 22): a pod's record becomes the core's pod with the devices of
 * its claims added ({@link ClaimedDevices}). A pod without claims is read exactly as {@link
 * InputRecords#pod} reads it, whatever DRA objects exist. Not thread-safe: one per cluster, used by
 * the task that holds the cluster.
 */
public final class ClusterDevices {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterDevices.class);

  private final ClaimedDevices claimed;
  // The cluster whose pods' claim problems are logged; empty: not logged.
  private final Optional<String> reporting;
  // What was last logged per pod, so a problem is logged once, not at every charge.
  private final Map<PodRef, List<SpecProblem>> reported = new HashMap<>();
  private final Map<String, DeviceClass> classes = new HashMap<>();
  private final Map<InputId, ResourceClaim> claims = new HashMap<>();
  private final Map<InputId, ResourceClaimTemplate> templates = new HashMap<>();
  private final Map<String, SliceDevices> slices = new HashMap<>();
  // Sorted, so pods are charged again in one order after every change.
  private final Map<PodRef, PodState> claimants = new TreeMap<>();
  // The cluster's nodes as read, before their slices' devices are counted (section 22.8).
  private final Map<String, QuotaNode> nodes = new HashMap<>();
  // Built on first use after a change: a burst of DRA events costs one build.
  private DraObjects objects = DraObjects.empty();
  private DeviceSupply supply = DeviceSupply.none();
  private boolean stale;
  // The supply the nodes last handed out were counted with; its problems as last logged.
  private DeviceSupply applied = supply;
  private List<String> reportedSupply = List.of();

  /** The DRA objects of a cluster, its pods' claim problems not logged (admission's reads). */
  public ClusterDevices(final ClaimedDevices claimed) {
    this(claimed, Optional.empty());
  }

  private ClusterDevices(final ClaimedDevices claimed, final Optional<String> reporting) {
    this.claimed = Objects.requireNonNull(claimed, "claimed");
    this.reporting = reporting;
  }

  /**
   * The DRA objects of {@code cluster}, whose pods' claim problems (an unknown or unmapped class, a
   * claim or template not known) are logged once each: they are reported, not guessed.
   */
  public static ClusterDevices reporting(final String cluster, final ClaimedDevices claimed) {
    return new ClusterDevices(claimed, Optional.of(cluster));
  }

  /** Whether the kind is one of the DRA inputs this class keeps. */
  public static boolean isDra(final InputId.InputKind kind) {
    return switch (kind) {
      case DEVICE_CLASS, RESOURCE_CLAIM, RESOURCE_CLAIM_TEMPLATE, RESOURCE_SLICE -> true;
      case POD, QUOTA, NODE, PROFILE, PODGROUP -> false;
    };
  }

  /**
   * The pod of a record as the core counts it: with its claims' devices when it names claims.
   * Remembers it, so it is charged again when the DRA objects change.
   */
  public QuotaPod pod(final String namespace, final String name, final PodState state) {
    final QuotaPod read = InputRecords.pod(namespace, name, state);
    final PodRef ref = new PodRef(namespace, name);
    if (!DraRecords.hasClaims(state)) {
      claimants.remove(ref);
      reported.remove(ref);
      return read;
    }
    claimants.put(ref, state);
    final DeviceCharge charge = claimed.charge(DraRecords.pod(namespace, name, state), objects());
    report(ref, charge.problems());
    return ClaimedDevices.withCharge(read, charge);
  }

  /**
   * The node of a record as the core counts it: with the devices its node-local ResourceSlices
   * publish (docs/semantics.md section 22.8). Remembers it, so it is counted again when the slices
   * change. A node without slices is read exactly as {@link InputRecords#node} reads it.
   */
  public QuotaNode node(final String name, final NodeState state) {
    final QuotaNode read = InputRecords.node(name, state);
    nodes.put(name, read);
    return supply().node(read);
  }

  /** Forgets a node that is gone. */
  public void removeNode(final String name) {
    nodes.remove(name);
  }

  /**
   * Every node remembered, with its slices' devices, and the node of the devices of slices bound to
   * no single node ({@link DeviceSupply#UNBOUND_NODE}) when there are any: a whole cluster's nodes,
   * as a restart routes them.
   */
  public List<QuotaNode> nodes() {
    applied = supply();
    return applied.nodes(new ArrayList<>(new TreeMap<>(nodes).values()));
  }

  /**
   * The nodes whose count changed with the DRA objects since the nodes were last handed out: per
   * node name, the node to put, or empty to remove it (only {@link DeviceSupply#UNBOUND_NODE} is
   * ever removed here). Empty when no slice's count changed.
   */
  public Map<String, Optional<QuotaNode>> nodeChanges() {
    final DeviceSupply now = supply();
    if (now.equals(applied)) {
      return Map.of();
    }
    final Map<String, Optional<QuotaNode>> changes = new TreeMap<>();
    final Set<String> names = new HashSet<>(applied.byNode().keySet());
    names.addAll(now.byNode().keySet());
    for (final String name : names) {
      final QuotaNode read = nodes.get(name);
      if (read != null && !Objects.equals(applied.byNode().get(name), now.byNode().get(name))) {
        changes.put(name, Optional.of(now.node(read)));
      }
    }
    if (!applied.unbound().equals(now.unbound())) {
      changes.put(DeviceSupply.UNBOUND_NODE, now.unboundNode());
    }
    applied = now;
    return changes;
  }

  /** What the slices add to the cluster total now; its problems logged once per change. */
  private DeviceSupply supply() {
    objects();
    return supply;
  }

  private void reportSupply(final DeviceSupply now) {
    if (reporting.isEmpty() || now.problems().equals(reportedSupply)) {
      return;
    }
    reportedSupply = now.problems();
    now.problems()
        .forEach(problem -> LOG.warn("cluster {}: ResourceSlices: {}", reporting.get(), problem));
  }

  /** Forgets a pod that is gone. */
  public void removePod(final PodRef ref) {
    claimants.remove(ref);
    reported.remove(ref);
  }

  private void report(final PodRef ref, final List<SpecProblem> problems) {
    if (reporting.isEmpty()) {
      return;
    }
    final List<SpecProblem> before = reported.getOrDefault(ref, List.of());
    if (problems.equals(before)) {
      return;
    }
    if (problems.isEmpty()) {
      reported.remove(ref);
      return;
    }
    reported.put(ref, List.copyOf(problems));
    // A pod whose devices cannot all be counted also counts as preemptible (semantics.md 22.9).
    LOG.warn(
        "cluster {}: pod {}/{} is charged without some of its claimed devices: {}",
        reporting.get(),
        ref.namespace(),
        ref.name(),
        problems.stream().map(SpecProblem::toString).collect(Collectors.joining("; ")));
  }

  /**
   * Takes a changed (or, with a null value, deleted) DRA object.
   *
   * @return the pods whose charge may have changed with it: every pod that names a claim (they are
   *     few, and a class or slice can change any of their charges)
   */
  public Map<PodRef, PodState> put(final InputId id, final Object value) {
    switch (id.kind()) {
      case DEVICE_CLASS -> {
        if (value == null) {
          classes.remove(id.name());
        } else {
          classes.put(id.name(), DraRecords.deviceClass(id.name(), (DeviceClassState) value));
        }
      }
      case RESOURCE_CLAIM -> {
        if (value == null) {
          claims.remove(id);
        } else {
          claims.put(
              id, DraRecords.resourceClaim(id.namespace(), id.name(), (ResourceClaimState) value));
        }
      }
      case RESOURCE_CLAIM_TEMPLATE -> {
        if (value == null) {
          templates.remove(id);
        } else {
          templates.put(
              id,
              DraRecords.resourceClaimTemplate(
                  id.namespace(), id.name(), (ResourceClaimTemplateState) value));
        }
      }
      case RESOURCE_SLICE -> {
        if (value == null) {
          slices.remove(id.name());
        } else {
          // A capacity the core cannot read is left out of the device; the slice's problems are
          // not a pod's, so they are not reported here.
          final List<SpecProblem> ignored = new ArrayList<>();
          slices.put(
              id.name(),
              SliceDevices.read(
                  DraRecords.resourceSlice(id.name(), (ResourceSliceState) value), ignored));
        }
      }
      case POD, QUOTA, NODE, PROFILE, PODGROUP ->
          throw new IllegalArgumentException("not a DRA input: " + id);
    }
    stale = true;
    return Map.copyOf(claimants);
  }

  /** Whether the cluster has no DRA object and no pod naming a claim. */
  public boolean isEmpty() {
    return classes.isEmpty()
        && claims.isEmpty()
        && templates.isEmpty()
        && slices.isEmpty()
        && claimants.isEmpty();
  }

  /** The cluster's DRA objects now. */
  public DraObjects objects() {
    if (stale) {
      objects =
          DraObjects.of(classes.values(), claims.values(), templates.values(), slices.values());
      supply = claimed.supply(objects);
      reportSupply(supply);
      stale = false;
    }
    return objects;
  }
}
