package io.quotaflow.admission.state;

import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.reservation.LockedNodes;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.tree.GroupDirectory;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One cluster's state as read from the stores at {@link #asOf}, copied and indexed once: immutable,
 * so any number of requests read it without locks while a newer copy replaces it.
 */
public final class ClusterSnapshot implements ClusterView {

  private final Instant asOf;
  private final List<GroupStatus> groups;
  private final List<QuotaGroup> quotas;
  private final GroupDirectory directory;
  private final Map<String, GroupStatus> byName;
  private final Map<String, List<GroupStatus>> byParent;
  private final Map<String, QuotaGroup> quotaByName;
  private final Map<String, ResourceList> ownRequests;
  private final Map<String, List<PodAssignment>> podsByGroup;
  private final Map<String, List<String>> childNames;
  private final Map<String, Instant> overUsedSince;
  private final Map<String, ReservationStatus> reservations;
  private final LockedNodes lockedNodes;
  private final Trees trees;

  /**
   * The quota trees of a cluster with ElasticQuotaProfiles (docs/semantics.md section 15), so that
   * an answer from a last state still judges a pod against its own tree and node pool.
   *
   * @param treeOf each group's tree
   * @param profiles the profile of each profile tree, by tree id
   * @param nodeLabels each node's labels, which the profiles' selectors match
   */
  private record Trees(
      Map<String, String> treeOf,
      Map<String, QuotaProfile> profiles,
      Map<String, Map<String, String>> nodeLabels) {
    static final Trees NONE = new Trees(Map.of(), Map.of(), Map.of());

    /** What {@code view} says of its trees; nothing is read for a cluster without profiles. */
    static Trees of(ClusterView view, List<GroupStatus> groups) {
      final Map<String, QuotaProfile> profiles = view.treeProfiles();
      if (profiles.isEmpty()) {
        return NONE;
      }
      final Map<String, String> treeOf = new HashMap<>();
      groups.forEach(status -> treeOf.put(status.name(), view.treeOf(status.name())));
      final Map<String, Map<String, String>> labels = new HashMap<>();
      view.inputs()
          .ifPresent(
              inputs -> inputs.nodes().forEach(node -> labels.put(node.name(), node.labels())));
      return new Trees(Map.copyOf(treeOf), Map.copyOf(profiles), Map.copyOf(labels));
    }
  }

  private ClusterSnapshot(
      Instant asOf,
      SnapshotReuse reuse,
      List<GroupStatus> groups,
      List<QuotaGroup> quotas,
      Map<String, ResourceList> ownRequests,
      Map<String, List<PodAssignment>> podsByGroup,
      Map<String, Instant> overUsedSince,
      Map<String, ReservationStatus> reservations,
      Trees trees) {
    this.asOf = Objects.requireNonNull(asOf, "asOf");
    final ClusterSnapshot before = reuse.previous().orElse(null);
    if (before == null) {
      this.trees = Objects.requireNonNull(trees, "trees");
      this.reservations = Map.copyOf(reservations);
      this.lockedNodes = LockedNodes.of(this.reservations);
      this.overUsedSince = Map.copyOf(overUsedSince);
      this.ownRequests = Map.copyOf(ownRequests);
    } else {
      this.trees = SnapshotReuse.either(trees, before.trees);
      final Map<String, ReservationStatus> reserving = Map.copyOf(reservations);
      if (reserving.equals(before.reservations)) {
        this.reservations = before.reservations;
        this.lockedNodes = before.lockedNodes;
      } else {
        this.reservations = reserving;
        this.lockedNodes = LockedNodes.of(reserving);
      }
      this.overUsedSince = SnapshotReuse.either(Map.copyOf(overUsedSince), before.overUsedSince);
      // Each request was reused only where the previous snapshot had that group's: with none
      // changed and as many, the key sets are the same.
      this.ownRequests =
          reuse.noOwnRequestChanged() && ownRequests.size() == before.ownRequests.size()
              ? before.ownRequests
              : Map.copyOf(ownRequests);
    }
    final List<QuotaGroup> specs = List.copyOf(quotas);
    if (before != null && specs.equals(before.quotas)) {
      this.quotas = before.quotas;
      this.directory = before.directory;
      this.quotaByName = before.quotaByName;
    } else {
      this.quotas = specs;
      this.directory = GroupDirectory.of(specs);
      final Map<String, QuotaGroup> byQuotaName = new HashMap<>();
      specs.forEach(quota -> byQuotaName.put(quota.name(), quota));
      this.quotaByName = Map.copyOf(byQuotaName);
    }
    // The statuses are the previous snapshot's own objects when unchanged, so an identity check
    // tells whether its indexes over them still hold.
    if (before != null
        && reuse.noGroupChanged()
        && SnapshotReuse.sameObjects(groups, before.groups)) {
      this.groups = before.groups;
      this.byName = before.byName;
      this.byParent = before.byParent;
      this.childNames = before.childNames;
    } else {
      this.groups = List.copyOf(groups);
      final Map<String, GroupStatus> names = new HashMap<>();
      final Map<String, List<GroupStatus>> parents = new HashMap<>();
      for (final GroupStatus status : this.groups) {
        names.put(status.name(), status);
        parents.computeIfAbsent(status.parent(), p -> new ArrayList<>()).add(status);
      }
      this.byName = Map.copyOf(names);
      final Map<String, List<GroupStatus>> children = new HashMap<>();
      parents.forEach((parent, list) -> children.put(parent, List.copyOf(list)));
      this.byParent = Map.copyOf(children);
      final Map<String, List<String>> kids = new HashMap<>();
      children.forEach(
          (parent, list) -> kids.put(parent, list.stream().map(GroupStatus::name).toList()));
      this.childNames = Map.copyOf(kids);
    }
    // Each list was reused only where the previous snapshot had that group's list: with no list
    // changed and as many groups with pods, the key sets are the same.
    if (before != null
        && reuse.noPodListChanged()
        && podsByGroup.size() == before.podsByGroup.size()) {
      this.podsByGroup = before.podsByGroup;
    } else {
      this.podsByGroup = Map.copyOf(podsByGroup);
    }
  }

