package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.GroupStatus;
import java.util.Collection;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The per-group gauges (quotaflow_elastic_quota_status and _spec, shaped like Koordinator's) say
 * what runtime.v1 says, follow the tree as it changes, and stop at metrics.group.gauges.max.
 */
class GroupGaugesTest {
  private static final String EAST = "east";
  private static final String STATUS = "quotaflow.elastic.quota.status";
  private static final String SPEC = "quotaflow.elastic.quota.spec";
  private static final String OMITTED = "quotaflow.engine.group.gauges.omitted";

  private EngineDriver engine;

  @AfterEach
  void close() {
    engine.close();
  }

  @Test
  void aGroupsGaugesSayWhatItsRuntimeRecordSays() {
    start(EngineConfig.defaults());
    engine.putPod(EAST, "apps", pod("p1").group("team-a").running("n1").cpu(3_000)).recompute();

    final GroupStatus teamA = engine.group(EAST, "team-a");
    assertThat(value(STATUS, "team-a", "runtime")).isEqualTo(teamA.runtime().get("cpu"));
    assertThat(value(STATUS, "team-a", "request")).isEqualTo(3_000.0);
    assertThat(value(STATUS, "team-a", "used")).isEqualTo(3_000.0);
    assertThat(value(SPEC, "team-a", "min")).isEqualTo(4_000.0);
    assertThat(value(SPEC, "team-a", "max")).isEqualTo(8_000.0);
    final Gauge runtime = gauge(STATUS, "team-a", "runtime");
    assertThat(runtime.getId().getTag("cluster")).isEqualTo(EAST);
    assertThat(runtime.getId().getTag("parent")).isEqualTo(SpecialGroups.ROOT);
    assertThat(runtime.getId().getTag("is_parent")).isEqualTo("false");
  }

  @Test
  void gaugesFollowChangesAndLeaveWithTheirGroup() {
    start(EngineConfig.defaults());
    engine.putPod(EAST, "apps", pod("p1").group("team-b").running("n1").cpu(1_000)).recompute();
    assertThat(value(STATUS, "team-b", "used")).isEqualTo(1_000.0);

    engine.putPod(EAST, "apps", pod("p2").group("team-b").running("n1").cpu(500)).recompute();
    assertThat(value(STATUS, "team-b", "used")).isEqualTo(1_500.0);

    engine.deletePod(EAST, "apps", "p1").deletePod(EAST, "apps", "p2").recompute();
    engine.deleteQuota(EAST, "team-b").recompute();
    assertThat(gauges(STATUS, "team-b")).isEmpty();
    assertThat(gauges(SPEC, "team-b")).isEmpty();
    assertThat(gauges(STATUS, "team-a")).isNotEmpty();
  }

  @Test
  void noMoreGroupsThanTheCapGetGaugesAndTheRestAreCounted() {
    start(EngineConfig.builder().set(EngineSettings.METRICS_GROUP_GAUGES_MAX.key(), "2").build());

    final long gauged =
        Stream.concat(
                registry().find(STATUS).gauges().stream(), registry().find(SPEC).gauges().stream())
            .map(gauge -> gauge.getId().getTag("name"))
            .distinct()
            .count();
    assertThat(gauged).isEqualTo(2);
    // The root, the system and default groups and the two teams: five groups, two gauged.
    assertThat(registry().find(OMITTED).gauge().value()).isEqualTo(engine.table(EAST).size() - 2.0);
  }

  @Test
  void zeroTurnsThePerGroupGaugesOff() {
    start(EngineConfig.builder().set(EngineSettings.METRICS_GROUP_GAUGES_MAX.key(), "0").build());

    assertThat(registry().find(STATUS).gauges()).isEmpty();
    assertThat(registry().find(SPEC).gauges()).isEmpty();
    assertThat(registry().find(OMITTED).gauges()).isEmpty();
  }

  private void start(final EngineConfig config) {
    engine = new EngineDriver(config);
    engine
        .putNode(EAST, "n1", node(10_000))
        .putQuota(EAST, "team-a", quota().min(cpu(4_000)).max(cpu(8_000)).build())
        .putQuota(EAST, "team-b", quota().min(cpu(4_000)).max(cpu(8_000)).build())
        .recompute();
  }

  private MeterRegistry registry() {
    return engine.metrics().registry();
  }

  private Collection<Gauge> gauges(final String name, final String group) {
    return registry().find(name).tag("name", group).gauges();
  }

  private Gauge gauge(final String name, final String group, final String field) {
    return registry()
        .get(name)
        .tag("name", group)
        .tag("field", field)
        .tag("resource", "cpu")
        .gauge();
  }

  private double value(final String name, final String group, final String field) {
    return gauge(name, group, field).value();
  }
}
