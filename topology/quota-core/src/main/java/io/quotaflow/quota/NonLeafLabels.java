package io.quotaflow.quota;

/**
 * The words of the refusal of a quota-name label naming the root or a parent group (issue 39), the
 * same in the engine's pod-classes records, {@code simulate} and the pod webhook.
 */
public final class NonLeafLabels {

  private NonLeafLabels() {}

  /** Why a pod's label may not name {@code label}, the root or a parent group. */
  public static String refusal(String label) {
    final String what = SpecialGroups.ROOT.equals(label) ? "the root group " : "the parent group ";
    return "the label "
        + "quota.scheduling.koordinator.sh/name"
        + " names "
        + what
        + label
        + ", which is charged for no pod of its own; only leaf groups are charged for pods"
        + " (the pod is charged as if unlabelled)";
  }
}
