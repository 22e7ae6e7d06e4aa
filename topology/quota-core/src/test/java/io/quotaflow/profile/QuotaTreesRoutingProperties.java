package io.quotaflow.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.QuotaOptions;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The router's changes, applied one input at a time, always leave every tree with exactly the
 * inputs a router built from scratch on the same inputs gives it: the shortcuts it takes (none of
 * the cluster's groups and pods re-routed while there are no profile trees; only the roots
 * re-planned on a node change) change no tree's inputs.
 */
class QuotaTreesRoutingProperties {

  private static final String POOL = "pool";
  private static final List<String> GROUPS =
      List.of("a", "b", "c", "d", "e", "gpu-root", "cpu-root", "ns-1");
  private static final List<String> NAMESPACES = List.of("ns-1", "ns-2", "ns-3");

  @Property(tries = 300)
  void routedChangesEqualARouteFromScratch(@ForAll long seed) {
    final Random random = new Random(seed);
    final QuotaTrees router = new QuotaTrees(QuotaOptions.DEFAULTS);
    final Mirror mirror = new Mirror();
    final Map<String, QuotaProfile> profiles = new TreeMap<>();
    final Map<String, QuotaGroup> groups = new TreeMap<>();
    final Map<PodRef, QuotaPod> pods = new HashMap<>();
    final Map<String, QuotaNode> nodes = new TreeMap<>();
    final int steps = 5 + random.nextInt(60);
    for (int step = 0; step < steps; step++) {
      final int kind = random.nextInt(100);
      final List<TreeOp> ops;
      if (kind < 8) {
        final QuotaProfile profile = profile(random);
        if (random.nextInt(4) == 0) {
          profiles.remove(profile.name());
          ops = router.removeProfile(profile.name());
        } else {
          profiles.put(profile.name(), profile);
          ops = router.putProfile(profile);
        }
      } else if (kind < 35) {
        final String name = GROUPS.get(random.nextInt(GROUPS.size()));
        if (random.nextInt(5) == 0) {
          groups.remove(name);
          ops = router.removeGroup(name);
        } else {
          final QuotaGroup group = group(random, name);
          groups.put(name, group);
          ops = router.putGroup(group);
        }
      } else if (kind < 50) {
        final String name = "node-" + random.nextInt(5);
        if (random.nextInt(5) == 0) {
          nodes.remove(name);
          ops = router.removeNode(name);
        } else {
          final QuotaNode node = node(random, name);
          nodes.put(name, node);
          ops = router.putNode(node);
        }
      } else {
        final PodRef ref =
            new PodRef(NAMESPACES.get(random.nextInt(NAMESPACES.size())), "p" + random.nextInt(8));
        if (random.nextInt(5) == 0) {
          pods.remove(ref);
          ops = router.removePod(ref);
        } else {
          final QuotaPod pod = pod(random, ref);
          pods.put(ref, pod);
          ops = router.putPod(pod);
        }
      }
      ops.forEach(mirror::apply);

      final QuotaTrees fresh =
          QuotaTrees.of(
              new ClusterInputs(
                  List.copyOf(groups.values()),
                  List.copyOf(pods.values()),
                  List.copyOf(nodes.values())),
              List.copyOf(profiles.values()),
              QuotaOptions.DEFAULTS);
      assertThat(router.trees()).as("step %d", step).isEqualTo(fresh.trees());
      for (final String tree : fresh.trees()) {
        assertThat(mirror.of(tree))
            .as("tree %s after step %d", tree, step)
            .isEqualTo(Mirror.TreeInputs.of(fresh.inputs(tree)));
      }
      mirror.trees.forEach(
          (tree, held) -> {
            if (!fresh.trees().contains(tree)) {
              assertThat(held.isEmpty()).as("tree %s is gone but holds %s", tree, held).isTrue();
            }
          });
    }
  }

