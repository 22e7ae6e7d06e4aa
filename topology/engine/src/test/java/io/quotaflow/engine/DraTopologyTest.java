package io.quotaflow.engine;

import static io.quotaflow.engine.DraInputs.GPU;
import static io.quotaflow.engine.DraInputs.GPU_CLASS;
import static io.quotaflow.engine.DraInputs.all;
import static io.quotaflow.engine.DraInputs.allocated;
import static io.quotaflow.engine.DraInputs.claim;
import static io.quotaflow.engine.DraInputs.cpuAndGpus;
import static io.quotaflow.engine.DraInputs.exactly;
import static io.quotaflow.engine.DraInputs.gpuClass;
import static io.quotaflow.engine.DraInputs.gpuSlice;
import static io.quotaflow.engine.DraInputs.reservedFor;
import static io.quotaflow.engine.DraInputs.template;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodKey;
import io.quotaflow.schemas.PodQuotaClass;
import io.quotaflow.schemas.QuotaKey;
import io.quotaflow.schemas.ResourceClaimState;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Devices claimed through DRA, counted live (docs/semantics.md section 22, issue 29): the engine
 * reads the DRA topics, charges each pod with claims its devices, and charges the pods again when a
 * claim, template, class or slice changes. A cluster without DRA objects computes what it computed
 * before, record for record.
 */
class DraTopologyTest {
  private static final String EAST = "east";
  private static final String NS = "ml";

  private EngineDriver engine;

  @BeforeEach
  void start() {
    engine = new EngineDriver();
    engine
        .putNode(EAST, "n1", gpuNode(8))
        .putQuota(
            EAST,
            "team-a",
            quota().namespace(NS).min(cpuAndGpus(10_000, 2)).max(cpuAndGpus(100_000, 6)).build())
        .putQuota(
            EAST,
            "team-b",
            quota().namespace(NS).min(cpuAndGpus(10_000, 6)).max(cpuAndGpus(100_000, 8)).build())
        .putDeviceClass(EAST, GPU_CLASS, gpuClass());
  }

  @AfterEach
  void stop() {
    engine.close();
  }

  @Test
  void aPodAskingGpusThroughATemplateIsChargedItsCountBeforeAndAfterAllocation() {
    engine
        .putClaimTemplate(EAST, NS, "two-gpus", template(exactly("gpus", GPU_CLASS, 2)))
        .putPod(EAST, NS, pod("train").group("team-a").cpu(1_000).claimTemplate("gpu", "two-gpus"))
        .recompute();

    assertThat(gpus(engine.group(EAST, "team-a").request())).isEqualTo(2);
    assertThat(gpus(engine.group(EAST, "team-a").used())).isZero();

    // Scheduled: the claim generated for the pod is allocated two devices and the pod runs.
    engine
        .putClaim(
            EAST,
            NS,
            "train-gpu-x7",
            reservedFor(
                allocated(claim(exactly("gpus", GPU_CLASS, 2)), "gpus", "gpu-0", "gpu-1"),
                "train-uid"))
        .putPod(
            EAST,
            NS,
            pod("train")
                .group("team-a")
                .cpu(1_000)
                .running("n1")
                .claimTemplate("gpu", "two-gpus")
                .generatedClaim("gpu", "train-gpu-x7"))
        .recompute();

    assertThat(gpus(engine.group(EAST, "team-a").request())).isEqualTo(2);
    assertThat(gpus(engine.group(EAST, "team-a").used())).isEqualTo(2);
  }

  @Test
  void anAllocationReplacesTheRequestsItWasMadeFor() {
    // The template asked for one, but the claim generated for the pod was given three.
    engine
        .putClaimTemplate(EAST, NS, "one-gpu", template(exactly("gpus", GPU_CLASS, 1)))
        .putClaim(
            EAST,
            NS,
            "train-gpu",
            allocated(claim(exactly("gpus", GPU_CLASS, 1)), "gpus", "gpu-0", "gpu-1", "gpu-2"))
        .putPod(
            EAST,
            NS,
            pod("train")
                .group("team-a")
                .running("n1")
                .claimTemplate("gpu", "one-gpu")
                .generatedClaim("gpu", "train-gpu"))
        .recompute();

    assertThat(gpus(engine.group(EAST, "team-a").used())).isEqualTo(3);
  }

  @Test
  void allocationModeAllCountsTheLargestPoolOfTheClassDriver() {
    engine
        // Pool a in two slices, gpu-1 listed in both while republished: 3 devices; pool b: 2.
        .putSlice(EAST, "n1-a-1", gpuSlice("a", "gpu-0", "gpu-1"))
        .putSlice(EAST, "n1-a-2", gpuSlice("a", "gpu-1", "gpu-2"))
        .putSlice(EAST, "n2-b", gpuSlice("b", "gpu-0", "gpu-1"))
        .putClaimTemplate(EAST, NS, "whole-node", template(all("gpus", GPU_CLASS)))
        .putPod(EAST, NS, pod("train").group("team-a").claimTemplate("gpu", "whole-node"))
        .recompute();

    assertThat(gpus(engine.group(EAST, "team-a").request())).isEqualTo(3);
  }

