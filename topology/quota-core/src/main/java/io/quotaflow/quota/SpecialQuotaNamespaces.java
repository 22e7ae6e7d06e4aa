package io.quotaflow.quota;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The namespaces whose ElasticQuotas may define the special groups (root, system, default; issue
 * 24, issue 39 point 5). The quotas webhook refuses a special group's ElasticQuota anywhere else,
 * but it is not called for every namespace (its namespaceSelector skips kube-system and quotaflow)
 * nor before it is installed: the connectors and the engine apply the same rule, so that a tenant's
 * object named like a special group never becomes the root, system or default group.
 *
 * @param namespaces the namespaces whose ElasticQuotas may define the special groups
 */
public record SpecialQuotaNamespaces(Set<String> namespaces) {

  /** As the webhook's {@code admission.quota.special.namespaces} unless configured. */
  public static final Set<String> DEFAULT_NAMESPACES =
      Set.of("kube-system", "quotaflow", "koordinator-system");

  public static final SpecialQuotaNamespaces DEFAULT =
      new SpecialQuotaNamespaces(DEFAULT_NAMESPACES);

  /** Copies the set. */
  public SpecialQuotaNamespaces {
    namespaces = Set.copyOf(Objects.requireNonNull(namespaces, "namespaces"));
  }

  /**
   * Whether an ElasticQuota named {@code name} in {@code namespace} may stand for its group: any
   * ordinary name may; a special group's only in the special namespaces (an unknown, empty
   * namespace is outside them).
   */
  public boolean mayDefine(String name, String namespace) {
    return !SpecialGroups.isSpecial(name) || namespaces.contains(namespace);
  }

  /** {@link #mayDefine} of the group's name and namespace. */
  public boolean mayDefine(QuotaGroup group) {
    return mayDefine(group.name(), group.namespace());
  }

  /**
   * Why the ElasticQuota named {@code name} in {@code namespace} is ignored; empty if it is not.
   */
  public Optional<String> refusal(String name, String namespace) {
    if (mayDefine(name, namespace)) {
      return Optional.empty();
    }
    return Optional.of(
        "the special group "
            + name
            + " may only be defined by an ElasticQuota of namespace "
            + String.join(" or ", new TreeSet<>(namespaces))
            + ", not of namespace "
            + (namespace.isEmpty() ? "(unknown)" : namespace)
            + ": that ElasticQuota is ignored");
  }
}
