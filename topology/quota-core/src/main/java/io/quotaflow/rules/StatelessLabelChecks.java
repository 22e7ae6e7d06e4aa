package io.quotaflow.rules;

import io.quotaflow.quota.NonLeafLabels;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.reason.Reason;
import io.quotaflow.tree.GroupDirectory;
import io.quotaflow.tree.QuotaOptions;
import java.util.Optional;

/**
 * The checks of a pod's quota-name label that need no engine state (issue 39, point 2): the pod
 * webhook runs them even when it answers by its failure policy (no usable state, too old, an
 * internal error), so that failing open never lets in a label the engine would have to ignore. A
 * label naming the root, or a special group outside the special groups' namespaces, is refused from
 * the settings alone; a label naming a group that does not exist, or a parent group, is refused
 * when a last known tree is at hand, however old. Whether a group admits the pod's namespace, and
 * whether the pod fits, need the live tree and are not judged here.
 */
public final class StatelessLabelChecks {

  /**
   * Why a pod's label is refused.
   *
   * @param reason the reason's code, as the webhook's other denials carry
   * @param message for people: what the label names and why it may not
   */
  public record Refusal(Reason reason, String message) {}

  private StatelessLabelChecks() {}

  /**
   * Why {@code pod}'s label is refused without the engine's state; empty when nothing that needs no
   * state refuses it (or it has no label).
   *
   * @param lastTree the last tree read, however old; empty when none was ever read
   */
  public static Optional<Refusal> refusal(
      QuotaPod pod, QuotaOptions options, Optional<GroupDirectory> lastTree) {
    final String label = pod.quotaName().orElse("");
    if (label.isEmpty()) {
      return Optional.empty();
    }
    if (SpecialGroups.ROOT.equals(label)) {
      return Optional.of(new Refusal(Reason.PARENT_GROUP, NonLeafLabels.refusal(label)));
    }
    if (SpecialGroups.isSpecial(label)) {
      return options
          .namespaceBinding()
          .refusal(label, Optional.empty(), pod.ref().namespace())
          .map(message -> new Refusal(Reason.NAMESPACE_NOT_BOUND, message));
    }
    if (lastTree.isEmpty()) {
      return Optional.empty();
    }
    final GroupDirectory tree = lastTree.get();
    if (!tree.exists(label)) {
      return Optional.of(
          new Refusal(
              Reason.UNKNOWN_GROUP,
              "the label quota.scheduling.koordinator.sh/name names quota group "
                  + label
                  + ", which does not exist in the last quota tree read; create the pod once"
                  + " the group exists"));
    }
    return tree.notALeaf(label, options.parentPods())
        .map(message -> new Refusal(Reason.PARENT_GROUP, message));
  }
}
