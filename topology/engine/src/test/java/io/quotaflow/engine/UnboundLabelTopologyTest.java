package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.PodQuotaClass;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 24: a pod whose quota-name label names a group not bound to its namespace got in anyway
 * (the pod webhook was down or failing open, or the pod predates quotaflow). The engine charges it
 * to the group its namespace resolves to, says why on its pod-classes.v1 record, and counts it in
 * the gauge {@value EngineMetrics#PODS_UNBOUND}. An ElasticQuota ignored for an older namesake is
 * counted too.
 */
class UnboundLabelTopologyTest {
  private static final String EAST = "east";

  private EngineDriver engine;

  @BeforeEach
  void startEngineWithTwoTeamsInTheirNamespaces() {
    engine = new EngineDriver();
    engine
        .putNode(EAST, "n1", node(10_000))
        .putQuota(EAST, "team-a", quota().namespace("team-a").max(cpu(8_000)).build())
        .putQuota(EAST, "team-b", quota().namespace("team-b").max(cpu(8_000)).build())
        .recompute();
    engine.podClassRecords();
  }

  @AfterEach
  void close() {
    engine.close();
  }

  @Test
  void aPodOfTeamBLabelledTeamAIsChargedToTeamBWithTheReason() {
    engine.putPod(EAST, "team-b", pod("sneaky").group("team-a").running("n1").cpu(1_000));
    engine.recompute();

    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 0));
    assertThat(engine.group(EAST, "team-b").used()).isEqualTo(ResourceList.of("cpu", 1_000));
    final PodQuotaClass record = engine.podClassRecords().get(0).value();
    assertThat(record.getGroup()).isEqualTo("team-b");
    assertThat(record.getUnboundLabel())
        .hasValueSatisfying(
            reason ->
                assertThat(reason).contains("namespace team-b is not bound to quota group team-a"));
    assertThat(unboundGauge()).isEqualTo(1.0);
  }

  @Test
  void aPodInItsGroupsNamespaceHasNoReasonAndIsNotCounted() {
    engine.putPod(EAST, "team-a", pod("honest").group("team-a").running("n1").cpu(1_000));
    engine.recompute();

    final PodQuotaClass record = engine.podClassRecords().get(0).value();
    assertThat(record.getGroup()).isEqualTo("team-a");
    assertThat(record.getUnboundLabel()).isEmpty();
    assertThat(unboundGauge()).isZero();
  }

  @Test
  void bindingTheNamespaceHonoursTheLabelAndClearsTheReason() {
    engine.putPod(EAST, "team-b", pod("lent").group("team-a").running("n1").cpu(1_000));
    engine.recompute();
    engine.podClassRecords();

    engine.putQuota(
        EAST, "team-a", quota().namespace("team-a").namespaces("team-b").max(cpu(8_000)).build());
    engine.recompute();

    final PodQuotaClass record = engine.podClassRecords().get(0).value();
    assertThat(record.getGroup()).isEqualTo("team-a");
    assertThat(record.getUnboundLabel()).isEmpty();
    assertThat(unboundGauge()).isZero();
  }

  /**
   * Issue 39, point 1: a label naming the root or a parent group that admits the namespace charged
   * the pod nowhere (a problem, never a victim) and team-a stopped counting it; it is now charged
   * as if unlabelled, with the reason, and counted in the same gauge.
   */
  @Test
  void podsLabelledWithTheRootOrAParentAreChargedToTheirNamespacesGroupWithTheReason() {
    engine
        .putQuota(EAST, "dept", quota().namespace("team-a").isParent().max(cpu(8_000)).build())
        .putQuota(
            EAST, "team-a", quota().namespace("team-a").parent("dept").max(cpu(8_000)).build())
        .recompute();
    engine.podClassRecords();

    engine.putPod(
        EAST, "team-a", pod("to-root").group("koordinator-root-quota").running("n1").cpu(1_000));
    engine.putPod(EAST, "team-a", pod("to-parent").group("dept").running("n1").cpu(1_000));
    engine.recompute();

    assertThat(engine.group(EAST, "team-a").used()).isEqualTo(ResourceList.of("cpu", 2_000));
    assertThat(engine.podClassRecords())
        .extracting(TestRecord::value)
        .filteredOn(record -> record.getGroup().equals("team-a"))
        .hasSize(2)
        .allSatisfy(
            record -> {
              assertThat(record.getUnboundLabel())
                  .hasValueSatisfying(
                      reason ->
                          assertThat(reason).containsAnyOf("root group", "parent group dept"));
            });
    assertThat(unboundGauge()).isEqualTo(2.0);
  }

  /** Issue 24, point 2: a namesake the connectors ignored is counted, and the group stays valid. */
  @Test
  void anIgnoredNamesakeIsCountedAndTheGroupKeepsItsSpec() {
    engine.putQuota(
        EAST,
        "team-a",
        quota().namespace("team-a").ignoredNamesakes("aaa-evil").max(cpu(8_000)).build());
    engine.recompute();

    assertThat(engine.group(EAST, "team-a").valid()).isTrue();
    assertThat(engine.group(EAST, "team-a").max()).isEqualTo(ResourceList.of("cpu", 8_000));
    assertThat(gauge(EngineMetrics.NAMESAKES_IGNORED)).isEqualTo(1.0);

    engine.putQuota(EAST, "team-a", quota().namespace("team-a").max(cpu(8_000)).build());
    engine.recompute();

    assertThat(gauge(EngineMetrics.NAMESAKES_IGNORED)).isZero();
  }

  private double unboundGauge() {
    return gauge(EngineMetrics.PODS_UNBOUND);
  }

  private double gauge(final String name) {
    final Gauge gauge = engine.metrics().registry().find(name).tag("cluster", EAST).gauge();
    assertThat(gauge).as("gauge " + name).isNotNull();
    return gauge.value();
  }
}