  private static QuotaProfile profile(Random random) {
    final boolean gpu = random.nextBoolean();
    final String ratio = random.nextInt(6) == 0 ? "1.5" : random.nextBoolean() ? "1" : "0.5";
    return QuotaProfile.of(
        gpu ? "gpu-pool" : "cpu-pool",
        random.nextInt(6) == 0 ? "a" : gpu ? "gpu-root" : "cpu-root",
        new ResourceRatio(new BigDecimal(ratio)),
        new NodeSelector(Map.of(POOL, gpu ? "gpu" : "cpu"), List.of()));
  }

  private static QuotaGroup group(Random random, String name) {
    final List<String> parents = new ArrayList<>(GROUPS);
    parents.add(SpecialGroups.ROOT);
    final String[] treeIds = {"", "", "", "gpu-pool", "cpu-pool", "nowhere", "default"};
    return QuotaGroup.builder(name)
        .parent(parents.get(random.nextInt(parents.size())))
        .parentGroup(random.nextInt(3) == 0)
        .min(ResourceList.of("cpu", 1_000L * random.nextInt(4)))
        .max(ResourceList.of("cpu", 10_000L))
        .treeId(treeIds[random.nextInt(treeIds.length)])
        .namespaces(random.nextBoolean() ? List.of() : List.of(NAMESPACES.get(random.nextInt(3))))
        .build();
  }

  private static QuotaNode node(Random random, String name) {
    return new QuotaNode(
        name,
        ResourceList.of("cpu", 1_000L * (1 + random.nextInt(8))),
        random.nextInt(5) != 0,
        true,
        random.nextInt(8) == 0,
        List.of(),
        Map.of(POOL, random.nextBoolean() ? "gpu" : "cpu"));
  }

  private static QuotaPod pod(Random random, PodRef ref) {
    final QuotaPod.Builder builder =
        QuotaPod.builder(ref.namespace(), ref.name())
            .request(ResourceList.of("cpu", 100L * (1 + random.nextInt(10))));
    if (random.nextBoolean()) {
      builder.quotaName(GROUPS.get(random.nextInt(GROUPS.size())));
    }
    return builder.build();
  }

  /** What each tree's state has been given, by applying the router's changes. */
  private static final class Mirror {
    private final Map<String, TreeInputs> trees = new TreeMap<>();

    record TreeInputs(
        Map<String, QuotaGroup> groups, Map<PodRef, QuotaPod> pods, Map<String, QuotaNode> nodes) {
      static TreeInputs empty() {
        return new TreeInputs(new TreeMap<>(), new HashMap<>(), new TreeMap<>());
      }

      static TreeInputs of(ClusterInputs inputs) {
        final TreeInputs held = empty();
        inputs.groups().forEach(g -> held.groups.put(g.name(), g));
        inputs.pods().forEach(p -> held.pods.put(p.ref(), p));
        inputs.nodes().forEach(n -> held.nodes.put(n.name(), n));
        return held;
      }

      boolean isEmpty() {
        return groups.isEmpty() && pods.isEmpty() && nodes.isEmpty();
      }
    }

    TreeInputs of(String tree) {
      return trees.getOrDefault(tree, TreeInputs.empty());
    }

    void apply(TreeOp op) {
      final TreeInputs held = trees.computeIfAbsent(op.tree(), t -> TreeInputs.empty());
      if (op instanceof TreeOp.PutGroup put) {
        held.groups.put(put.group().name(), put.group());
      } else if (op instanceof TreeOp.RemoveGroup remove) {
        held.groups.remove(remove.name());
      } else if (op instanceof TreeOp.PutPod put) {
        held.pods.put(put.pod().ref(), put.pod());
      } else if (op instanceof TreeOp.RemovePod remove) {
        held.pods.remove(remove.ref());
      } else if (op instanceof TreeOp.PutNode put) {
        held.nodes.put(put.node().name(), put.node());
      } else if (op instanceof TreeOp.RemoveNode remove) {
        held.nodes.remove(remove.name());
      }
    }
  }
}