  @Test
  void severalRequestsAndSeveralEntriesAddUp() {
    engine
        .putClaimTemplate(
            EAST,
            NS,
            "mixed",
            template(exactly("small", GPU_CLASS, 1), exactly("large", GPU_CLASS, 2)))
        .putClaim(EAST, NS, "extra", claim(exactly("gpus", GPU_CLASS, 1)))
        .putPod(
            EAST,
            NS,
            pod("train").group("team-a").claimTemplate("gpu", "mixed").claim("more", "extra"))
        .recompute();

    assertThat(gpus(engine.group(EAST, "team-a").request())).isEqualTo(4);
  }

  @Test
  void aSharedClaimIsChargedOnceToTheFirstReservingPod() {
    final ResourceClaimState shared = claim(exactly("gpus", GPU_CLASS, 2));
    engine
        .putClaim(EAST, NS, "shared", shared)
        .putPod(EAST, NS, pod("a1").group("team-a").claim("gpu", "shared"))
        .putPod(EAST, NS, pod("b1").group("team-b").claim("gpu", "shared"))
        .recompute();

    // Reserved for nobody yet: each pod would take the devices if placed first.
    assertThat(gpus(engine.group(EAST, "team-a").request())).isEqualTo(2);
    assertThat(gpus(engine.group(EAST, "team-b").request())).isEqualTo(2);

    engine
        .putClaim(
            EAST, NS, "shared", reservedFor(allocated(shared, "gpus", "gpu-0", "gpu-1"), "b1-uid"))
        .recompute();

    assertThat(gpus(engine.group(EAST, "team-a").request())).isZero();
    assertThat(gpus(engine.group(EAST, "team-b").request())).isEqualTo(2);
  }

  @Test
  void aDraObjectArrivingOrLeavingAfterThePodChargesItAgain() {
    engine
        .putPod(EAST, NS, pod("train").group("team-a").claimTemplate("gpu", "four-gpus"))
        .recompute();
    assertThat(gpus(engine.group(EAST, "team-a").request())).isZero();

    engine
        .putClaimTemplate(EAST, NS, "four-gpus", template(exactly("gpus", GPU_CLASS, 4)))
        .recompute();
    assertThat(gpus(engine.group(EAST, "team-a").request())).isEqualTo(4);

    engine.putClaimTemplate(EAST, NS, "four-gpus", null).recompute();
    assertThat(gpus(engine.group(EAST, "team-a").request())).isZero();
  }

  @Test
  void anUnmappedClassChargesNothing() {
    engine
        .putClaimTemplate(EAST, NS, "tpus", template(exactly("tpus", "tpu.example.com", 4)))
        .putPod(EAST, NS, pod("train").group("team-a").cpu(1_000).claimTemplate("tpu", "tpus"))
        .recompute();

    assertThat(engine.group(EAST, "team-a").request().get("cpu")).isEqualTo(1_000);
    assertThat(gpus(engine.group(EAST, "team-a").request())).isZero();
  }

  @Test
  void withoutClaimsEveryRecordIsTheSameWhateverDraObjectsExist() {
    try (EngineDriver plain = new EngineDriver()) {
      plain.putNode(EAST, "n1", gpuNode(8));
      plain.putQuota(
          EAST,
          "team-a",
          quota().namespace(NS).min(cpuAndGpus(10_000, 2)).max(cpuAndGpus(100_000, 6)).build());
      plain.putQuota(
          EAST,
          "team-b",
          quota().namespace(NS).min(cpuAndGpus(10_000, 6)).max(cpuAndGpus(100_000, 8)).build());
      engine
          .putSlice(EAST, "n1-a", gpuSlice("a", "gpu-0", "gpu-1"))
          .putClaimTemplate(EAST, NS, "two-gpus", template(exactly("gpus", GPU_CLASS, 2)))
          .putClaim(EAST, NS, "spare", claim(exactly("gpus", GPU_CLASS, 1)));
      for (final EngineDriver driver : List.of(plain, engine)) {
        driver
            .putPod(EAST, NS, pod("a1").group("team-a").cpu(20_000).running("n1"))
            .putPod(EAST, NS, pod("b1").group("team-b").cpu(5_000))
            .recompute();
      }

      assertThat(bytes(engine.runtimeRecords(), engine))
          .isEqualTo(bytes(plain.runtimeRecords(), plain));
      assertThat(classBytes(engine.podClassRecords(), engine))
          .isEqualTo(classBytes(plain.podClassRecords(), plain));
      assertThat(engine.table(EAST)).isEqualTo(engine.expected(EAST));
    }
  }

  private static List<String> bytes(
      final List<TestRecord<QuotaKey, GroupRuntime>> records, final EngineDriver driver) {
    return records.stream()
        .map(
            record ->
                record.key()
                    + "="
                    + HexFormat.of()
                        .formatHex(
                            driver
                                .topics()
                                .runtime()
                                .valueSerializer()
                                .serialize("t", record.value())))
        .toList();
  }

  private static List<String> classBytes(
      final List<TestRecord<PodKey, PodQuotaClass>> records, final EngineDriver driver) {
    return records.stream()
        .map(
            record ->
                record.key()
                    + "="
                    + HexFormat.of()
                        .formatHex(
                            driver
                                .topics()
                                .podClasses()
                                .valueSerializer()
                                .serialize("t", record.value())))
        .toList();
  }

  private static long gpus(final ResourceList list) {
    return list.get(GPU);
  }

  private static NodeState gpuNode(final long gpus) {
    return NodeState.newBuilder(Inputs.node(100_000))
        .setAllocatable(Map.of("cpu", 100_000L, GPU, gpus))
        .build();
  }
}
