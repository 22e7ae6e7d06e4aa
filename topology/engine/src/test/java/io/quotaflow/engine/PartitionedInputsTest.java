package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.errors.InvalidInputException;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.topics.ClusterPartitioner;
import io.quotaflow.topics.RejectedRecordHeaders;
import io.quotaflow.topics.RejectedRecordHeaders.Rejection;
import java.time.Duration;
import java.util.stream.IntStream;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * With {@code inputs.partitioned.by.cluster} (the default) the engine reads the inputs without the
 * repartition topic, computes the same runtimes, and rejects a record found off its cluster's
 * partition (the test driver puts every record on partition 0).
 */
class PartitionedInputsTest {
  private static final String NS = "apps";

  @AutoClose private EngineDriver engine;

  @Test
  void withOnePartitionEveryClusterIsComputedAsWithTheHop() {
    engine = new EngineDriver(partitionedInputs(1));

    fillTwoTeams("east");
    fillTwoTeams("west");

    assertThat(engine.table("east")).isEqualTo(engine.expected("east"));
    assertThat(engine.table("west")).isEqualTo(engine.expected("west"));
    assertThat(engine.group("east", "team-a").used()).isEqualTo(ResourceList.of("cpu", 3_000));
    assertThat(engine.rejectedRecords()).isEmpty();
  }

  @Test
  void aRecordOffItsClustersPartitionIsRejectedAndTheOthersAreComputed() {
    engine = new EngineDriver(partitionedInputs(6));
    final String onPartitionZero = clusterOnPartition(0);
    final String elsewhere = clusterOnPartition(3);

    fillTwoTeams(onPartitionZero);
    engine.putNode(elsewhere, "n1", node(10_000)).recompute();

    assertThat(engine.table(onPartitionZero)).isEqualTo(engine.expected(onPartitionZero));
    assertThat(engine.emittedGroups(elsewhere)).isEmpty();
    final Rejection rejection =
        RejectedRecordHeaders.read(engine.rejectedRecords().get(0).headers()).orElseThrow();
    assertThat(rejection.exceptionClass()).isEqualTo(InvalidInputException.class.getName());
    assertThat(rejection.message())
        .contains("cluster " + elsewhere + " on partition 0", "must be on partition 3 of 6");
  }

  @Test
  void evictionResultsReachTheirClusterThroughTheirOwnRepartition() {
    engine = new EngineDriver(partitionedInputs(1));
    engine
        .putNode("east", "n1", node(10_000))
        .putQuota("east", "team-a", quota().min(cpu(5_000)).max(cpu(10_000)).build())
        .putQuota("east", "team-b", quota().min(cpu(5_000)).max(cpu(10_000)).build());
    for (int i = 0; i < 4; i++) {
      engine.putPod("east", NS, pod("a" + i).group("team-a").running("n1").cpu(2_000).priority(i));
    }
    engine.recompute().putPod("east", NS, pod("b0").group("team-b").cpu(5_000)).recompute();
    engine.advance(Duration.ofSeconds(1)).advance(Duration.ofSeconds(120));
    final TestRecord<PodKey, EvictionCommand> a0 =
        engine.evictionRecords().stream()
            .filter(record -> record.key().getName().equals("a0"))
            .findFirst()
            .orElseThrow();

    engine.answer(a0, EvictionOutcome.BLOCKED_BY_BUDGET).advance(Duration.ofSeconds(60));

    assertThat(engine.evictionRecords())
        .singleElement()
        .satisfies(record -> assertThat(record.value().getAttempt()).isEqualTo(2));
    assertThat(engine.rejectedRecords()).as("results are not placement-checked").isEmpty();
  }

  private void fillTwoTeams(final String cluster) {
    engine
        .putNode(cluster, "n1", node(10_000))
        .putQuota(cluster, "team-a", quota().min(cpu(4_000)).max(cpu(8_000)).build())
        .putQuota(cluster, "team-b", quota().min(cpu(4_000)).max(cpu(8_000)).build())
        .putPod(cluster, NS, pod("a1").group("team-a").running("n1").cpu(3_000))
        .putPod(cluster, NS, pod("b1").group("team-b").running("n1").cpu(6_000))
        .recompute();
  }

  private static EngineConfig partitionedInputs(final int partitions) {
    return EngineConfig.builder()
        .set(EngineSettings.INPUTS_PARTITIONED_BY_CLUSTER.key(), "true")
        .set(EngineSettings.INPUTS_MARKERS_REQUIRED.key(), "false")
        .set(EngineSettings.TOPIC_PARTITIONS.key(), Integer.toString(partitions))
        .build();
  }

  private static String clusterOnPartition(final int partition) {
    return IntStream.range(0, 1_000)
        .mapToObj(i -> "cluster-" + i)
        .filter(name -> ClusterPartitioner.partitionOf(name, 6) == partition)
        .findFirst()
        .orElseThrow();
  }
}
