package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaOptions;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an engine instance holds, as its stores answer queries: for tests of task re-creation and
 * outages, which must show the state held, not only the records published before.
 */
final class HeldState {
  private HeldState() {}

  /**
   * Asserts the instance runs and every cluster's tree it answers equals the core's computation.
   */
  static void assertQueriesMatch(
      final Engine engine, final InputModel model, final List<String> clusters) {
    assertThat(EngineInstances.running(engine))
        .as("instance running (state %s)", engine.streams().state())
        .isTrue();
    for (final String cluster : clusters) {
      final Map<String, GroupStatus> queried = new TreeMap<>();
      engine.queries().tree(cluster).forEach(group -> queried.put(group.name(), group));
      assertThat(queried).as(cluster).isEqualTo(model.expected(cluster, QuotaOptions.DEFAULTS));
    }
  }

  /** How many times a task of {@code engine} rebuilt its trees from its stores. */
  static long rebuilds(final Engine engine) {
    return engine.metrics().registry().get(EngineMetrics.REBUILD_TIME).timer().count();
  }
}