  /**
   * Copies everything {@code view} answers: every group's status, own request and pods, the
   * specifications, and for a cluster with profiles its trees and node labels. Each group costs a
   * lookup and a scan of its pods: done off the request path.
   *
   * @param asOf when the copy is taken
   * @throws StateUnavailableException when {@code view} stops being readable meanwhile
   */
  public static ClusterSnapshot capture(ClusterView view, Instant asOf) {
    return capture(view, asOf, Optional.empty());
  }

  /**
   * {@link #capture(ClusterView, Instant)}, reusing every part of {@code previous} that equals what
   * {@code view} answers now (a group's status, own request or pods; the specifications; the
   * indexes over unchanged parts): an unchanged group costs a read and a comparison, not a copy.
   * The result equals a whole capture of {@code view}; only the objects are shared.
   */
  public static ClusterSnapshot capture(
      ClusterView view, Instant asOf, Optional<ClusterSnapshot> previous) {
    final SnapshotReuse reuse = new SnapshotReuse(previous);
    final List<GroupStatus> read = view.groups();
    final List<GroupStatus> groups = new ArrayList<>(read.size());
    final Map<String, ResourceList> own = new HashMap<>();
    final Map<String, List<PodAssignment>> pods = new HashMap<>();
    for (final GroupStatus status : read) {
      final String name = status.name();
      groups.add(reuse.status(status));
      view.ownRequest(name).ifPresent(request -> own.put(name, reuse.ownRequest(name, request)));
      final List<PodAssignment> groupPods = view.podsOf(name);
      if (!groupPods.isEmpty()) {
        pods.put(name, reuse.pods(name, groupPods));
      }
    }
    return new ClusterSnapshot(
        asOf,
        reuse,
        groups,
        view.quotas(),
        own,
        pods,
        view.overUsedSince(),
        view.reservations(),
        Trees.of(view, groups));
  }

  /** Group {@code name}'s status, or null: for {@link SnapshotReuse}, without an Optional. */
  GroupStatus byName(String name) {
    return byName.get(name);
  }

  /** Group {@code group}'s own request, or null. */
  ResourceList ownRequestOrNull(String group) {
    return ownRequests.get(group);
  }

  /** Group {@code group}'s pods, or null when it has none. */
  List<PodAssignment> podsOrNull(String group) {
    return podsByGroup.get(group);
  }

  /**
   * Whether {@code other} holds the same state as this one (every part compared by value, {@link
   * #asOf} aside): what a copy that reuses a previous one must keep equal to a whole copy.
   */
  public boolean sameState(ClusterSnapshot other) {
    return groups.equals(other.groups)
        && quotas.equals(other.quotas)
        && byName.equals(other.byName)
        && byParent.equals(other.byParent)
        && childNames.equals(other.childNames)
        && quotaByName.equals(other.quotaByName)
        && ownRequests.equals(other.ownRequests)
        && podsByGroup.equals(other.podsByGroup)
        && overUsedSince.equals(other.overUsedSince)
        && reservations.equals(other.reservations)
        && trees.equals(other.trees);
  }

  /** When the state was read from the stores. */
  public Instant asOf() {
    return asOf;
  }

  @Override
  public Optional<GroupStatus> group(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  @Override
  public List<GroupStatus> groups() {
    return groups;
  }

  @Override
  public List<QuotaGroup> quotas() {
    return quotas;
  }

  @Override
  public Optional<QuotaGroup> quota(String name) {
    return Optional.ofNullable(quotaByName.get(name));
  }

  @Override
  public GroupDirectory directory() {
    return directory;
  }

  @Override
  public List<GroupStatus> children(String parent) {
    return byParent.getOrDefault(parent, List.of());
  }

  @Override
  public List<String> childNames(String parent) {
    return childNames.getOrDefault(parent, List.of());
  }

  @Override
  public Map<String, Instant> overUsedSince() {
    return overUsedSince;
  }

  @Override
  public Map<String, ReservationStatus> reservations() {
    return reservations;
  }

  @Override
  public LockedNodes lockedNodes() {
    return lockedNodes;
  }

  @Override
  public Optional<ResourceList> ownRequest(String group) {
    return Optional.ofNullable(ownRequests.get(group));
  }

  @Override
  public List<PodAssignment> podsOf(String group) {
    return podsByGroup.getOrDefault(group, List.of());
  }

  @Override
  public String treeOf(String group) {
    return trees.treeOf().getOrDefault(group, QuotaTrees.DEFAULT_TREE);
  }

  @Override
  public Map<String, QuotaProfile> treeProfiles() {
    return trees.profiles();
  }

  @Override
  public Optional<Map<String, String>> nodeLabels(String name) {
    return Optional.ofNullable(trees.nodeLabels().get(name));
  }

  /** The history is read from the live stores only: a last state does not copy it. */
  @Override
  public HistoryAccess history() {
    return new HistoryAccess.Unreadable(
        "the history is read from the engine's live stores only, which cannot be read now");
  }
}
