package io.quotaflow.admission.http.auth;

import java.util.List;
import java.util.Objects;

/**
 * A person (or service account) as the API server's TokenReview names it.
 *
 * @param name the user name, e.g. {@code alice} or {@code system:serviceaccount:ns:name}
 * @param groups the groups it belongs to
 */
public record User(String name, List<String> groups) {
  public User {
    Objects.requireNonNull(name, "name");
    groups = List.copyOf(groups);
  }
}
