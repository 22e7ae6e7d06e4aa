package io.quotaflow.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.QuotaOptions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 39 point 5 (attack): a record of a special group whose ElasticQuota is of a tenant's
 * namespace (written by an old connector, or forged) never becomes the special group; it is ignored
 * and counted with the ignored namesakes.
 */
class SpecialGroupRecordsTest {

  private static QuotaGroup defaultGroup(String namespace, long cpu) {
    return QuotaGroup.builder(SpecialGroups.DEFAULT)
        .namespace(namespace)
        .max(ResourceList.of("cpu", cpu))
        .build();
  }

  private static Optional<QuotaGroup> routed(QuotaTrees trees, String name) {
    return trees.inputs(QuotaTrees.DEFAULT_TREE).groups().stream()
        .filter(group -> group.name().equals(name))
        .findFirst();
  }

  @Test
  void aTenantsSpecialGroupRecordIsIgnoredAndCounted() {
    final QuotaTrees trees = new QuotaTrees(QuotaOptions.DEFAULTS);
    trees.putGroup(defaultGroup("kube-system", 8_000));
    assertThat(routed(trees, SpecialGroups.DEFAULT))
        .get()
        .extracting(QuotaGroup::namespace)
        .isEqualTo("kube-system");

    trees.putGroup(defaultGroup("team-a", 1));

    assertThat(routed(trees, SpecialGroups.DEFAULT)).isEmpty();
    assertThat(trees.ignoredNamesakes()).isEqualTo(1);

    trees.putGroup(defaultGroup("quotaflow", 4_000));
    assertThat(routed(trees, SpecialGroups.DEFAULT))
        .get()
        .extracting(QuotaGroup::namespace)
        .isEqualTo("quotaflow");
    assertThat(trees.ignoredNamesakes()).isZero();

    trees.putGroup(defaultGroup("team-a", 1));
    trees.removeGroup(SpecialGroups.DEFAULT);
    assertThat(trees.ignoredNamesakes()).isZero();
  }

  @Test
  void aRestoredTenantsSpecialGroupRecordIsIgnoredAndCounted() {
    final QuotaGroup root =
        QuotaGroup.builder(SpecialGroups.ROOT)
            .namespace("team-a")
            .max(ResourceList.of("cpu", 1))
            .build();
    final QuotaTrees trees =
        QuotaTrees.of(
            new ClusterInputs(
                List.of(root, QuotaGroup.builder("team-a").namespace("team-a").build()),
                List.of(),
                List.of()),
            List.of(),
            QuotaOptions.DEFAULTS);

    assertThat(routed(trees, SpecialGroups.ROOT)).isEmpty();
    assertThat(routed(trees, "team-a")).isPresent();
    assertThat(trees.ignoredNamesakes()).isEqualTo(1);
  }
}
