package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaOptions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EngineTreeTest {

  @Test
  void parentsComeBeforeTheirChildrenAndSiblingsByName() {
    final List<GroupStatus> stored =
        List.of(
            group("product-web", "product"),
            group("koordinator-root-quota", ""),
            group("research", "koordinator-root-quota"),
            group("product", "koordinator-root-quota"),
            group("product-batch", "product"),
            group("research-nlp", "research"));

    assertThat(EngineTree.treeOrder(stored))
        .extracting(GroupStatus::name)
        .containsExactly(
            "koordinator-root-quota",
            "product",
            "product-batch",
            "product-web",
            "research",
            "research-nlp");
  }

  @Test
  void groupsOnAParentCycleAreKeptAtTheEnd() {
    final List<GroupStatus> stored =
        List.of(group("a", "b"), group("b", "a"), group("koordinator-root-quota", ""));

    assertThat(EngineTree.treeOrder(stored))
        .extracting(GroupStatus::name)
        .containsExactly("koordinator-root-quota", "a", "b");
  }

  @Test
  void theTotalAddsUpTheNodes() {
    final List<QuotaNode> nodes =
        List.of(
            QuotaNode.healthy("n1", ResourceList.of("cpu", 4000, "nvidia.com/gpu", 2)),
            QuotaNode.healthy("n2", ResourceList.of("cpu", 8000, "nvidia.com/gpu", 0)));

    assertThat(EngineTree.total(nodes, QuotaOptions.DEFAULTS))
        .isEqualTo(ResourceList.of("cpu", 12000, "nvidia.com/gpu", 2));
  }

  private static GroupStatus group(final String name, final String parent) {
    final ResourceList none = ResourceList.empty();
    return new GroupStatus(
        name,
        parent,
        false,
        true,
        Optional.empty(),
        none,
        none,
        none,
        none,
        none,
        none,
        none,
        none,
        none,
        none);
  }
}
