package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 39 point 5 (attack): a record of a special group whose ElasticQuota is of a tenant's
 * namespace, sent by a connector that predates the rule or forged, would make the tenant's object
 * the default group (here capping every unlabelled pod of the cluster). The engine ignores it with
 * a warning and counts it in the gauge {@value EngineMetrics#NAMESAKES_IGNORED}; a record from a
 * special namespace ({@code quota.special.namespaces}) still defines the group.
 */
class SpecialGroupRecordTopologyTest {
  private static final String EAST = "east";

  private EngineDriver engine;

  @BeforeEach
  void startEngine() {
    engine = new EngineDriver();
    engine.putNode(EAST, "n1", node(10_000)).recompute();
  }

  @AfterEach
  void close() {
    engine.close();
  }

  @Test
  void aTenantsDefaultGroupRecordIsIgnoredAndCounted() {
    engine.putQuota(
        EAST, SpecialGroups.DEFAULT, quota().namespace("team-a").max(cpu(1_000)).build());
    engine.recompute();

    assertThat(engine.group(EAST, SpecialGroups.DEFAULT).max())
        .isNotEqualTo(ResourceList.of("cpu", 1_000));
    assertThat(gauge(EngineMetrics.NAMESAKES_IGNORED)).isEqualTo(1.0);

    engine.putQuota(
        EAST, SpecialGroups.DEFAULT, quota().namespace("kube-system").max(cpu(2_000)).build());
    engine.recompute();

    assertThat(engine.group(EAST, SpecialGroups.DEFAULT).max())
        .isEqualTo(ResourceList.of("cpu", 2_000));
    assertThat(gauge(EngineMetrics.NAMESAKES_IGNORED)).isZero();
  }

  @Test
  void aTenantsRecordReplacingTheSystemsUndefinesTheGroup() {
    engine.putQuota(
        EAST, SpecialGroups.DEFAULT, quota().namespace("quotaflow").max(cpu(2_000)).build());
    engine.recompute();
    engine.putQuota(
        EAST, SpecialGroups.DEFAULT, quota().namespace("team-a").max(cpu(1_000)).build());
    engine.recompute();

    assertThat(engine.group(EAST, SpecialGroups.DEFAULT).max())
        .isNotEqualTo(ResourceList.of("cpu", 1_000))
        .isNotEqualTo(ResourceList.of("cpu", 2_000));
    assertThat(gauge(EngineMetrics.NAMESAKES_IGNORED)).isEqualTo(1.0);
  }

  private double gauge(final String name) {
    final Gauge gauge = engine.metrics().registry().find(name).tag("cluster", EAST).gauge();
    assertThat(gauge).as("gauge " + name).isNotNull();
    return gauge.value();
  }
}
