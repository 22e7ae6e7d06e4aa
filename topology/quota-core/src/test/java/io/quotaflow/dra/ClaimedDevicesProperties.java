package io.quotaflow.dra;

import static io.quotaflow.dra.Dra.GPU;
import static io.quotaflow.dra.Dra.GPU_CLASS;
import static io.quotaflow.dra.Dra.all;
import static io.quotaflow.dra.Dra.claim;
import static io.quotaflow.dra.Dra.exact;
import static io.quotaflow.dra.Dra.fromClaim;
import static io.quotaflow.dra.Dra.fromTemplate;
import static io.quotaflow.dra.Dra.gpu;
import static io.quotaflow.dra.Dra.objects;
import static io.quotaflow.dra.Dra.pod;
import static io.quotaflow.dra.Dra.reservedFor;
import static io.quotaflow.dra.Dra.slice;
import static io.quotaflow.dra.Dra.template;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.quota.QuotaPod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Invariants of charging claimed devices, whatever the claims and the cluster hold. */
class ClaimedDevicesProperties {

  private static final String TPU_CLASS = "tpu.example.com";
  private static final String TPU = "example.com/tpu";
  private static final String UNMAPPED_CLASS = "fpga.example.com";
  private static final long TPU_PER_DEVICE = 4;
  private static final ClaimedDevices CLAIMED =
      new ClaimedDevices(
          DeviceClassMappings.parse(
              "gpu.nvidia.com -> nvidia.com/gpu; tpu.example.com -> example.com/tpu x 4"));

  /** One exact request: a class and a count (null: the default, 1). */
  record Asked(String deviceClass, Long count) {}

  @Property(tries = 300)
  void aPodWithoutClaimsIsReadExactlyAsBefore(
      @ForAll @Size(max = 4) List<@IntRange(max = 64) Integer> cpus,
      @ForAll @IntRange(max = 8) int gpus,
      @ForAll @Size(max = 5) List<@From("asked") Asked> asked,
      @ForAll boolean reserved) {
    final List<ContainerBuilder> containers = new ArrayList<>();
    for (int i = 0; i < cpus.size(); i++) {
      containers.add(
          new ContainerBuilder()
              .withName("c" + i)
              .withNewResources()
              .withRequests(
                  Map.of("cpu", new Quantity(cpus.get(i) + ""), GPU, new Quantity(gpus + "")))
              .endResources());
    }
    final Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withNamespace(Dra.NAMESPACE)
            .withName("plain")
            .endMetadata()
            .withNewSpec()
            .withContainers(containers.stream().map(ContainerBuilder::build).toList())
            .endSpec()
            .build();
    // The namespace is full of DRA objects the pod does not name.
    final ResourceClaim claim = claim("c", requests(asked));
    final DraObjects objects =
        objects(
            List.of(),
            List.of(reserved ? reservedFor(claim, "plain") : claim),
            List.of(template("t", requests(asked))),
            List.of(slice("s", GPU_CLASS, "n1", gpu("g0", "40Gi"))));
    final QuotaPod read = PodAdapter.toQuotaPod(pod);

    assertThat(CLAIMED.charge(pod, objects)).isEqualTo(DeviceCharge.NONE);
    assertThat(CLAIMED.apply(pod, read, objects)).isSameAs(read);
    assertThat(CLAIMED.apply(pod, read, objects)).isEqualTo(PodAdapter.toQuotaPod(pod));
  }

  @Property(tries = 300)
  void exactCountsAddUpAndEveryUnmappedRequestIsOneProblem(
      @ForAll @Size(min = 1, max = 8) List<@From("asked") Asked> asked) {
    final Pod pod = pod("p", fromTemplate("x", "t"));
    final DraObjects objects =
        objects(List.of(), List.of(), List.of(template("t", requests(asked))), List.of());

    final DeviceCharge charge = CLAIMED.charge(pod, objects);

    long gpus = 0;
    long tpus = 0;
    long unmapped = 0;
    for (final Asked one : asked) {
      final long count = one.count() == null ? 1 : one.count();
      switch (one.deviceClass()) {
        case GPU_CLASS -> gpus += count;
        case TPU_CLASS -> tpus += count * TPU_PER_DEVICE;
        default -> unmapped++;
      }
    }
    assertThat(charge.devices().get(GPU)).isEqualTo(gpus);
    assertThat(charge.devices().get(TPU)).isEqualTo(tpus);
    assertThat(charge.problems()).hasSize((int) unmapped);
    assertThat(charge.problems())
        .allSatisfy(problem -> assertThat(problem.reason()).contains(UNMAPPED_CLASS));
  }

