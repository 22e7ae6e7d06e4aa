package io.quotaflow.admission.http.auth;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.SpecialGroups;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one person may see of the quota tree, for one request (issue 25): the groups bound to a
 * namespace where they may {@code list pods} (their own namespace, the namespaces annotation, the
 * namespaces their selector selects, and the namespace named like them only where that namespace
 * binds labels: whoever may create a namespace could otherwise see any team's pods, issue 39), with
 * their pods; the ancestors of those groups, without pods; everything when they may list pods in
 * every namespace (cluster admins). The what-if needs the right to update ElasticQuotas. Answers
 * are asked once per request (and cached across requests by {@link CachedAccess}).
 */
public final class Viewer {

  private static final String QUOTA_API_GROUP = "scheduling.sigs.k8s.io";

  /** Sees and may do everything: authentication is off. */
  public static final Viewer EVERYONE = new Viewer(null, null, false);

  private final User user;
  private final Access access;
  private final boolean namesakeBinds;
  private final Map<String, Boolean> listable = new ConcurrentHashMap<>();
  private Boolean seesAll;

  private Viewer(User user, Access access, boolean namesakeBinds) {
    this.user = user;
    this.access = access;
    this.namesakeBinds = namesakeBinds;
  }

  /** The viewer {@code user}, judged by {@code access}; the namesake namespace grants nothing. */
  public static Viewer of(User user, Access access) {
    return new Viewer(user, access, false);
  }

  /**
   * The viewer {@code user}, judged by {@code access}; the namespace named like a group grants view
   * of it when {@code namesakeBinds} ({@code quota.namespace.binding.namesake}).
   */
  public static Viewer of(User user, Access access, boolean namesakeBinds) {
    return new Viewer(user, access, namesakeBinds);
  }

  /** The user; empty for {@link #EVERYONE}. */
  public Optional<User> user() {
    return Optional.ofNullable(user);
  }

  /** Whether this viewer sees every group and pod. */
  public synchronized boolean seesAll() {
    if (access == null) {
      return true;
    }
    if (seesAll == null) {
      seesAll = access.allowed(user, "list", "", "pods", "");
    }
    return seesAll;
  }

  /** Whether this viewer sees group {@code spec} and its pods. */
  public boolean sees(QuotaGroup spec) {
    if (seesAll()) {
      return true;
    }
    if (SpecialGroups.isSpecial(spec.name())) {
      return false;
    }
    for (final String namespace : boundNamespaces(spec)) {
      if (listsPodsIn(namespace)) {
        return true;
      }
    }
    return false;
  }

  /** Whether this viewer may list the pods of {@code namespace} (and so see that they exist). */
  public boolean listsPodsIn(String namespace) {
    return seesAll()
        || listable.computeIfAbsent(namespace, ns -> access.allowed(user, "list", "", "pods", ns));
  }

  /** Whether this viewer may run a what-if (the right to update ElasticQuotas anywhere). */
  public boolean mayEditQuotas() {
    return access == null || access.allowed(user, "update", QUOTA_API_GROUP, "elasticquotas", "");
  }

  /** Whether this viewer may read {@code path} (RBAC {@code nonResourceURLs}, verb {@code get}). */
  public boolean mayGet(String path) {
    return access == null || access.allowedPath(user, "get", path);
  }

  private Set<String> boundNamespaces(QuotaGroup spec) {
    final Set<String> namespaces = new LinkedHashSet<>();
    if (!spec.namespace().isEmpty()) {
      namespaces.add(spec.namespace());
    }
    if (namesakeBinds) {
      namespaces.add(spec.name());
    }
    namespaces.addAll(spec.namespaces());
    namespaces.addAll(spec.selectedNamespaces());
    return namespaces;
  }
}
