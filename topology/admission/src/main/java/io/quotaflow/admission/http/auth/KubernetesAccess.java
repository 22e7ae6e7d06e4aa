package io.quotaflow.admission.http.auth;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@link Access} from the API server of the cluster the plugin runs in: a TokenReview for each
 * token, a SubjectAccessReview for each question (the service account needs the ClusterRole {@code
 * system:auth-delegator}, as kube-rbac-proxy does). Wrap it in {@link CachedAccess}.
 */
public final class KubernetesAccess implements Access {

  private final KubernetesClient client;

  public KubernetesAccess(KubernetesClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  @Override
  public Optional<User> authenticate(String token) {
    final TokenReview review =
        client
            .resource(new TokenReviewBuilder().withNewSpec().withToken(token).endSpec().build())
            .create();
    if (review.getStatus() == null
        || !Boolean.TRUE.equals(review.getStatus().getAuthenticated())
        || review.getStatus().getUser() == null) {
      return Optional.empty();
    }
    final var user = review.getStatus().getUser();
    final Map<String, List<String>> extra = new TreeMap<>();
    if (user.getExtra() != null) {
      user.getExtra().forEach((key, values) -> extra.put(key, values == null ? List.of() : values));
    }
    return Optional.of(
        new User(
            user.getUsername(),
            user.getUid() == null ? "" : user.getUid(),
            user.getGroups() == null ? List.of() : user.getGroups(),
            extra));
  }

  @Override
  public boolean allowed(User user, String verb, String group, String resource, String namespace) {
    final SubjectAccessReview review =
        client
            .resource(
                new SubjectAccessReviewBuilder()
                    .withNewSpec()
                    .withUser(user.name())
                    .withUid(user.uid().isEmpty() ? null : user.uid())
                    .withGroups(user.groups())
                    .withExtra(user.extra().isEmpty() ? null : user.extra())
                    .withNewResourceAttributes()
                    .withVerb(verb)
                    .withGroup(group)
                    .withResource(resource)
                    .withNamespace(namespace)
                    .endResourceAttributes()
                    .endSpec()
                    .build())
            .create();
    return review.getStatus() != null && Boolean.TRUE.equals(review.getStatus().getAllowed());
  }

  @Override
  public boolean allowedPath(User user, String verb, String path) {
    final SubjectAccessReview review =
        client
            .resource(
                new SubjectAccessReviewBuilder()
                    .withNewSpec()
                    .withUser(user.name())
                    .withGroups(user.groups())
                    .withNewNonResourceAttributes()
                    .withVerb(verb)
                    .withPath(path)
                    .endNonResourceAttributes()
                    .endSpec()
                    .build())
            .create();
    return review.getStatus() != null && Boolean.TRUE.equals(review.getStatus().getAllowed());
  }
}
