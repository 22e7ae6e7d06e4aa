package io.quotaflow.admission.http.state;

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
      List<GroupStatus> groups,
      List<QuotaGroup> quotas,
      Map<String, ResourceList> ownRequests,
      Map<String, List<PodAssignment>> podsByGroup,
      Map<String, Instant> overUsedSince,
      Map<String, ReservationStatus> reservations,
      Trees trees) {
    this.asOf = Objects.requireNonNull(asOf, "asOf");
    this.trees = Objects.requireNonNull(trees, "trees");
    this.reservations = Map.copyOf(reservations);
    this.lockedNodes = LockedNodes.of(this.reservations);
    this.overUsedSince = Map.copyOf(overUsedSince);
    this.groups = List.copyOf(groups);
    this.quotas = List.copyOf(quotas);
    this.directory = GroupDirectory.of(this.quotas);
    this.ownRequests = Map.copyOf(ownRequests);
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
    final Map<String, QuotaGroup> specs = new HashMap<>();
    this.quotas.forEach(quota -> specs.put(quota.name(), quota));
    this.quotaByName = Map.copyOf(specs);
    final Map<String, List<PodAssignment>> pods = new HashMap<>();
    podsByGroup.forEach((group, list) -> pods.put(group, List.copyOf(list)));
    this.podsByGroup = Map.copyOf(pods);
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
    final List<GroupStatus> groups = view.groups();
    final Map<String, ResourceList> own = new HashMap<>();
    final Map<String, List<PodAssignment>> pods = new HashMap<>();
    for (final GroupStatus status : groups) {
      view.ownRequest(status.name()).ifPresent(request -> own.put(status.name(), request));
      final List<PodAssignment> groupPods = view.podsOf(status.name());
      if (!groupPods.isEmpty()) {
        pods.put(status.name(), groupPods);
      }
    }
    return new ClusterSnapshot(
        asOf,
        groups,
        view.quotas(),
        own,
        pods,
        view.overUsedSince(),
        view.reservations(),
        Trees.of(view, groups));
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
