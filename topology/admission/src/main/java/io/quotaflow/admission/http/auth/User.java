package io.quotaflow.admission.http.auth;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A person (or service account) as the API server's TokenReview names it. Every field is passed on
 * to the SubjectAccessReviews asked about it (issue 39): RBAC and authorisation webhooks may decide
 * by the uid or the extra attributes (a bound service-account token's pod, an OIDC claim), and
 * without them would judge another, lesser user.
 *
 * @param name the user name, e.g. {@code alice} or {@code system:serviceaccount:ns:name}
 * @param uid the user's uid; empty when the API server gave none
 * @param groups the groups it belongs to
 * @param extra the authenticator's extra attributes, e.g. {@code
 *     authentication.kubernetes.io/pod-name}
 */
public record User(String name, String uid, List<String> groups, Map<String, List<String>> extra) {
  public User {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(uid, "uid");
    groups = List.copyOf(groups);
    extra = Map.copyOf(extra);
    extra.values().forEach(Objects::requireNonNull);
  }

  /** A user with neither uid nor extra attributes. */
  public User(String name, List<String> groups) {
    this(name, "", groups, Map.of());
  }
}
