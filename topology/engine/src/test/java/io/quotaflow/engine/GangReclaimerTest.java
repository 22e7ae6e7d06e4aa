package io.quotaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.engine.metrics.EngineMetrics;
import io.quotaflow.engine.reclaim.ReclaimPolicy;
import io.quotaflow.engine.reclaim.Reclaimer;
import io.quotaflow.quota.Gang;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.QuotaOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedForward;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reclaim by gang (issue 28) through the engine's {@link Reclaimer}: a whole-gang plan becomes one
 * eviction command per member, each saying that the pod goes with its gang. PodState does not carry
 * gangs yet, so the topology cannot be fed one: the reclaimer is run alone, on a {@link
 * MockProcessorContext} over the topology's own stores, with a quota state built from core pods.
 */
class GangReclaimerTest {
  private static final String CLUSTER = "east";
  private static final Duration DELAY = Duration.ofSeconds(120);
  private static final Instant START = Instant.parse("2026-03-01T12:00:00Z");

  private final MockProcessorContext<SpecificRecord, SpecificRecord> context =
      new MockProcessorContext<>();
  private Reclaimer reclaimer;

  @BeforeEach
  void setUp() {
    final Map<String, StateStore> stores = new HashMap<>();
    QuotaTopology.storeBuilders(Stores::inMemoryKeyValueStore)
        .forEach(
            builder -> {
              final StateStore store = builder.withLoggingDisabled().build();
              store.init(context.getStateStoreContext(), store);
              stores.put(store.name(), store);
            });
    reclaimer =
        new Reclaimer(
            context,
            store(stores, TopologyNames.OVER_USED_SINCE_STORE),
            store(stores, TopologyNames.EVICTION_LEDGER_STORE),
            store(stores, TopologyNames.EVICTION_RETRY_AT_STORE),
            new EngineMetrics(new SimpleMeterRegistry()),
            QuotaOptions.DEFAULTS,
            new ReclaimPolicy(DELAY, Duration.ofSeconds(30), 3),
            TopologyNames.EVICTIONS_SINK);
  }

  @SuppressWarnings("unchecked")
  private static <K, V> KeyValueStore<K, V> store(Map<String, StateStore> stores, String name) {
    return (KeyValueStore<K, V>) stores.get(name);
  }

  /**
   * team-a (min = max = 10 cpu) runs a 3-worker gang of 2 cpu each and a 5-cpu server of higher
   * priority: used 11. One worker would give back enough; the gang goes whole.
   */
  private static ClusterQuotaState teamAOverUsedByOneWithAGang() {
    final ResourceList ten = ResourceList.of("cpu", 10_000);
    final ClusterQuotaState state = new ClusterQuotaState(QuotaOptions.DEFAULTS);
    state.putNode(QuotaNode.healthy("n1", ten));
    state.putGroup(QuotaGroup.builder("team-a").min(ten).max(ten).build());
    state.putPod(pod("server", 5_000, 10).build());
    final Gang gang = new Gang("train", OptionalInt.of(3), "scheduler-plugins");
    for (int i = 0; i < 3; i++) {
      state.putPod(pod("w" + i, 2_000, 0).gang(gang).build());
    }
    state.recompute();
    return state;
  }

  private static QuotaPod.Builder pod(String name, long cpu, int priority) {
    return QuotaPod.builder("apps", name)
        .uid(name + "-uid")
        .quotaName("team-a")
        .running("n1")
        .request(ResourceList.of("cpu", cpu))
        .priority(priority)
        .creationTime(START)
        .startTime(START);
  }

  @Test
  void aWholeGangPlanBecomesOneCommandPerMemberSayingThePodGoesWithItsGang() {
    final ClusterQuotaState state = teamAOverUsedByOneWithAGang();
    final Map<String, Long> since = new HashMap<>();
    reclaimer.check(CLUSTER, state, Set.of("team-a"), since, START);
    assertThat(context.forwarded()).as("the clock has only started").isEmpty();

    reclaimer.check(CLUSTER, state, Set.of("team-a"), since, START.plus(DELAY));

    final List<CapturedForward<? extends SpecificRecord, ? extends SpecificRecord>> commands =
        context.forwarded();
    assertThat(commands)
        .extracting(forward -> ((PodKey) forward.record().key()).getName())
        .containsExactlyInAnyOrder("w0", "w1", "w2");
    assertThat(commands)
        .extracting(forward -> (EvictionCommand) forward.record().value())
        .allSatisfy(
            command -> {
              assertThat(command.getReasonCode()).isEqualTo("reclaimed-after-delay");
              assertThat(command.getReason())
                  .contains(
                      "is evicted with its gang train (3 pods; the pod's priority 0) to reclaim it");
              assertThat(command.getPodRequest()).isEqualTo(Map.of("cpu", 2_000L));
            });
    assertThat(((EvictionCommand) commands.get(0).record().value()).getReason())
        .contains("pod apps/" + ((PodKey) commands.get(0).record().key()).getName() + " is");
    assertThat(commands)
        .extracting(CapturedForward::childName)
        .containsOnly(Optional.of(TopologyNames.EVICTIONS_SINK));
  }

  @Test
  void aPodWithoutAGangKeepsItsFormerReason() {
    final ResourceList ten = ResourceList.of("cpu", 10_000);
    final ClusterQuotaState state = new ClusterQuotaState(QuotaOptions.DEFAULTS);
    state.putNode(QuotaNode.healthy("n1", ten));
    state.putGroup(QuotaGroup.builder("team-a").min(ten).max(ten).build());
    state.putPod(pod("server", 5_000, 10).build());
    state.putPod(pod("batch", 6_000, 0).build());
    state.recompute();
    final Map<String, Long> since = new HashMap<>();

    reclaimer.check(CLUSTER, state, Set.of("team-a"), since, START);
    reclaimer.check(CLUSTER, state, Set.of("team-a"), since, START.plus(DELAY));

    assertThat(context.forwarded())
        .singleElement()
        .satisfies(
            forward ->
                assertThat(((EvictionCommand) forward.record().value()).getReason())
                    .endsWith("; pod apps/batch (priority 0) is evicted to reclaim it")
                    .doesNotContain("gang"));
  }
}
