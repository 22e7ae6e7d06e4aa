package io.quotaflow.admission.machine.quotas;

import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.quotaflow.quota.NamespaceSelectorKeys;
import io.quotaflow.quota.QuotaGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Who may change ElasticQuotas (issue 24): the users and groups named in {@code
 * admission.quota.admins}, as the API server names them in a review's {@code userInfo}. Anyone else
 * may change no field that quotaflow reads: the tree's shape, its amounts and its privileged keys.
 * A review without {@code userInfo} can only have been forged (the API server always sends it), so
 * it is treated as anyone else's.
 *
 * <p>The special groups (root, system, default) may only be ElasticQuotas of the namespaces in
 * {@code admission.quota.special.namespaces}: created anywhere else, a {@code
 * koordinator-default-quota} with a small max would make every unlabelled pod a reclaim victim.
 *
 * <p>A namespace selector may only be keyed on labels tenants cannot set ({@code
 * admission.quota.selector.keys}, issue 39): see {@link SelectorKeyCheck}.
 *
 * @param names user names or group names (e.g. {@code system:masters})
 * @param specialNamespaces the namespaces where the special groups' ElasticQuotas may live
 * @param selectorKeys the namespace labels a namespace selector may be keyed on
 */
public record QuotaAdmins(
    Set<String> names, Set<String> specialNamespaces, NamespaceSelectorKeys selectorKeys) {

  /** Copies the sets. */
  public QuotaAdmins {
    names = Set.copyOf(Objects.requireNonNull(names, "names"));
    specialNamespaces = Set.copyOf(Objects.requireNonNull(specialNamespaces, "specialNamespaces"));
    Objects.requireNonNull(selectorKeys, "selectorKeys");
  }

  /** Admins and special namespaces, selectors keyed as {@link NamespaceSelectorKeys#DEFAULT}. */
  public QuotaAdmins(Set<String> names, Set<String> specialNamespaces) {
    this(names, specialNamespaces, NamespaceSelectorKeys.DEFAULT);
  }

  /** Whether {@code user} (null when the review has none) is a quota admin. */
  boolean includes(UserInfo user) {
    if (user == null) {
      return false;
    }
    if (user.getUsername() != null && names.contains(user.getUsername())) {
      return true;
    }
    return user.getGroups() != null && user.getGroups().stream().anyMatch(names::contains);
  }

  /** Who {@code user} is, for a message. */
  static String describe(UserInfo user) {
    return user == null || user.getUsername() == null
        ? "a request without user information"
        : "user " + user.getUsername();
  }

  /**
   * The fields quotaflow reads that differ between {@code before} and {@code after}, as an
   * ElasticQuota spells them; empty when the change leaves them all as they were.
   */
  static List<String> changedFields(QuotaGroup before, QuotaGroup after) {
    final List<String> changed = new ArrayList<>();
    note(changed, "spec.min", before.min(), after.min());
    note(changed, "spec.max", before.max(), after.max());
    note(changed, "label quota.scheduling.koordinator.sh/parent", before.parent(), after.parent());
    note(
        changed,
        "label quota.scheduling.koordinator.sh/is-parent",
        before.parentGroup(),
        after.parentGroup());
    note(
        changed,
        "annotation quota.scheduling.koordinator.sh/shared-weight",
        before.sharedWeight(),
        after.sharedWeight());
    note(
        changed,
        "label quota.scheduling.koordinator.sh/allow-lent-resource",
        before.allowLent(),
        after.allowLent());
    note(
        changed,
        "annotation quotaflow.io/lending-limit",
        before.lendingLimit(),
        after.lendingLimit());
    note(
        changed,
        "annotation quotaflow.io/borrowing-limit",
        before.borrowingLimit(),
        after.borrowingLimit());
    note(
        changed,
        "annotation quota.scheduling.koordinator.sh/namespaces",
        before.namespaces(),
        after.namespaces());
    note(changed, "annotation quotaflow.io/reservation", before.reservation(), after.reservation());
    note(
        changed,
        "annotation quotaflow.io/namespace-selector",
        before.namespaceSelector(),
        after.namespaceSelector());
    note(changed, "label quota.scheduling.koordinator.sh/tree-id", before.treeId(), after.treeId());
    note(
        changed,
        "quota.scheduling.koordinator.sh/allow-force-update",
        before.allowForceUpdate(),
        after.allowForceUpdate());
    note(
        changed,
        "annotation quota.scheduling.koordinator.sh/max-strict-check-resource-keys",
        before.maxStrictCheckKeys(),
        after.maxStrictCheckKeys());
    return changed;
  }

  private static void note(List<String> changed, String field, Object before, Object after) {
    if (!Objects.equals(before, after)) {
      changed.add(field);
    }
  }
}
