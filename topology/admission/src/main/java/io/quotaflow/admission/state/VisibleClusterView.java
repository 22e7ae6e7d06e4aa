package io.quotaflow.admission.state;

import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.admission.http.auth.Viewer;
import io.quotaflow.dra.DeviceCharge;
import io.quotaflow.kube.PodGroupKey;
import io.quotaflow.kube.PodGroupObject;
import io.quotaflow.profile.NodePools;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.reservation.LockedNodes;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupDirectory;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.PodAssignment;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A cluster as one {@link Viewer} may see it (issue 25): the groups it sees, with their pods, and
 * their ancestors, without pods; nothing of the others. Every endpoint that answers from a view
 * answers a restricted viewer from this one, so that no answer can show what it should not.
 */
public final class VisibleClusterView implements ClusterView {

  private final ClusterView live;
  private final Viewer viewer;
  private Set<String> shown;
  private Set<String> listed;

  public VisibleClusterView(ClusterView live, Viewer viewer) {
    this.live = live;
    this.viewer = viewer;
  }

  /**
   * The whole cluster, for computations that need every group (an explanation re-runs its splits
   * over all siblings); their results must be redacted with {@link #lists} before they are shown.
   */
  public ClusterView live() {
    return live;
  }

  /** The viewer this view is for. */
  public Viewer viewer() {
    return viewer;
  }

  /** Whether the viewer sees group {@code name}'s pods (not only its totals). */
  public boolean shows(String name) {
    resolve();
    return shown.contains(name);
  }

  /** Whether the viewer sees group {@code name} at all (its totals at least). */
  public boolean lists(String name) {
    resolve();
    return listed.contains(name);
  }

  private synchronized void resolve() {
    if (shown != null) {
      return;
    }
    final Set<String> visible = new HashSet<>();
    for (final QuotaGroup spec : live.quotas()) {
      if (viewer.sees(spec)) {
        visible.add(spec.name());
      }
    }
    if (viewer.seesAll()) {
      visible.add(SpecialGroups.SYSTEM);
      visible.add(SpecialGroups.DEFAULT);
    }
    final Map<String, String> parents = new HashMap<>();
    for (final GroupStatus status : live.groups()) {
      parents.put(status.name(), status.parent());
    }
    final Set<String> withAncestors = new HashSet<>(visible);
    for (final String group : visible) {
      String parent = parents.get(group);
      while (parent != null && !parent.isEmpty() && withAncestors.add(parent)) {
        parent = parents.get(parent);
      }
    }
    if (!withAncestors.isEmpty() || viewer.seesAll()) {
      withAncestors.add(SpecialGroups.ROOT);
    }
    shown = visible;
    listed = withAncestors;
  }

  @Override
  public Optional<GroupStatus> group(String name) {
    return lists(name) ? live.group(name) : Optional.empty();
  }

  @Override
  public List<GroupStatus> groups() {
    return live.groups().stream().filter(status -> lists(status.name())).toList();
  }

  @Override
  public List<QuotaGroup> quotas() {
    return live.quotas().stream().filter(spec -> lists(spec.name())).toList();
  }

  @Override
  public Optional<ResourceList> ownRequest(String group) {
    return shows(group) ? live.ownRequest(group) : Optional.empty();
  }

  @Override
  public GroupDirectory directory() {
    return live.directory();
  }

  @Override
  public List<PodAssignment> podsOf(String group) {
    return shows(group) ? live.podsOf(group) : List.of();
  }

  @Override
  public Optional<PodAssignment> pod(String group, PodRef ref) {
    return shows(group) ? live.pod(group, ref) : Optional.empty();
  }

  @Override
  public List<String> childNames(String parent) {
    return live.childNames(parent).stream().filter(this::lists).toList();
  }

  @Override
  public Map<String, Instant> overUsedSince() {
    final Map<String, Instant> since = new HashMap<>(live.overUsedSince());
    since.keySet().removeIf(group -> !lists(group));
    return since;
  }

  @Override
  public Map<String, ReservationStatus> reservations() {
    final Map<String, ReservationStatus> reserved = new HashMap<>(live.reservations());
    reserved.keySet().removeIf(group -> !lists(group));
    return reserved;
  }

  @Override
  public LockedNodes lockedNodes() {
    return live.lockedNodes();
  }

  @Override
  public Optional<QuotaPod> podInput(PodRef ref) {
    return live.podInput(ref);
  }

  @Override
  public DeviceCharge claims(Pod pod) {
    return live.claims(pod);
  }

  @Override
  public String treeOf(String group) {
    return live.treeOf(group);
  }

  @Override
  public Map<String, QuotaProfile> treeProfiles() {
    return live.treeProfiles();
  }

  @Override
  public List<String> trees() {
    return live.trees();
  }

  @Override
  public NodePools nodePools() {
    return live.nodePools();
  }

  @Override
  public boolean headsTree(String name) {
    return live.headsTree(name);
  }

  @Override
  public Set<String> treeRoots() {
    return live.treeRoots();
  }

  @Override
  public Optional<Map<String, String>> nodeLabels(String name) {
    return live.nodeLabels(name);
  }

  @Override
  public Optional<PodGroupObject> podGroup(PodGroupKey key) {
    return live.podGroup(key);
  }

  /** The cluster's inputs, every pod included: only for viewers who may edit quotas (what-if). */
  @Override
  public Optional<ClusterInputs> inputs() {
    return viewer.mayEditQuotas() ? live.inputs() : Optional.empty();
  }

  /**
   * The history of every group; the endpoints answer only of the groups this viewer {@link #lists}.
   */
  @Override
  public HistoryAccess history() {
    return live.history();
  }
}
