package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.config.QuotaSettings;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.QuotaClass;
import io.quotaflow.tree.GroupStatus;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Koordinator's feature gates through the topology: quota.guarantee.usage (docs/semantics.md
 * section 17) puts each group's guaranteed amount on its runtime record and starts its share there;
 * quota.parent.pods (section 18) charges a parent group for its own pods. The runtime records
 * always equal the core's full computation under the same settings.
 */
class KoordinatorGatesTopologyTest {
  private static final String EAST = "east";

  @AutoClose private EngineDriver engine;

  private void start(final EngineSettingsValue... settings) {
    final EngineConfig.Builder config = EngineConfig.builder();
    for (final EngineSettingsValue setting : settings) {
      config.set(setting.key(), setting.value());
    }
    engine = new EngineDriver(config.build());
    engine.putNode(EAST, "n1", node(100_000));
  }

  private record EngineSettingsValue(String key, String value) {}

  private static EngineSettingsValue on(final String key) {
    return new EngineSettingsValue(key, "true");
  }

  @Test
  void withGuaranteeUsageAGroupKeepsWhatItsPodsUseAndTheRecordSaysSo() {
    start(on(QuotaSettings.GUARANTEE_USAGE.key()));
    engine
        .putQuota(EAST, "a", quota().min(cpu(20_000)).max(cpu(100_000)).build())
        .putQuota(EAST, "b", quota().min(cpu(30_000)).max(cpu(100_000)).build())
        .putQuota(EAST, "c", quota().min(cpu(10_000)).max(cpu(100_000)).build())
        .putPod(EAST, "apps", pod("a1").group("a").running("n1").cpu(50_000))
        .putPod(EAST, "apps", pod("b1").group("b").cpu(80_000))
        .recompute();

    assertThat(engine.group(EAST, "a").guaranteed()).isEqualTo(ResourceList.of("cpu", 50_000));
    assertThat(engine.group(EAST, "a").runtime()).isEqualTo(ResourceList.of("cpu", 50_000));
    assertThat(engine.group(EAST, "b").runtime()).isEqualTo(ResourceList.of("cpu", 40_000));
    assertThat(engine.group(EAST, "c").runtime()).isEqualTo(ResourceList.of("cpu", 10_000));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));

    // a's pod ends: its guarantee falls to its min, b borrows what a held.
    engine.deletePod(EAST, "apps", "a1").recompute();

    assertThat(engine.group(EAST, "a").guaranteed()).isEqualTo(ResourceList.of("cpu", 20_000));
    assertThat(engine.group(EAST, "b").runtime()).isEqualTo(ResourceList.of("cpu", 70_000));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
  }

  @Test
  void byDefaultNoGuaranteeIsComputedAndGroupsLend() {
    start();
    engine
        .putQuota(EAST, "a", quota().min(cpu(20_000)).max(cpu(100_000)).build())
        .putQuota(EAST, "c", quota().min(cpu(10_000)).max(cpu(100_000)).build())
        .recompute();

    assertThat(engine.group(EAST, "a").guaranteed()).isEqualTo(ResourceList.empty());
    assertThat(engine.group(EAST, "c").runtime()).isEqualTo(ResourceList.of("cpu", 0));
  }

  @Test
  void withParentPodsAParentIsChargedForItsOwnPodsBesideItsChildren() {
    start(on(QuotaSettings.PARENT_PODS.key()));
    engine
        .putQuota(EAST, "p", quota().isParent().min(cpu(40_000)).max(cpu(60_000)).build())
        .putQuota(EAST, "c1", quota().parent("p").min(cpu(20_000)).max(cpu(100_000)).build())
        .putQuota(EAST, "q", quota().min(cpu(20_000)).max(cpu(100_000)).build())
        .putPod(EAST, "apps", pod("own").group("p").running("n1").cpu(30_000))
        .putPod(EAST, "apps", pod("child").group("c1").cpu(50_000))
        .putPod(EAST, "apps", pod("other").group("q").cpu(30_000))
        .recompute();

    final GroupStatus parent = engine.group(EAST, "p");
    assertThat(parent.request()).isEqualTo(ResourceList.of("cpu", 80_000));
    assertThat(parent.used()).isEqualTo(ResourceList.of("cpu", 30_000));
    assertThat(parent.runtime()).isEqualTo(ResourceList.of("cpu", 60_000));
    assertThat(engine.group(EAST, "c1").runtime()).isEqualTo(ResourceList.of("cpu", 50_000));
    assertThat(engine.podClassRecords())
        .filteredOn(record -> record.key().getName().equals("own"))
        .last()
        .satisfies(
            record -> {
              assertThat(record.value().getGroup()).isEqualTo("p");
              assertThat(record.value().getQuotaClass()).isEqualTo(QuotaClass.IN_QUOTA);
            });
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
  }

  @Test
  void withoutParentPodsAParentsPodIsChargedNowhere() {
    start();
    engine
        .putQuota(EAST, "p", quota().isParent().min(cpu(40_000)).max(cpu(60_000)).build())
        .putQuota(EAST, "c1", quota().parent("p").min(cpu(20_000)).max(cpu(100_000)).build())
        .putPod(EAST, "apps", pod("own").group("p").running("n1").cpu(30_000))
        .recompute();

    assertThat(engine.group(EAST, "p").used()).isEqualTo(ResourceList.of("cpu", 0));
    assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
  }
}
