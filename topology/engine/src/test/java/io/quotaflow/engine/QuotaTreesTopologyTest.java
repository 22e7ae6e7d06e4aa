package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.LabelOperator;
import io.quotaflow.schemas.LabelRequirement;
import io.quotaflow.schemas.NodeSelectorSpec;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.QuotaProfileSpec;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Several quota trees per cluster (ElasticQuotaProfile, docs/semantics.md section 15) in the
 * topology: one tree state per (cluster, tree), records naming their tree, and a change in one tree
 * recomputing that tree only.
 */
class QuotaTreesTopologyTest {
  private static final String EAST = "east";
  private static final String POOL = "quotaflow.io/pool";

  private EngineDriver engine;

  static NodeState pooled(final long cpuMillis, final String pool) {
    return NodeState.newBuilder(node(cpuMillis)).setLabels(Map.of(POOL, pool)).build();
  }

  static QuotaProfileSpec profile(final String tree, final String root, final String ratio) {
    return QuotaProfileSpec.newBuilder()
        .setTreeId(tree)
        .setQuotaName(root)
        .setResourceRatio(ratio)
        .setNodeSelector(
            NodeSelectorSpec.newBuilder()
                .setMatchLabels(Map.of())
                .setMatchExpressions(
                    List.of(
                        LabelRequirement.newBuilder()
                            .setKey(POOL)
                            .setOperator(LabelOperator.IN)
                            .setValues(List.of(tree))
                            .build()))
                .build())
        .build();
  }

  /** gpu: 2 nodes of 10 cores at ratio 0.9 (18 cores); cpu: 1 node of 8 cores at ratio 1. */
  @BeforeEach
  void startWithTwoPoolsAndAGroupInEach() {
    engine = new EngineDriver();
    engine
        .putNode(EAST, "gpu-1", pooled(10_000, "gpu"))
        .putNode(EAST, "gpu-2", pooled(10_000, "gpu"))
        .putNode(EAST, "cpu-1", pooled(8_000, "cpu"))
        .putProfile(EAST, "gpu", profile("gpu", "gpu-root", "0.9"))
        .putProfile(EAST, "cpu", profile("cpu", "cpu-root", null))
        .putQuota(
            EAST, "vision", quota().parent("gpu-root").min(cpu(4_000)).max(cpu(20_000)).build())
        .putQuota(EAST, "nlp", quota().parent("gpu-root").min(cpu(4_000)).max(cpu(20_000)).build())
        .putQuota(EAST, "web", quota().parent("cpu-root").min(cpu(2_000)).max(cpu(8_000)).build())
        .recompute();
  }

  @AfterEach
  void close() {
    engine.close();
  }

  private Map<String, GroupRuntime> latest() {
    return engine.runtimeRecords().stream()
        .filter(record -> record.value() != null)
        .collect(
            Collectors.toMap(record -> record.key().getName(), TestRecord::value, (a, b) -> b));
  }

  private long recomputations() {
    final Timer timer = engine.metrics().registry().find(EngineMetrics.RECOMPUTE_TIME).timer();
    return timer == null ? 0 : timer.count();
  }

  @Test
  void theProfilesRootCarriesTheTreesTotalAsRuntimeAndEveryRecordNamesItsTree() {
    final Map<String, GroupRuntime> records = latest();
    assertThat(records.get("gpu-root").getRuntime()).isEqualTo(cpu(18_000));
    assertThat(records.get("gpu-root").getTree()).contains("gpu");
    assertThat(records.get("cpu-root").getRuntime()).isEqualTo(cpu(8_000));
    assertThat(records.get("web").getTree()).contains("cpu");
    assertThat(records.get("vision").getTree()).contains("gpu");
    // The default tree keeps the whole cluster, and its records carry no tree (as before).
    assertThat(records.get("koordinator-root-quota").getRuntime()).isEqualTo(cpu(28_000));
    assertThat(records.get("koordinator-root-quota").getTree()).isEmpty();
  }

  @Test
  void aPodChargesTheTreeOfItsGroupOnly() {
    latest();
    engine.putPod(EAST, "vision", pod("v-1").group("vision").cpu(20_000)).recompute();
    final Map<String, GroupRuntime> records = latest();
    // nlp has no pods and lends its whole min: vision gets the tree's 18 cores of the 20 it asks,
    // not the cluster's 28.
    assertThat(records.get("vision").getRuntime()).isEqualTo(cpu(18_000));
    assertThat(records.keySet()).isSubsetOf("vision", "nlp", "gpu-root");
  }

  @Test
  void aChangeInOneTreeRecomputesThatTreeAlone() {
    latest();
    final long before = recomputations();
    engine.putPod(EAST, "web", pod("w-1").group("web").cpu(1_000)).recompute();
    assertThat(recomputations() - before).isEqualTo(1);
    assertThat(latest().values()).allMatch(record -> record.getTree().orElse("").equals("cpu"));

    final long afterPod = recomputations();
    engine
        .putQuota(EAST, "nlp", quota().parent("gpu-root").min(cpu(6_000)).max(cpu(20_000)).build())
        .recompute();
    assertThat(recomputations() - afterPod).isEqualTo(1);
    assertThat(latest().values()).allMatch(record -> record.getTree().orElse("").equals("gpu"));
  }

  @Test
  void aRatioOutsideZeroToOneInvalidatesItsTreeAndNothingElse() {
    latest();
    engine.putProfile(EAST, "gpu", profile("gpu", "gpu-root", "1.5")).recompute();
    final Map<String, GroupRuntime> records = latest();
    assertThat(records.get("gpu-root").getValid()).isFalse();
    assertThat(records.get("gpu-root").getReason().orElseThrow())
        .contains("ElasticQuotaProfile gpu spec.resourceRatio: 1.5 is outside (0, 1]");
    assertThat(records.get("vision").getValid()).isFalse();
    assertThat(records.keySet()).doesNotContain("web", "cpu-root", "koordinator-root-quota");
  }

  @Test
  void aTreeIdNamingNoProfileIsReportedOnTheGroup() {
    latest();
    engine
        .putQuota(
            EAST,
            "lost",
            io.quotaflow.schemas.QuotaSpec.newBuilder(
                    quota().min(cpu(1_000)).max(cpu(2_000)).build())
                .setTreeId("tpu")
                .build())
        .recompute();
    final GroupRuntime lost = latest().get("lost");
    assertThat(lost.getValid()).isFalse();
    assertThat(lost.getReason().orElseThrow()).contains("tpu names no ElasticQuotaProfile");
    assertThat(lost.getTree()).isEmpty();
  }

  @Test
  void removingAProfileMovesItsGroupsBackToTheDefaultTree() {
    latest();
    engine.putProfile(EAST, "cpu", null).recompute();
    final List<TestRecord<QuotaKey, GroupRuntime>> records = engine.runtimeRecords();
    assertThat(records)
        .anySatisfy(
            record -> {
              assertThat(record.key().getName()).isEqualTo("web");
              assertThat(record.value()).isNotNull();
              assertThat(record.value().getTree()).isEmpty();
            });
  }
}
