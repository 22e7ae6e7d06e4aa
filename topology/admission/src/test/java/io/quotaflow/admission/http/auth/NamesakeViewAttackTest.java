package io.quotaflow.admission.http.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.QuotaGroup;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 39, point 4, tried as a tenant would: mallory may create namespaces, so she creates one
 * named {@code research-vision} and may list pods there. The namespace named like a group granted
 * her the view of that team's group and pods; it now grants nothing unless the namesake namespace
 * binds labels ({@code quota.namespace.binding.namesake}).
 */
class NamesakeViewAttackTest {

  private static final String MALLORY = "mallory-token";

  /** mallory may list pods in the namespace she created, research-vision, and nowhere else. */
  private static final Access ACCESS =
      new Access() {
        @Override
        public Optional<User> authenticate(String token) {
          return token.equals(MALLORY)
              ? Optional.of(new User("mallory", List.of("system:authenticated")))
              : Optional.empty();
        }

        @Override
        public boolean allowed(
            User user, String verb, String group, String resource, String namespace) {
          return verb.equals("list")
              && resource.equals("pods")
              && namespace.equals("research-vision");
        }
      };

  private static final QuotaGroup VISION =
      QuotaGroup.builder("research-vision").namespace("vision").build();

  private static Viewer mallory(ApiAuth auth) {
    return auth.viewer(Optional.of(MALLORY)).orElseThrow();
  }

  @Test
  void aNamespaceNamedLikeAGroupGrantsNoViewOfIt() {
    assertThat(mallory(ApiAuth.with(ACCESS)).sees(VISION)).isFalse();
  }

  @Test
  void itDoesWhereTheNamesakeNamespaceBindsLabels() {
    assertThat(mallory(ApiAuth.with(ACCESS).withNamesakeBinds(true)).sees(VISION)).isTrue();
  }

  @Test
  void theNamespacesBoundToTheGroupStillGrantTheView() {
    final QuotaGroup listed =
        QuotaGroup.builder("research-nlp")
            .namespace("quotas")
            .namespaces(List.of("research-vision"))
            .build();

    assertThat(mallory(ApiAuth.with(ACCESS)).sees(listed)).isTrue();
  }
}
