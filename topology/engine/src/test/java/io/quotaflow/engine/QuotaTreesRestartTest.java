package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static io.quotaflow.engine.QuotaTreesTopologyTest.pooled;
import static io.quotaflow.engine.QuotaTreesTopologyTest.profile;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.QuotaKey;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A restarted task rebuilds a cluster with ElasticQuotaProfiles tree by tree from its stores (the
 * router built in one pass): it emits nothing the stores already say, and a later input goes to the
 * tree it went to before. gpu: two 10-core nodes at ratio 0.9; cpu: one 8-core node.
 */
class QuotaTreesRestartTest {
  private static final String EAST = "east";

  private ProcessorHarness harness;

  @BeforeEach
  void startWithTwoPools() {
    harness = new ProcessorHarness();
    harness
        .node(EAST, "gpu-1", pooled(10_000, "gpu"))
        .node(EAST, "gpu-2", pooled(10_000, "gpu"))
        .node(EAST, "cpu-1", pooled(8_000, "cpu"))
        .profile(EAST, "gpu", profile("gpu", "gpu-root", "0.9"))
        .profile(EAST, "cpu", profile("cpu", "cpu-root", null))
        .quota(EAST, "vision", quota().parent("gpu-root").min(cpu(4_000)).max(cpu(20_000)).build())
        .quota(EAST, "web", quota().parent("cpu-root").min(cpu(2_000)).max(cpu(8_000)).build())
        .pod(EAST, "web", pod("w-1").group("web").running("cpu-1").cpu(3_000))
        .recompute();
    final Map<String, GroupRuntime> first = byName(harness.runtime());
    assertThat(first.get("gpu-root").getRuntime()).isEqualTo(cpu(18_000));
    assertThat(first.get("web").getTree()).contains("cpu");
  }

  private static Map<String, GroupRuntime> byName(final List<Record<QuotaKey, GroupRuntime>> all) {
    return all.stream()
        .filter(record -> record.value() != null)
        .collect(Collectors.toMap(record -> record.key().getName(), Record::value, (a, b) -> b));
  }

  @Test
  void aRestartedTaskEmitsNothingTheStoresAlreadySay() {
    harness.restart().recompute();

    assertThat(harness.runtime()).isEmpty();
    assertThat(harness.podClasses()).isEmpty();
  }

  @Test
  void aPodAfterTheRestartChargesTheTreeOfItsGroupOnly() {
    harness.restart().recompute();
    harness.pod(EAST, "vision", pod("v-1").group("vision").cpu(20_000)).recompute();

    final Map<String, GroupRuntime> records = byName(harness.runtime());
    // vision gets the gpu tree's 18 cores of the 20 it asks, not the cluster's 28.
    assertThat(records.get("vision").getRuntime()).isEqualTo(cpu(18_000));
    assertThat(records.get("vision").getTree()).contains("gpu");
    assertThat(records.keySet()).isSubsetOf("vision", "gpu-root");
  }
}