  @Property(tries = 300)
  void aSharedClaimIsChargedToExactlyOneOfItsReservedPods(
      @ForAll @IntRange(min = 1, max = 6) int pods,
      @ForAll("reservations") List<Integer> reservedOrder,
      @ForAll @IntRange(min = 1, max = 16) int count) {
    final ResourceClaim shared = claim("shared", exact("gpu", GPU_CLASS, (long) count));
    final List<String> reserved =
        reservedOrder.stream().filter(i -> i < pods).map(i -> "p" + i).distinct().toList();
    final DraObjects objects =
        objects(
            List.of(),
            List.of(
                reserved.isEmpty() ? shared : reservedFor(shared, reserved.toArray(String[]::new))),
            List.of(),
            List.of());

    long charged = 0;
    int payers = 0;
    for (int i = 0; i < pods; i++) {
      final long gpus =
          CLAIMED.charge(pod("p" + i, fromClaim("g", "shared")), objects).devices().get(GPU);
      charged += gpus;
      payers += gpus > 0 ? 1 : 0;
      if (!reserved.isEmpty()) {
        assertThat(gpus > 0).isEqualTo(reserved.get(0).equals("p" + i));
      }
    }
    // Reserved: charged once, to the first. Reserved for no pod yet: to every pod naming it.
    assertThat(charged).isEqualTo(reserved.isEmpty() ? (long) pods * count : count);
    assertThat(payers).isEqualTo(reserved.isEmpty() ? pods : 1);
  }

  @Property(tries = 200)
  void allCountsTheLargestPoolOfTheClassDriverAndNoOtherDriver(
      @ForAll @Size(min = 1, max = 5) List<@IntRange(min = 1, max = 12) Integer> gpuPools,
      @ForAll @Size(max = 3) List<@IntRange(min = 1, max = 40) Integer> otherPools) {
    final List<ResourceSlice> slices = new ArrayList<>();
    for (int p = 0; p < gpuPools.size(); p++) {
      slices.add(slice("gpu-" + p, GPU_CLASS, "node-" + p, devices(gpuPools.get(p))));
    }
    for (int p = 0; p < otherPools.size(); p++) {
      slices.add(slice("nic-" + p, "nic.example.com", "node-" + p, devices(otherPools.get(p))));
    }
    final DraObjects objects =
        objects(List.of(), List.of(), List.of(template("every", all("a", GPU_CLASS))), slices);

    final DeviceCharge charge = CLAIMED.charge(pod("p", fromTemplate("a", "every")), objects);

    assertThat(charge.devices().get(GPU))
        .isEqualTo(gpuPools.stream().mapToLong(Integer::longValue).max().orElseThrow());
    assertThat(charge.problems()).isEmpty();
  }

  @Provide
  Arbitrary<List<Integer>> reservations() {
    return Arbitraries.integers().between(0, 7).list().ofMaxSize(6);
  }

  @Provide
  Arbitrary<Asked> asked() {
    return Combinators.combine(
            Arbitraries.of(GPU_CLASS, TPU_CLASS, UNMAPPED_CLASS),
            Arbitraries.longs().between(1, 1000).injectNull(0.2))
        .as(Asked::new);
  }

  private static DeviceRequest[] requests(List<@From("asked") Asked> asked) {
    final DeviceRequest[] requests = new DeviceRequest[asked.size()];
    for (int i = 0; i < asked.size(); i++) {
      requests[i] = exact("r" + i, asked.get(i).deviceClass(), asked.get(i).count());
    }
    return requests;
  }

  private static Device[] devices(int count) {
    final Device[] devices = new Device[count];
    for (int i = 0; i < count; i++) {
      devices[i] = gpu("d" + i, "1Gi");
    }
    return devices;
  }
}
