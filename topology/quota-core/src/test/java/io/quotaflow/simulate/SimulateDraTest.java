package io.quotaflow.simulate;

import static io.quotaflow.simulate.Manifests.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * simulate charges the devices pods claim through DRA to their groups (semantics.md section 22).
 */
class SimulateDraTest {

  /** A DeviceClass, a ResourceClaimTemplate asking 2 GPUs, a pod using it and its group. */
  private static final Path DRA_GPUS = Path.of("src/test/resources/simulate/dra-gpus");

  /** The same with a DRA-only node: no GPU in its allocatable, 8 in its ResourceSlice. */
  private static final Path DRA_ONLY = Path.of("src/test/resources/simulate/dra-only");

  @TempDir Path dir;

  @Test
  void aDraOnlyClusterCountsTheSlicesGpusInTheTotalAndChargesThePod() {
    final SimulateRun run = SimulateRun.of("-f", DRA_ONLY.toString(), "--output", "json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).doesNotContain("warning");
    assertThat(run.json().get("total").get("nvidia.com/gpu").asLong()).isEqualTo(8);
    assertThat(run.value("ml-team", "request", "nvidia.com/gpu")).isEqualTo(2);
    assertThat(run.value("ml-team", "runtime", "nvidia.com/gpu")).isEqualTo(2);
  }

  @Test
  void withoutTheSliceADraOnlyNodeGivesNoGpuTotal() {
    final Path node =
        write(
            dir.resolve("node.yaml"),
            """
            apiVersion: v1
            kind: Node
            metadata: {name: gpu-1}
            status:
              allocatable: {cpu: "64", memory: 512Gi}
              conditions: [{type: Ready, status: "True"}]
            """);
    final SimulateRun run =
        SimulateRun.of("-f", node.toString(), "-f", quotaOnly().toString(), "--output", "json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.json().get("total").has("nvidia.com/gpu")).isFalse();
  }

  @Test
  void slicesOfADriverNoClassMapsAreAWarningAndCountNothing() {
    final Path slice =
        write(
            dir.resolve("fpga.yaml"),
            """
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: fpga-1}
            spec:
              driver: fpga.example.com
              nodeName: gpu-1
              pool: {name: gpu-1, generation: 1, resourceSliceCount: 1}
              devices: [{name: fpga-0}, {name: fpga-1}]
            """);
    final SimulateRun run =
        SimulateRun.of("-f", DRA_ONLY.toString(), "-f", slice.toString(), "--output", "json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err())
        .contains(
            "driver fpga.example.com publishes 2 devices no mapped DeviceClass selects;"
                + " not counted in the cluster total");
    assertThat(run.json().get("total").get("nvidia.com/gpu").asLong()).isEqualTo(8);
  }

  @Test
  void aPodsClaimTemplateChargesItsGpusToThePodsGroup() {
    final SimulateRun run = SimulateRun.of("-f", DRA_GPUS.toString(), "--output", "json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).doesNotContain("warning");
    assertThat(run.value("ml-team", "request", "nvidia.com/gpu")).isEqualTo(2);
    assertThat(run.value("ml-team", "request", "cpu")).isEqualTo(4_000);
  }

  @Test
  void theSameManifestsWithoutTheClaimChargeNoGpu() {
    final SimulateRun withClaim = SimulateRun.of("-f", DRA_GPUS.toString(), "--output", "json");
    final Path noClaim =
        write(
            dir.resolve("pod.yaml"),
            """
            apiVersion: v1
            kind: Pod
            metadata: {name: train-0, namespace: ml-team}
            spec:
              containers:
                - name: trainer
                  resources: {requests: {cpu: "4"}}
            """);
    final SimulateRun without =
        SimulateRun.of(
            "-f",
            DRA_GPUS.resolve("01-cluster.yaml").toString(),
            "-f",
            quotaOnly().toString(),
            "-f",
            noClaim.toString(),
            "--output",
            "json");

    assertThat(without.value("ml-team", "request", "nvidia.com/gpu")).isZero();
    assertThat(withClaim.value("ml-team", "request", "nvidia.com/gpu")).isEqualTo(2);
  }

  @Test
  void capacityRulesFromTheConfigDeriveGpuMemoryFromTheSlice() {
    final Path config =
        write(
            dir.resolve("dra.properties"),
            "device-classes=gpu.nvidia.com -> nvidia.com/gpu"
                + " [memory / 1Gi -> quotaflow.io/gpu-memory]\n");
    final Path quota =
        write(
            dir.resolve("quota.yaml"),
            """
            apiVersion: scheduling.sigs.k8s.io/v1alpha1
            kind: ElasticQuota
            metadata: {name: ml-team, namespace: ml-team}
            spec:
              max: {cpu: "16", nvidia.com/gpu: "4", quotaflow.io/gpu-memory: "320"}
            """);

    final SimulateRun run =
        SimulateRun.of(
            "-f",
            DRA_GPUS.resolve("01-cluster.yaml").toString(),
            "-f",
            podAndTemplate().toString(),
            "-f",
            quota.toString(),
            "--config",
            config.toString(),
            "--output",
            "json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    // Before allocation each of the 2 GPUs is charged the largest memory of the class: 80Gi.
    assertThat(run.value("ml-team", "request", "quotaflow.io/gpu-memory")).isEqualTo(2 * 80);
  }

  @Test
  void aClaimOfAnUnknownDeviceClassIsAWarningAndChargesNothing() {
    final Path file =
        write(
            dir.resolve("fpga.yaml"),
            """
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: fpga, namespace: ml-team}
            spec:
              devices:
                requests:
                  - name: f
                    exactly: {deviceClassName: fpga.example.com, count: 1}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: fpga-user, namespace: ml-team}
            spec:
              containers: [{name: c, resources: {requests: {cpu: "1"}}}]
              resourceClaims: [{name: f, resourceClaimName: fpga}]
            """);

    final SimulateRun run =
        SimulateRun.of(
            "-f", DRA_GPUS.resolve("01-cluster.yaml").toString(),
            "-f", quotaOnly().toString(),
            "-f", file.toString(),
            "--output", "json");

    assertThat(run.exitCode()).isZero();
    assertThat(run.err())
        .contains("warning: ")
        .contains("Pod ml-team/fpga-user")
        .contains("unknown DeviceClass fpga.example.com");
    assertThat(run.value("ml-team", "request", "cpu")).isEqualTo(1_000);
  }

  @Test
  void aBetaDraObjectIsRefusedWithTheVersionToUse() {
    final Path file =
        write(
            dir.resolve("beta.yaml"),
            """
            apiVersion: resource.k8s.io/v1beta1
            kind: ResourceClaimTemplate
            metadata: {name: two-gpus, namespace: ml-team}
            spec:
              spec:
                devices:
                  requests: [{name: gpus, deviceClassName: gpu.nvidia.com, count: 2}]
            """);

    final SimulateRun run = SimulateRun.of("-f", file.toString());

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err())
        .contains("ResourceClaimTemplate (resource.k8s.io/v1beta1)")
        .contains("resource.k8s.io/v1 only");
  }

  @Test
  void aDeviceCapacityThatIsNotAQuantityIsBadInputNamingTheField() {
    final Path file =
        write(
            dir.resolve("slice.yaml"),
            """
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: broken}
            spec:
              driver: gpu.nvidia.com
              pool: {name: n1, generation: 1, resourceSliceCount: 1}
              devices:
                - name: gpu-0
                  capacity: {memory: {value: lots}}
            """);

    final SimulateRun run = SimulateRun.of("-f", file.toString());

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err()).contains("ResourceSlice broken").contains("capacity");
  }

  @Test
  void theSameClaimTwiceIsBadInput() {
    final String claim =
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: shared, namespace: ml-team}
        spec: {devices: {requests: [{name: g, exactly: {deviceClassName: gpu.nvidia.com}}]}}
        """;
    final Path file = write(dir.resolve("twice.yaml"), claim + "---\n" + claim);

    final SimulateRun run = SimulateRun.of("-f", file.toString());

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err()).contains("ResourceClaim ml-team/shared is defined twice");
  }

  @Test
  void theTableShowsTheClaimedGpusInTheGroupsRequest() {
    final SimulateRun run = SimulateRun.of("-f", DRA_GPUS.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("ml-team").contains("nvidia.com/gpu");
  }

  @Test
  void aCapacityRuleAndADerivedResourceRuleForTheSameResourceAreWarnedAbout() {
    final Path config =
        write(
            dir.resolve("both.properties"),
            "device-classes=gpu.nvidia.com -> nvidia.com/gpu"
                + " [memory / 1Gi -> quotaflow.io/gpu-memory]\n"
                + "derived-resources=nvidia.com/gpu -> quotaflow.io/gpu-memory x 80\n");

    final SimulateRun run =
        SimulateRun.of("-f", DRA_GPUS.toString(), "--config", config.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err())
        .contains(
            "warning: device-classes: gpu.nvidia.com derives quotaflow.io/gpu-memory from its"
                + " devices' memory and derived-resources derives it from nvidia.com/gpu too");
  }

  @Test
  void derivedResourceRulesApplyToGpusClaimedThroughDra() {
    final Path config =
        write(
            dir.resolve("derived.properties"),
            "derived-resources=nvidia.com/gpu -> quotaflow.io/gpu-memory x 32\n");
    final Path quota =
        write(
            dir.resolve("quota.yaml"),
            """
            apiVersion: scheduling.sigs.k8s.io/v1alpha1
            kind: ElasticQuota
            metadata: {name: ml-team, namespace: ml-team}
            spec:
              max: {cpu: "16", nvidia.com/gpu: "4", quotaflow.io/gpu-memory: "128"}
            """);

    final SimulateRun run =
        SimulateRun.of(
            "-f",
            DRA_GPUS.resolve("01-cluster.yaml").toString(),
            "-f",
            podAndTemplate().toString(),
            "-f",
            quota.toString(),
            "--config",
            config.toString(),
            "--output",
            "json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.value("ml-team", "request", "quotaflow.io/gpu-memory")).isEqualTo(2 * 32);
  }

  private Path quotaOnly() {
    return write(
        dir.resolve("quota-only.yaml"),
        """
        apiVersion: scheduling.sigs.k8s.io/v1alpha1
        kind: ElasticQuota
        metadata: {name: ml-team, namespace: ml-team}
        spec:
          min: {cpu: "8", nvidia.com/gpu: "2"}
          max: {cpu: "16", nvidia.com/gpu: "4"}
        """);
  }

  private Path podAndTemplate() {
    return write(
        dir.resolve("pod-and-template.yaml"),
        """
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaimTemplate
        metadata: {name: two-gpus, namespace: ml-team}
        spec:
          spec:
            devices:
              requests:
                - name: gpus
                  exactly: {deviceClassName: gpu.nvidia.com, count: 2}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: train-0, namespace: ml-team}
        spec:
          containers: [{name: trainer, resources: {requests: {cpu: "4"}}}]
          resourceClaims: [{name: gpus, resourceClaimTemplateName: two-gpus}]
        """);
  }
}
