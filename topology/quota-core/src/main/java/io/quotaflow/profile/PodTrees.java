package io.quotaflow.profile;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tree each known pod was last given, for {@link QuotaTrees}. Only pods outside the default
 * tree have an entry: a cluster without profile trees keeps none per pod.
 */
final class PodTrees {

  private final Map<PodRef, String> outsideDefault = new HashMap<>();

  /** The tree a known pod was given (the default tree for a pod not routed yet). */
  String of(PodRef ref) {
    return outsideDefault.getOrDefault(ref, QuotaTrees.DEFAULT_TREE);
  }

  /** Whether every pod is in the default tree. */
  boolean allDefault() {
    return outsideDefault.isEmpty();
  }

  void feed(PodRef ref, String tree) {
    if (QuotaTrees.DEFAULT_TREE.equals(tree)) {
      outsideDefault.remove(ref);
    } else {
      outsideDefault.put(ref, tree);
    }
  }

  void remove(PodRef ref) {
    outsideDefault.remove(ref);
  }

  /** Moves a pod to {@code tree} if it was given another, with the changes into {@code ops}. */
  void move(QuotaPod pod, String tree, List<TreeOp> ops) {
    final String old = of(pod.ref());
    if (!tree.equals(old)) {
      ops.add(new TreeOp.RemovePod(old, pod.ref()));
      feed(pod.ref(), tree);
      ops.add(new TreeOp.PutPod(tree, pod));
    }
  }

  /** The pods of {@code pods} given {@code tree}, in no particular order. */
  List<QuotaPod> in(String tree, Map<PodRef, QuotaPod> pods) {
    if (QuotaTrees.DEFAULT_TREE.equals(tree) && outsideDefault.isEmpty()) {
      return new ArrayList<>(pods.values()); // every pod is in the default tree
    }
    final List<QuotaPod> result = new ArrayList<>();
    if (QuotaTrees.DEFAULT_TREE.equals(tree)) {
      for (final QuotaPod pod : pods.values()) {
        if (!outsideDefault.containsKey(pod.ref())) {
          result.add(pod);
        }
      }
    } else {
      outsideDefault.forEach(
          (ref, podTree) -> {
            if (podTree.equals(tree)) {
              result.add(pods.get(ref));
            }
          });
    }
    return result;
  }
}
