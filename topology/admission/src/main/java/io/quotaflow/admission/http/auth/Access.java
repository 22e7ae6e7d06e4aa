package io.quotaflow.admission.http.auth;

import java.util.Optional;

/**
 * Who a bearer token is and what they may do, as the Kubernetes API server says it (TokenReview,
 * SubjectAccessReview): the plugin enforces RBAC on its reads as the API server would (issue 25).
 */
public interface Access {

  /** The user of {@code token}; empty when the API server does not authenticate it. */
  Optional<User> authenticate(String token);

  /**
   * Whether {@code user} may {@code verb} {@code resource} of API group {@code group} (empty: the
   * core group) in {@code namespace} (empty: in every namespace, cluster-wide).
   */
  boolean allowed(User user, String verb, String group, String resource, String namespace);

  /**
   * Whether {@code user} may {@code verb} the non-resource URL {@code path} (RBAC's {@code
   * nonResourceURLs}, as kube-rbac-proxy asks for {@code /metrics}). By default nobody may.
   */
  default boolean allowedPath(User user, String verb, String path) {
    return false;
  }
}
