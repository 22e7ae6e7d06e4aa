package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.NamespaceBinding;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecialGroups;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 24, point 1: a pod may name a group in its quota-name label only if the group admits the
 * pod's namespace; otherwise it is charged as if unlabelled, with the reason, and the pod webhook
 * denies it (AdmissionRequest). Open binding keeps Koordinator's behaviour.
 */
class NamespaceBindingTest {

  private static final QuotaGroup VISION =
      QuotaGroup.builder("research-vision")
          .namespace("quotas")
          .namespaces(List.of("vision"))
          .build();
  private static final QuotaGroup PLAYGROUND = QuotaGroup.builder("playground").build();

  private static GroupDirectory directory(NamespaceBinding binding) {
    final GroupDirectory directory = new GroupDirectory(false, 0, binding);
    directory.put(VISION);
    directory.put(PLAYGROUND);
    return directory;
  }

  private static QuotaPod pod(String namespace, String label) {
    return QuotaPod.builder(namespace, "p").quotaName(label).build();
  }

  @Test
  void aPodLabelledWithAGroupOfAnotherNamespaceIsChargedAsIfUnlabelled() {
    final GroupDirectory.Target target =
        directory(NamespaceBinding.STRICT).resolve(pod("playground", "research-vision"));

    assertThat(target.group()).isEqualTo("playground");
    assertThat(target.unbound())
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .contains("namespace playground is not bound to quota group research-vision")
                    .contains("quota.scheduling.koordinator.sh/namespaces"));
  }

  @Test
  void aPodLabelledWithTheSystemGroupOutsideItsNamespacesIsChargedAsIfUnlabelled() {
    final GroupDirectory.Target target =
        directory(NamespaceBinding.STRICT).resolve(pod("playground", SpecialGroups.SYSTEM));

    assertThat(target.group()).isEqualTo("playground");
    assertThat(target.unbound()).hasValueSatisfying(r -> assertThat(r).contains("kube-system"));
    assertThat(
            directory(NamespaceBinding.STRICT)
                .resolve(pod("kube-system", SpecialGroups.SYSTEM))
                .group())
        .isEqualTo(SpecialGroups.SYSTEM);
  }

  @Test
  void aGroupAdmitsItsOwnNamespaceTheNamespacesItListsAndTheNamespaceNamedLikeIt() {
    final GroupDirectory strict = directory(NamespaceBinding.STRICT);

    assertThat(strict.resolve(pod("vision", "research-vision")).group())
        .isEqualTo("research-vision");
    assertThat(strict.resolve(pod("quotas", "research-vision")).group())
        .isEqualTo("research-vision");
    assertThat(strict.resolve(pod("research-vision", "research-vision")).unbound()).isEmpty();
  }

  @Test
  void aGroupWhoseNamespaceIsUnknownAdmitsEveryNamespace() {
    assertThat(directory(NamespaceBinding.STRICT).resolve(pod("anywhere", "playground")).group())
        .isEqualTo("playground");
  }

  @Test
  void openBindingKeepsKoordinatorsBehaviour() {
    final GroupDirectory open = directory(NamespaceBinding.OPEN);

    assertThat(open.resolve(pod("playground", "research-vision")).group())
        .isEqualTo("research-vision");
    assertThat(open.resolve(pod("playground", SpecialGroups.SYSTEM)).group())
        .isEqualTo(SpecialGroups.SYSTEM);
  }

  @Test
  void theSpecialGroupsNamespacesAreASetting() {
    final GroupDirectory custom = directory(new NamespaceBinding(false, Set.of("platform")));

    assertThat(custom.resolve(pod("platform", SpecialGroups.DEFAULT)).unbound()).isEmpty();
    assertThat(custom.resolve(pod("kube-system", SpecialGroups.DEFAULT)).unbound()).isPresent();
  }
}
