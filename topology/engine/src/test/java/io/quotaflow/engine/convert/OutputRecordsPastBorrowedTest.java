package io.quotaflow.engine.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.tree.GroupStatus;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A runtime record carries the group's past borrowing (fair share with memory, docs/semantics.md
 * section 24) and gives it back: the admission plugin's what-if and explanation weigh the splits
 * with it.
 */
class OutputRecordsPastBorrowedTest {

  private static GroupStatus status(ResourceList pastBorrowed) {
    final ResourceList gpus = ResourceList.of("nvidia.com/gpu", 5);
    return new GroupStatus(
        "team-a",
        "koordinator-root-quota",
        false,
        true,
        Optional.empty(),
        gpus,
        gpus,
        gpus,
        gpus,
        gpus,
        gpus,
        gpus,
        ResourceList.empty(),
        ResourceList.empty(),
        gpus,
        ResourceList.empty(),
        pastBorrowed);
  }

  @Test
  void pastBorrowedGoesThroughTheRuntimeRecord() {
    final GroupStatus status = status(ResourceList.of("nvidia.com/gpu", 4));
    final GroupRuntime record =
        OutputRecords.runtime(
            status, ResourceList.empty(), null, QuotaTrees.DEFAULT_TREE, Instant.EPOCH);

    assertThat(record.getPastBorrowed()).containsEntry("nvidia.com/gpu", 4L);
    assertThat(OutputRecords.status("team-a", record)).isEqualTo(status);
  }

  @Test
  void withoutMemoryTheRecordHasNoPastBorrowed() {
    final GroupRuntime record =
        OutputRecords.runtime(
            status(ResourceList.empty()),
            ResourceList.empty(),
            null,
            QuotaTrees.DEFAULT_TREE,
            Instant.EPOCH);

    assertThat(record.getPastBorrowed()).isEmpty();
  }
}
