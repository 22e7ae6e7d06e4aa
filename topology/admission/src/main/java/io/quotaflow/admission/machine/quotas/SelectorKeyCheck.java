package io.quotaflow.admission.machine.quotas;

import io.quotaflow.kube.QuotaLabels;
import io.quotaflow.quota.NamespaceSelector;
import io.quotaflow.quota.NamespaceSelectorKeys;
import io.quotaflow.rules.QuotaChange;
import java.util.List;
import java.util.Optional;

/**
 * The quotas webhook's refusal of a namespace selector keyed on labels tenants may set (issue 39):
 * whoever may create or label a namespace would otherwise bind it to the group, charge pods to it
 * and see its pods. Only a new selector is judged (a CREATE, or an UPDATE that changes it), so an
 * existing ElasticQuota's other fields can still be edited while its selector is being fixed.
 */
final class SelectorKeyCheck {

  private SelectorKeyCheck() {}

  /**
   * Why {@code change}'s namespace selector is refused under {@code keys}; empty when it is not.
   */
  static Optional<String> refusal(QuotaChange change, NamespaceSelectorKeys keys) {
    final Optional<NamespaceSelector> selector;
    if (change instanceof QuotaChange.Create create) {
      selector = create.group().namespaceSelector();
    } else if (change instanceof QuotaChange.Update update
        && !update.old().namespaceSelector().equals(update.updated().namespaceSelector())) {
      selector = update.updated().namespaceSelector();
    } else {
      selector = Optional.empty();
    }
    final List<String> refusals = selector.map(keys::refusals).orElse(List.of());
    if (refusals.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "quotaflow: the annotation "
            + QuotaLabels.NAMESPACE_SELECTOR
            + " of ElasticQuota "
            + change.name()
            + " would let whoever may create or label a namespace join the group: "
            + String.join("; ", refusals));
  }
}
