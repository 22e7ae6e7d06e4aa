package io.quotaflow.quota;

import io.quotaflow.quota.NamespaceSelector.Operator;
import io.quotaflow.quota.NamespaceSelector.Requirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which namespace labels a group's namespace selector may be keyed on (issue 39): a selector on a
 * label that tenants may set on their own namespaces lets whoever may create or label a namespace
 * join the group. Only keys the cluster's admins control are accepted: an entry ending in {@code /}
 * allows every key of that prefix (an admin-only prefix, as {@code quota.admin.quotaflow.io/}), any
 * other entry allows that exact key (as {@code kubernetes.io/metadata.name}, which the API server
 * sets to the namespace's name). A selector must also select by what a namespace carries: one that
 * holds by absence alone ({@code NotIn}, {@code DoesNotExist}, nothing at all) or by the name key
 * merely existing selects every new namespace.
 *
 * @param allowed the allowed keys and key prefixes ({@code admission.quota.selector.keys})
 */
public record NamespaceSelectorKeys(Set<String> allowed) {

  /** The key the API server sets on every namespace to its name. */
  public static final String NAME_KEY = "kubernetes.io/metadata.name";

  /** The default: the namespace's name, and a prefix only admins may set by convention. */
  public static final NamespaceSelectorKeys DEFAULT =
      new NamespaceSelectorKeys(Set.of(NAME_KEY, "quota.admin.quotaflow.io/"));

  /** Copies the set. */
  public NamespaceSelectorKeys {
    allowed = Set.copyOf(Objects.requireNonNull(allowed, "allowed"));
  }

  /** Why {@code selector} may not bind namespaces; empty when it may. */
  public List<String> refusals(NamespaceSelector selector) {
    final List<String> refusals = new ArrayList<>();
    final Set<String> keys = new TreeSet<>(selector.matchLabels().keySet());
    selector.requirements().forEach(requirement -> keys.add(requirement.key()));
    for (final String key : keys) {
      if (!allows(key)) {
        refusals.add(
            "the namespace selector is keyed on label "
                + key
                + ", which tenants may set on their namespaces; allowed keys (admission.quota"
                + ".selector.keys): "
                + String.join(", ", new TreeSet<>(allowed)));
      }
    }
    if (!selectsByPresence(selector)) {
      refusals.add(
          "the namespace selector selects every namespace that lacks a label (or every"
              + " namespace): it needs a matchLabels entry, or an In or Exists expression, on an"
              + " allowed key other than the mere existence of "
              + NAME_KEY);
    }
    return refusals;
  }

  private boolean allows(String key) {
    for (final String entry : allowed) {
      if (entry.endsWith("/") ? key.startsWith(entry) : key.equals(entry)) {
        return true;
      }
    }
    return false;
  }

  /** Whether some clause holds only for namespaces carrying a chosen label value. */
  private static boolean selectsByPresence(NamespaceSelector selector) {
    if (!selector.matchLabels().isEmpty()) {
      return true;
    }
    for (final Requirement requirement : selector.requirements()) {
      if (requirement.operator() == Operator.IN
          || (requirement.operator() == Operator.EXISTS && !NAME_KEY.equals(requirement.key()))) {
        return true;
      }
    }
    return false;
  }
}
