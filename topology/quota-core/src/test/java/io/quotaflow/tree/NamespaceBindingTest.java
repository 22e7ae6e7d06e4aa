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
  void aGroupAdmitsItsOwnNamespaceAndTheNamespacesItLists() {
    final GroupDirectory strict = directory(NamespaceBinding.STRICT);

    assertThat(strict.resolve(pod("vision", "research-vision")).group())
        .isEqualTo("research-vision");
    assertThat(strict.resolve(pod("quotas", "research-vision")).group())
        .isEqualTo("research-vision");
  }

  /**
   * Issue 39, point 4: whoever may create namespace {@code research-vision} could name the group in
   * a label and join it. The namespace named like a group binds labels only when configured; it
   * still owns its unlabelled pods (SPEC 4).
   */
  @Test
  void theNamespaceNamedLikeAGroupBindsLabelsOnlyWhenConfigured() {
    final QuotaPod labelled = pod("research-vision", "research-vision");

    assertThat(
            directory(NamespaceBinding.STRICT.withNamesakeBinds(false)).resolve(labelled).unbound())
        .hasValueSatisfying(
            r -> assertThat(r).contains("not bound to quota group research-vision"));
    assertThat(
            directory(NamespaceBinding.STRICT.withNamesakeBinds(true)).resolve(labelled).unbound())
        .isEmpty();
    assertThat(
            directory(NamespaceBinding.STRICT.withNamesakeBinds(false))
                .resolve(QuotaPod.builder("research-vision", "plain").build())
                .group())
        .isEqualTo("research-vision");
  }

  /**
   * Issue 39, points 4 and 5, with the defaults (the engine's, simulate's and the webhook's): a
   * namespace created with a group's name cannot label its pods into it, and a group whose
   * ElasticQuota namespace is unknown admits no namespace's labels.
   */
  @Test
  void byDefaultNeitherTheNamesakeNorAnUnknownNamespaceBindsLabels() {
    final GroupDirectory defaults = new GroupDirectory(QuotaOptions.DEFAULTS);
    defaults.put(VISION);
    defaults.put(PLAYGROUND);

    assertThat(defaults.resolve(pod("research-vision", "research-vision")).unbound()).isPresent();
    assertThat(defaults.resolve(pod("anywhere", "playground")).unbound()).isPresent();
    assertThat(defaults.resolve(pod("anywhere", "playground")).group())
        .isEqualTo(SpecialGroups.DEFAULT);
  }

  @Test
  void aGroupAdmitsTheNamespacesItsSelectorSelects() {
    final GroupDirectory directory = new GroupDirectory(false, 0, NamespaceBinding.STRICT);
    directory.put(
        QuotaGroup.builder("research-nlp")
            .namespace("quotas")
            .selectedNamespaces(List.of("nlp-dev", "nlp-prod"))
            .build());

    assertThat(directory.resolve(pod("nlp-dev", "research-nlp")).group()).isEqualTo("research-nlp");
    assertThat(directory.resolve(pod("nlp-prod", "research-nlp")).unbound()).isEmpty();
    assertThat(directory.resolve(pod("playground", "research-nlp")).unbound())
        .hasValueSatisfying(r -> assertThat(r).contains("quotaflow.io/namespace-selector"));
    // Selected namespaces are bound, not owned: their unlabelled pods do not join the group.
    assertThat(directory.resolve(QuotaPod.builder("nlp-dev", "plain").build()).group())
        .isEqualTo(SpecialGroups.DEFAULT);
  }

  /**
   * Issue 39, point 5: a group whose ElasticQuota namespace is unknown (a record from before the
   * connectors sent it) admitted every namespace; it admits none but those it lists or selects,
   * unless configured.
   */
  @Test
  void aGroupWhoseNamespaceIsUnknownAdmitsNoNamespaceUnlessConfigured() {
    assertThat(
            directory(NamespaceBinding.STRICT.withUnknownNamespaceAdmitsAll(false))
                .resolve(pod("anywhere", "playground"))
                .unbound())
        .hasValueSatisfying(r -> assertThat(r).contains("not known yet"));
    assertThat(
            directory(NamespaceBinding.STRICT.withUnknownNamespaceAdmitsAll(true))
                .resolve(pod("anywhere", "playground"))
                .group())
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
  void aPodThatGotInWithAnUnboundLabelCarriesTheReasonAndIsCounted() {
    final ClusterQuotaState state = new ClusterQuotaState(QuotaOptions.DEFAULTS);
    state.putGroup(VISION);
    state.putGroup(PLAYGROUND);
    state.putPod(
        QuotaPod.builder("playground", "escaper")
            .quotaName("research-vision")
            .request(Fixtures.cpu(1000))
            .running("n1")
            .build());

    final PodAssignment charged = onlyPod(state.recompute());
    assertThat(charged.group()).isEqualTo("playground");
    assertThat(charged.unbound())
        .hasValueSatisfying(
            r -> assertThat(r).contains("not bound to quota group research-vision"));
    assertThat(state.unboundPods()).isEqualTo(1);

    // The group's owner binds the namespace: the label is honoured from then on.
    state.putGroup(
        QuotaGroup.builder("research-vision")
            .namespace("quotas")
            .namespaces(List.of("vision", "playground"))
            .build());
    final PodAssignment bound = onlyPod(state.recompute());
    assertThat(bound.group()).isEqualTo("research-vision");
    assertThat(bound.unbound()).isEmpty();
    assertThat(state.unboundPods()).isZero();
  }

  @Test
  void aRemovedUnboundPodIsNoLongerCounted() {
    final ClusterQuotaState state = new ClusterQuotaState(QuotaOptions.DEFAULTS);
    state.putGroup(VISION);
    final QuotaPod escaper = pod("playground", "research-vision");
    state.putPod(escaper);
    state.recompute();
    assertThat(state.unboundPods()).isEqualTo(1);

    state.removePod(escaper.ref());

    assertThat(state.unboundPods()).isZero();
  }

  private static PodAssignment onlyPod(TreeDelta delta) {
    assertThat(delta.changedPods()).hasSize(1);
    return delta.changedPods().get(0);
  }

  @Test
  void theSpecialGroupsNamespacesAreASetting() {
    final GroupDirectory custom = directory(new NamespaceBinding(false, Set.of("platform")));

    assertThat(custom.resolve(pod("platform", SpecialGroups.DEFAULT)).unbound()).isEmpty();
    assertThat(custom.resolve(pod("kube-system", SpecialGroups.DEFAULT)).unbound()).isPresent();
  }
}
