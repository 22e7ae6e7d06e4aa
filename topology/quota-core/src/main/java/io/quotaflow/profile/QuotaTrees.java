package io.quotaflow.profile;

import io.quotaflow.profile.GroupPlacement.Placed;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.GroupDirectory;
import io.quotaflow.tree.QuotaOptions;
import java.util.ArrayList;
import java.util.Collection;
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
 * Which quota tree every input of one cluster belongs to (docs/semantics.md section 15), kept event
 * by event. Each input change returns the changes of the trees it touches and nothing for the
 * others, so a tree's state is only recomputed when its own inputs changed.
 *
 * <ul>
 *   <li>An accepted profile is a tree, rooted at its quota name. The root is given the spec
 *       Koordinator's profile controller writes: a parent that does not lend, with min = max = the
 *       tree's total (its Ready selected nodes' allocatable times the ratio, rounded down), child
 *       of the virtual root of its own tree; the spec of an ElasticQuota of that name is not read.
 *   <li>A group is in the tree its {@code tree-id} label names, else in its parent's tree; a group
 *       outside every profile's tree is in the {@link #DEFAULT_TREE}.
 *   <li>A pod is in the tree of the group it resolves to (SPEC 4 over all the cluster's groups).
 *   <li>Every node counts toward the default tree (as upstream, whose default tree keeps the whole
 *       cluster); a Ready node that is not being deleted also counts toward each profile's tree
 *       whose selector matches its labels.
 * </ul>
 *
 * <p>Bad input (a ratio outside (0, 1], a selector matching no node, a tree-id naming no profile, a
 * tree-id that differs from the parent's tree) becomes a problem on the group concerned, which the
 * core then reports as invalid and freezes with its subtree: nothing else changes. Without profiles
 * every input goes to the default tree unchanged. Not thread-safe.
 */
public final class QuotaTrees {

  /** The tree of every group outside the profiles' trees: the cluster's classic tree. */
  public static final String DEFAULT_TREE = "default";

  private final QuotaOptions options;
  private final Map<String, QuotaProfile> profiles = new TreeMap<>();
  private final Map<String, QuotaGroup> groups;
  private int ignoredNamesakes;
  // Special groups' records from outside the special namespaces, ignored (issue 39): by name, the
  // namespace of the record.
  private final Map<String, String> refusedSpecial = new TreeMap<>();
  private final GroupDirectory directory;
  private final Map<PodRef, QuotaPod> pods;
  private final Map<String, QuotaNode> nodes = new TreeMap<>();

  // Accepted profiles by tree id, and the tree each root group heads.
  private final Map<String, QuotaProfile> trees = new TreeMap<>();
  private final Map<String, String> rootTree = new HashMap<>();
  private final Map<String, String> rejectedProfiles = new TreeMap<>();

  // What each tree was last given.
  private final Map<String, Placed> fedGroups;
  // The tree of each known pod outside the default tree; a known pod not listed is in the default
  // tree (a cluster without profile trees keeps no entry per pod).
  private final PodTrees podTrees = new PodTrees();
  private final NodeTrees nodeTrees = new NodeTrees();

  // Kept while profiles head trees, so that a group change re-routes only what it can move: the
  // groups by parent name (whether the parent exists or not), and the pods by what their group
  // resolution reads and by the group they resolve to.
  private final GroupChildren children = new GroupChildren();
  private final PodIndex podIndex = new PodIndex();
  private final GroupPlacement placement;
  // Each profile tree's node pool and the root it sizes.
  private final TreeRoots roots;

  public QuotaTrees(QuotaOptions options) {
    this(options, 0, 0);
  }

  private static <K, V> Map<K, V> sized(int entries) {
    return new HashMap<>(Math.max(16, (int) (entries / 0.75f) + 1));
  }

  /** A router whose maps are sized for the groups and pods it will be given at once. */
  private QuotaTrees(QuotaOptions options, int groupCount, int podCount) {
    this.options = Objects.requireNonNull(options, "options");
    this.directory = new GroupDirectory(options);
    this.groups = sized(groupCount);
    this.fedGroups = sized(groupCount);
    this.pods = sized(podCount);
    this.roots = new TreeRoots(options);
    this.placement = new GroupPlacement(groups, trees, rootTree);
  }

  /**
   * Every input of {@code inputs} and every profile, routed in one pass (for one-call computations
   * and a task's restore): routing them one by one would re-plan the groups on every group, as a
   * single group change must while profiles head trees. Where names repeat, the later input wins.
   */
  public static QuotaTrees of(
      ClusterInputs inputs, List<QuotaProfile> profiles, QuotaOptions options) {
    final QuotaTrees trees = new QuotaTrees(options, inputs.groups().size(), inputs.pods().size());
    profiles.forEach(profile -> trees.profiles.put(profile.name(), profile));
    inputs.nodes().forEach(node -> trees.nodes.put(node.name(), node));
    for (final QuotaGroup group : inputs.groups()) {
      if (!options.specialQuotaNamespaces().mayDefine(group)) {
        final QuotaGroup replaced = trees.groups.remove(group.name());
        if (replaced != null) {
          trees.children.replace(replaced, null);
          trees.countNamesakes(replaced, null);
          trees.directory.remove(group.name());
        }
        trees.refusedSpecial.put(group.name(), group.namespace());
        continue;
      }
      trees.refusedSpecial.remove(group.name());
      final QuotaGroup replaced = trees.groups.put(group.name(), group);
      trees.children.replace(replaced, group);
      trees.countNamesakes(replaced, group);
      trees.directory.put(group);
    }
    inputs.pods().forEach(pod -> trees.pods.put(pod.ref(), pod));
    trees.reshape(true);
    return trees;
  }

  // ---------------------------------------------------------------------------------------------
  // Inputs

  public List<TreeOp> putProfile(QuotaProfile profile) {
    profiles.put(profile.name(), profile);
    return reshape(true);
  }

  public List<TreeOp> removeProfile(String name) {
    return profiles.remove(name) == null ? List.of() : reshape(true);
  }

  /** The options this router was made with. */
  public QuotaOptions options() {
    return options;
  }

  /**
   * How many ElasticQuotas are ignored because an older one has their name (each group's {@link
   * QuotaGroup#ignoredNamesakes}, summed), or because they name a special group outside the special
   * namespaces ({@link io.quotaflow.quota.SpecialQuotaNamespaces}).
   */
  public int ignoredNamesakes() {
    return ignoredNamesakes + refusedSpecial.size();
  }

  private void countNamesakes(QuotaGroup old, QuotaGroup group) {
    ignoredNamesakes +=
        (group == null ? 0 : group.ignoredNamesakes().size())
            - (old == null ? 0 : old.ignoredNamesakes().size());
  }

  /**
   * Routes {@code group}; a special group's record from outside the special namespaces is ignored
   * (the group is routed as if it had no record) and counted in {@link #ignoredNamesakes}.
   */
  public List<TreeOp> putGroup(QuotaGroup group) {
    if (!options.specialQuotaNamespaces().mayDefine(group)) {
      final List<TreeOp> ops = removeGroup(group.name());
      refusedSpecial.put(group.name(), group.namespace());
      return ops;
    }
    refusedSpecial.remove(group.name());
    final QuotaGroup old = groups.put(group.name(), group);
    if (group.equals(old)) {
      return List.of();
    }
    countNamesakes(old, group);
    children.replace(old, group);
    directory.put(group);
    return trees.isEmpty() ? regroupAlone(group.name()) : rerouteAround(group.name(), old, group);
  }

  public List<TreeOp> removeGroup(String name) {
    refusedSpecial.remove(name);
    final QuotaGroup old = groups.remove(name);
    if (old == null) {
      return List.of();
    }
    countNamesakes(old, null);
    children.replace(old, null);
    directory.remove(name);
    return trees.isEmpty() ? regroupAlone(name) : rerouteAround(name, old, null);
  }

  public List<TreeOp> putPod(QuotaPod pod) {
    final boolean known = pods.put(pod.ref(), pod) != null;
    // Without profile trees every pod is in the default tree: no need to resolve its group.
    final String tree = trees.isEmpty() ? DEFAULT_TREE : indexedTree(pod);
    final TreeOp put = new TreeOp.PutPod(tree, pod);
    final String old = known ? podTrees.of(pod.ref()) : null;
    podTrees.feed(pod.ref(), tree);
    return old == null || old.equals(tree)
        ? List.of(put)
        : List.of(new TreeOp.RemovePod(old, pod.ref()), put);
  }

  public List<TreeOp> removePod(PodRef ref) {
    if (pods.remove(ref) == null) {
      return List.of();
    }
    final String old = podTrees.of(ref);
    podTrees.remove(ref);
    podIndex.remove(ref);
    return List.of(new TreeOp.RemovePod(old, ref));
  }

  public List<TreeOp> putNode(QuotaNode node) {
    roots.pool(trees, nodes.put(node.name(), node), -1);
    roots.pool(trees, node, 1);
    final List<TreeOp> ops = new ArrayList<>();
    routeNode(node.name(), ops);
    replanRoots(ops);
    return ops;
  }

  public List<TreeOp> removeNode(String name) {
    final QuotaNode old = nodes.remove(name);
    if (old == null) {
      return List.of();
    }
    roots.pool(trees, old, -1);
    final List<TreeOp> ops = new ArrayList<>();
    routeNode(name, ops);
    replanRoots(ops);
    return ops;
  }

  // ---------------------------------------------------------------------------------------------
  // Queries

  /** The default tree and each accepted profile's tree, in id order after the default. */
  public List<String> trees() {
    final List<String> result = new ArrayList<>();
    result.add(DEFAULT_TREE);
    result.addAll(trees.keySet());
    return result;
  }

  /** The profile of a tree; empty for the default tree or an unknown id. */
  public Optional<QuotaProfile> profile(String tree) {
    return Optional.ofNullable(trees.get(tree));
  }

  /** The tree a group is in (the default tree for a group not known). */
  public String treeOfGroup(String name) {
    final Placed fed = fedGroups.get(name);
    return fed == null ? DEFAULT_TREE : fed.tree();
  }

  /** The tree a pod is in, if the pod is known. */
  public Optional<String> treeOfPod(PodRef ref) {
    return pods.containsKey(ref) ? Optional.of(podTrees.of(ref)) : Optional.empty();
  }

  /**
   * Whether a node is in a tree's node pool: every node for the default tree, the nodes the
   * profile's selector matches for another (Ready or not).
   */
  public boolean inPool(String tree, Map<String, String> nodeLabels) {
    final QuotaProfile profile = trees.get(tree);
    return profile == null || profile.nodeSelector().matches(nodeLabels);
  }

  /** Profiles that head no tree, by name, with the reason. */
  public Map<String, String> rejectedProfiles() {
    return Map.copyOf(rejectedProfiles);
  }

  /**
   * What one tree holds: its groups (the root with the profile's spec), pods and nodes, in no
   * particular order (the core's result does not depend on it; sorting a 100,000-group cluster's
   * names cost a restart more than routing it).
   */
  public ClusterInputs inputs(String tree) {
    final List<QuotaGroup> treeGroups = new ArrayList<>();
    fedGroups.forEach(
        (name, fed) -> {
          if (fed.tree().equals(tree)) {
            treeGroups.add(fed.spec());
          }
        });
    return new ClusterInputs(treeGroups, podTrees.in(tree, pods), nodeTrees.in(tree, nodes));
  }

  /**
   * Whether a tree reports a group's status: a profile's tree holds the special groups and the
   * virtual root only as the frame the core computes in, so only the default tree reports them.
   */
  public static boolean reports(String tree, String group) {
    return DEFAULT_TREE.equals(tree)
        || !(SpecialGroups.ROOT.equals(group) || SpecialGroups.isSpecial(group));
  }

  // ---------------------------------------------------------------------------------------------
  // Routing

  /** After a profile or group change: which profiles head trees, then every group and pod. */
  private List<TreeOp> reshape(boolean profilesChanged) {
    final List<TreeOp> ops = new ArrayList<>();
    if (profilesChanged) {
      acceptProfiles();
      // Nodes first: a new tree's state gets its nodes before its groups.
      for (final String name : new ArrayList<>(nodes.keySet())) {
        routeNode(name, ops);
      }
    }
    ops.addAll(regroup());
    podIndex.clear();
    if (trees.isEmpty() && podTrees.allDefault()) {
      return ops; // every pod is in the default tree, and was there before
    }
    // (Pods that {@link #of} put but did not route yet count as in the default tree.)
    for (final QuotaPod pod : pods.values()) {
      podTrees.move(pod, trees.isEmpty() ? DEFAULT_TREE : indexedTree(pod), ops);
    }
    return ops;
  }

  /**
   * After a group change while profiles head trees: only the group and its descendants can change
   * tree or placement, and only the pods whose resolution reads the group (its name as label or
   * namespace, the namespaces it lists before and after) or that resolve to one of those groups can
   * change tree. The same changes as {@link #reshape}, without visiting the rest of the cluster.
   */
  private List<TreeOp> rerouteAround(String name, QuotaGroup before, QuotaGroup after) {
    final Set<String> affected = children.selfAndDescendants(name);
    final List<TreeOp> ops = new ArrayList<>();
    final List<TreeOp> puts = new ArrayList<>();
    final Map<String, String> memo = new HashMap<>();
    for (final String member : affected) {
      if (rootTree.containsKey(member)) {
        continue; // a root's spec is its profile's
      }
      final QuotaGroup group = groups.get(member);
      final Placed old = fedGroups.get(member);
      final Placed now = group == null ? null : placement.placed(group, memo);
      if (old != null && (now == null || !now.tree().equals(old.tree()))) {
        ops.add(new TreeOp.RemoveGroup(old.tree(), member));
        fedGroups.remove(member);
      }
      if (now != null && !now.equals(old)) {
        fedGroups.put(member, now);
        puts.add(new TreeOp.PutGroup(now.tree(), now.spec()));
      }
    }
    ops.addAll(puts);
    final Set<String> namespaces = new HashSet<>();
    if (before != null) {
      namespaces.addAll(before.namespaces());
    }
    if (after != null) {
      namespaces.addAll(after.namespaces());
    }
    final Set<PodRef> candidates = podIndex.readingGroup(name, namespaces);
    for (final PodRef ref : candidates) {
      podIndex.regroup(ref, directory.resolve(pods.get(ref)).group());
    }
    for (final String member : affected) {
      candidates.addAll(podIndex.podsOf(member));
    }
    for (final PodRef ref : candidates) {
      podTrees.move(pods.get(ref), treeOfGroup(podIndex.groupOf(ref)), ops);
    }
    return ops;
  }

  /** A pod's tree, its resolved group filed in the index (kept while profiles head trees). */
  private String indexedTree(QuotaPod pod) {
    final String group = directory.resolve(pod).group();
    podIndex.put(pod.ref(), pod.quotaName().orElse(""), group);
    return treeOfGroup(group);
  }

  private void acceptProfiles() {
    trees.clear();
    rootTree.clear();
    rejectedProfiles.clear();
    ProfileAcceptance.accept(profiles.values(), trees, rejectedProfiles);
    trees.forEach((tree, profile) -> rootTree.put(profile.quotaName(), tree));
    roots.reset(trees, nodes.values());
  }

  /**
   * The profiles that head a tree, by tree id, as {@link #putProfile} accepts them: what a reader
   * of the profiles alone (the admission plugin) needs to know which tree a root heads and which
   * node pool a tree has.
   */
  public static Map<String, QuotaProfile> acceptedTrees(Collection<QuotaProfile> profiles) {
    final Map<String, QuotaProfile> byName = new TreeMap<>();
    profiles.forEach(profile -> byName.put(profile.name(), profile));
    final Map<String, QuotaProfile> accepted = new TreeMap<>();
    ProfileAcceptance.accept(byName.values(), accepted, new TreeMap<>());
    return accepted;
  }

  /** Sends a node to the trees whose pool counts it, and takes it from the others. */
  private void routeNode(String name, List<TreeOp> ops) {
    nodeTrees.route(name, nodes.get(name), trees, roots, ops);
  }

  /** Every group's tree and spec as its tree sees it, and the changes from the last time. */
  private List<TreeOp> regroup() {
    final Map<String, Placed> planned =
        new LinkedHashMap<>((int) ((groups.size() + trees.size()) / 0.75f) + 1);
    trees.forEach((tree, profile) -> planned.put(profile.quotaName(), root(tree, profile)));
    final Map<String, String> memo = new HashMap<>();
    for (final QuotaGroup group : groups.values()) {
      if (!rootTree.containsKey(group.name())) {
        planned.put(group.name(), placement.placed(group, memo));
      }
    }
    final List<TreeOp> ops = new ArrayList<>();
    for (final Map.Entry<String, Placed> entry : new ArrayList<>(fedGroups.entrySet())) {
      final Placed now = planned.get(entry.getKey());
      if (now == null || !now.tree().equals(entry.getValue().tree())) {
        ops.add(new TreeOp.RemoveGroup(entry.getValue().tree(), entry.getKey()));
        fedGroups.remove(entry.getKey());
      }
    }
    planned.forEach(
        (name, fed) -> {
          final Placed old = fedGroups.put(name, fed);
          if (!fed.equals(old)) {
            ops.add(new TreeOp.PutGroup(fed.tree(), fed.spec()));
          }
        });
    return ops;
  }

  /**
   * After a group change while no profile heads a tree: every group is in the default tree and what
   * that tree is given of a group (its spec, with a tree-id naming no profile as its problem)
   * depends on the group alone, so only this group's entry can change. Spares the re-routing of
   * every group and pod of the cluster that {@link #reshape} does.
   */
  private List<TreeOp> regroupAlone(String name) {
    final QuotaGroup group = groups.get(name);
    final Placed before = fedGroups.get(name);
    if (group == null) {
      fedGroups.remove(name);
      return before == null ? List.of() : List.of(new TreeOp.RemoveGroup(before.tree(), name));
    }
    final Placed now = placement.placed(group, new HashMap<>());
    if (now.equals(before)) {
      return List.of();
    }
    fedGroups.put(name, now);
    return List.of(new TreeOp.PutGroup(now.tree(), now.spec()));
  }

  /**
   * After a node change: only the roots' specs depend on the nodes (their totals, and whether their
   * selector matches any node); which tree each group and pod is in does not.
   */
  private void replanRoots(List<TreeOp> ops) {
    trees.forEach(
        (tree, profile) -> {
          final Placed root = root(tree, profile);
          if (!root.equals(fedGroups.put(profile.quotaName(), root))) {
            ops.add(new TreeOp.PutGroup(tree, root.spec()));
          }
        });
  }

  /** A profile's root group, with its tree's total as min and max. */
  private Placed root(String tree, QuotaProfile profile) {
    return new Placed(tree, roots.root(tree, profile, nodes.values()));
  }

  /** The tree's total: the counted selected nodes' allocatable, times the ratio, rounded down. */
  public ResourceList total(QuotaProfile profile) {
    return roots.total(profile, nodes.values());
  }
}
