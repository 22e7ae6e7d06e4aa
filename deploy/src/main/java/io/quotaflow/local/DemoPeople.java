package io.quotaflow.local;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewStatusBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceAttributes;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewStatusBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * The people of the demo cluster, for {@code quotaflow local --auth}: the demo API server answers
 * their TokenReviews and SubjectAccessReviews as a real one would, so that local signs people in
 * exactly as a deployment does. Two tokens, new at each start: a cluster admin's, and a tenant's
 * who may read the pods of namespace {@value #TENANT_NAMESPACE} only.
 */
final class DemoPeople {

  static final String ADMIN = "demo-admin";
  static final String TENANT = "vision-tenant";
  static final String TENANT_NAMESPACE = "vision";

  private static final Set<String> READ_VERBS = Set.of("get", "list", "watch");

  private final String adminToken = token();
  private final String tenantToken = token();

  String adminToken() {
    return adminToken;
  }

  String tenantToken() {
    return tenantToken;
  }

  /** The answer to a TokenReview's JSON. */
  String tokenReview(String body) {
    final TokenReview review = Serialization.unmarshal(body, TokenReview.class);
    final String token = review.getSpec() == null ? "" : review.getSpec().getToken();
    final TokenReviewStatusBuilder status = new TokenReviewStatusBuilder();
    if (adminToken.equals(token)) {
      status
          .withAuthenticated(true)
          .withNewUser()
          .withUsername(ADMIN)
          .withGroups(List.of("system:masters", "system:authenticated"))
          .endUser();
    } else if (tenantToken.equals(token)) {
      status
          .withAuthenticated(true)
          .withNewUser()
          .withUsername(TENANT)
          .withGroups(List.of("system:authenticated"))
          .endUser();
    } else {
      status.withAuthenticated(false).withError("invalid bearer token");
    }
    review.setStatus(status.build());
    return Serialization.asJson(review);
  }

  /** The answer to a SubjectAccessReview's JSON. */
  String accessReview(String body) {
    final SubjectAccessReview review = Serialization.unmarshal(body, SubjectAccessReview.class);
    final String user = review.getSpec() == null ? "" : review.getSpec().getUser();
    final ResourceAttributes asked =
        review.getSpec() == null ? null : review.getSpec().getResourceAttributes();
    final boolean allowed =
        ADMIN.equals(user)
            || (TENANT.equals(user)
                && asked != null
                && TENANT_NAMESPACE.equals(asked.getNamespace())
                && "pods".equals(asked.getResource())
                && READ_VERBS.contains(asked.getVerb()));
    review.setStatus(new SubjectAccessReviewStatusBuilder().withAllowed(allowed).build());
    return Serialization.asJson(review);
  }

  private static String token() {
    final byte[] bytes = new byte[16];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
