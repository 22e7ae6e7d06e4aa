package io.quotaflow.dra;

import static io.quotaflow.dra.Dra.GPU;
import static io.quotaflow.dra.Dra.GPU_CLASS;
import static io.quotaflow.dra.Dra.GPU_MEMORY;
import static io.quotaflow.dra.Dra.all;
import static io.quotaflow.dra.Dra.allocated;
import static io.quotaflow.dra.Dra.claim;
import static io.quotaflow.dra.Dra.deviceClass;
import static io.quotaflow.dra.Dra.exact;
import static io.quotaflow.dra.Dra.firstAvailable;
import static io.quotaflow.dra.Dra.fromClaim;
import static io.quotaflow.dra.Dra.fromTemplate;
import static io.quotaflow.dra.Dra.gpu;
import static io.quotaflow.dra.Dra.objects;
import static io.quotaflow.dra.Dra.pod;
import static io.quotaflow.dra.Dra.reservedFor;
import static io.quotaflow.dra.Dra.result;
import static io.quotaflow.dra.Dra.slice;
import static io.quotaflow.dra.Dra.sub;
import static io.quotaflow.dra.Dra.template;
import static io.quotaflow.dra.Dra.withGenerated;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClaimedDevicesTest {

  private static final String TPU_CLASS = "tpu.example.com";
  private static final String TPU = "example.com/tpu";
  private static final long GI = 1L << 30;

  private static final DeviceClassMappings MAPPINGS =
      DeviceClassMappings.parse(
          "gpu.nvidia.com -> nvidia.com/gpu [memory / 1Gi -> quotaflow.io/gpu-memory];"
              + " tpu.example.com -> example.com/tpu x 4");
  private static final ClaimedDevices DEFAULTS = new ClaimedDevices(DeviceClassMappings.defaults());
  private static final ClaimedDevices CLAIMED = new ClaimedDevices(MAPPINGS);

  /**
   * Two nodes of NVIDIA GPUs (4 of 40Gi, 8 of 80Gi in two slices) and 16 devices of another driver.
   */
  private static final List<ResourceSlice> SLICES =
      List.of(
          slice("n1-gpus", GPU_CLASS, "n1", gpus("n1", 0, 4, "40Gi")),
          slice("n2-gpus-a", GPU_CLASS, "n2", gpus("n2", 0, 4, "80Gi")),
          slice("n2-gpus-b", GPU_CLASS, "n2", gpus("n2", 4, 4, "80Gi")),
          slice("n3-nics", "nic.example.com", "n3", gpus("n3", 0, 16, "1Gi")));

  @Test
  void aTemplateWithAnExactCountChargesThatManyDevices() {
    final Pod pod = pod("p", fromTemplate("gpu", "two-gpus"));
    final DraObjects objects =
        objects(
            List.of(),
            List.of(),
            List.of(template("two-gpus", exact("gpu", GPU_CLASS, 2L))),
            List.of());

    final DeviceCharge charge = DEFAULTS.charge(pod, objects);

    assertThat(charge.devices()).isEqualTo(ResourceList.of(GPU, 2));
    assertThat(charge.problems()).isEmpty();
    final QuotaPod read = PodAdapter.toQuotaPod(pod);
    assertThat(DEFAULTS.apply(pod, read, objects).request())
        .isEqualTo(read.request().plus(ResourceList.of(GPU, 2)));
  }

  @Test
  void anExactCountDefaultsToOneDevice() {
    final DraObjects objects =
        objects(
            List.of(),
            List.of(),
            List.of(template("one", exact("gpu", GPU_CLASS, null))),
            List.of());

    assertThat(DEFAULTS.charge(pod("p", fromTemplate("gpu", "one")), objects).devices())
        .isEqualTo(ResourceList.of(GPU, 1));
  }

  @Test
  void allCountsTheLargestPoolOfTheDriverTheClassSelects() {
    final DraObjects objects =
        objects(
            List.of(
                deviceClass(
                    GPU_CLASS,
                    "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type"
                        + " == 'gpu'")),
            List.of(),
            List.of(template("every-gpu", all("gpus", GPU_CLASS))),
            SLICES);

    final DeviceCharge charge =
        CLAIMED.charge(pod("p", fromTemplate("gpus", "every-gpu")), objects);

    // Pool n2 (8 devices of 80Gi, published in two slices) is larger than n1 and the nic pool is
    // another driver's.
    assertThat(charge.devices()).isEqualTo(ResourceList.of(GPU, 8, GPU_MEMORY, 8 * 80));
    assertThat(charge.problems()).isEmpty();
  }

  @Test
  void allFollowsTheDriverTheClassSelectorNamesNotTheClassName() {
    final DraObjects objects =
        objects(
            List.of(deviceClass(GPU_CLASS, "device.driver == \"nic.example.com\"")),
            List.of(),
            List.of(template("every", all("gpus", GPU_CLASS))),
            SLICES);

    assertThat(CLAIMED.charge(pod("p", fromTemplate("gpus", "every")), objects).devices())
        .isEqualTo(ResourceList.of(GPU, 16, GPU_MEMORY, 16));
  }

  @Test
  void aDevicePublishedInTwoSlicesOfItsPoolCountsOnceForAll() {
    final DraObjects objects =
        objects(
            List.of(),
            List.of(),
            List.of(template("every", all("gpus", GPU_CLASS))),
            List.of(
                slice("n1-old", GPU_CLASS, "n1", gpus("n1", 0, 4, "40Gi")),
                slice("n1-new", GPU_CLASS, "n1", gpus("n1", 2, 4, "40Gi"))));

    // Devices n1-gpu-0 to n1-gpu-5: the two slices overlap in n1-gpu-2 and n1-gpu-3.
    assertThat(DEFAULTS.charge(pod("p", fromTemplate("gpus", "every")), objects).devices())
        .isEqualTo(ResourceList.of(GPU, 6));
  }

  @Test
  void allWithoutPublishedDevicesChargesNothingAndSaysSo() {
    final DraObjects objects =
        objects(
            List.of(), List.of(), List.of(template("every", all("gpus", GPU_CLASS))), List.of());

    final DeviceCharge charge = CLAIMED.charge(pod("p", fromTemplate("gpus", "every")), objects);

    assertThat(charge.devices().isEmpty()).isTrue();
    assertThat(charge.problems())
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.field()).startsWith("spec.resourceClaims[0]");
              assertThat(problem.reason()).contains("no ResourceSlice publishes devices");
            });
  }

  @Test
  void anExactCountBeforeAllocationDerivesTheLargestCapacityOfTheClass() {
    final DraObjects objects =
        objects(
            List.of(), List.of(), List.of(template("two", exact("gpu", GPU_CLASS, 2L))), SLICES);

    assertThat(CLAIMED.charge(pod("p", fromTemplate("gpu", "two")), objects).devices())
        .isEqualTo(ResourceList.of(GPU, 2, GPU_MEMORY, 2 * 80));
  }

  @Test
  void severalRequestsOfOneClaimAddUp() {
    final DraObjects objects =
        objects(
            List.of(),
            List.of(),
            List.of(
                template(
                    "mixed",
                    exact("a", GPU_CLASS, 2L),
                    exact("b", GPU_CLASS, 3L),
                    exact("c", TPU_CLASS, 2L))),
            List.of());

    assertThat(CLAIMED.charge(pod("p", fromTemplate("x", "mixed")), objects).devices())
        .isEqualTo(ResourceList.of(GPU, 5, TPU, 2 * 4));
  }

  @Test
  void severalClaimsOfOnePodAddUp() {
    final DraObjects objects =
        objects(
            List.of(),
            List.of(claim("shared-gpu", exact("gpu", GPU_CLASS, 1L))),
            List.of(template("two", exact("gpu", GPU_CLASS, 2L))),
            List.of());

    assertThat(
            DEFAULTS
                .charge(pod("p", fromTemplate("a", "two"), fromClaim("b", "shared-gpu")), objects)
                .devices())
        .isEqualTo(ResourceList.of(GPU, 3));
  }

  @Test
  void firstAvailableChargesPerResourceTheMostAnySubRequestWould() {
    final DraObjects objects =
        objects(
            List.of(),
            List.of(),
            List.of(
                template(
                    "flexible",
                    firstAvailable(
                        "accel",
                        sub("small", GPU_CLASS, 1),
                        sub("big", GPU_CLASS, 4),
                        sub("tpus", TPU_CLASS, 1)))),
            List.of());

    assertThat(CLAIMED.charge(pod("p", fromTemplate("accel", "flexible")), objects).devices())
        .isEqualTo(ResourceList.of(GPU, 4, TPU, 4));
  }

  @Test
  void aSharedClaimIsChargedToTheFirstPodItIsReservedForOnly() {
    final ResourceClaim shared =
        reservedFor(claim("shared", exact("gpu", GPU_CLASS, 2L)), "second", "first");
    final DraObjects objects = objects(List.of(), List.of(shared), List.of(), List.of());

    assertThat(DEFAULTS.charge(pod("second", fromClaim("g", "shared")), objects).devices())
        .isEqualTo(ResourceList.of(GPU, 2));
    assertThat(DEFAULTS.charge(pod("first", fromClaim("g", "shared")), objects))
        .isEqualTo(DeviceCharge.NONE);
    assertThat(DEFAULTS.charge(pod("later", fromClaim("g", "shared")), objects))
        .isEqualTo(DeviceCharge.NONE);
  }

  @Test
  void aClaimReservedForNoPodYetIsChargedToEachPodNamingIt() {
    final DraObjects objects =
        objects(
            List.of(), List.of(claim("shared", exact("gpu", GPU_CLASS, 2L))), List.of(), List.of());

    assertThat(DEFAULTS.charge(pod("a", fromClaim("g", "shared")), objects).devices())
        .isEqualTo(ResourceList.of(GPU, 2));
    assertThat(DEFAULTS.charge(pod("b", fromClaim("g", "shared")), objects).devices())
        .isEqualTo(ResourceList.of(GPU, 2));
  }

  @Test
  void anAllocatedClaimIsChargedForTheDevicesItWasGiven() {
    final ResourceClaim claim =
        allocated(
            reservedFor(claim("gpus", all("all", GPU_CLASS)), "p"),
            result("all", GPU_CLASS, "n1", "n1-gpu-0"),
            result("all", GPU_CLASS, "n1", "n1-gpu-1"),
            result("all", GPU_CLASS, "n2", "n2-gpu-5"));
    final DraObjects objects = objects(List.of(), List.of(claim), List.of(), SLICES);

    final DeviceCharge charge = CLAIMED.charge(pod("p", fromClaim("g", "gpus")), objects);

    assertThat(charge.devices()).isEqualTo(ResourceList.of(GPU, 3, GPU_MEMORY, 40 + 40 + 80));
    assertThat(charge.problems()).isEmpty();
  }

  @Test
  void anAllocatedSubRequestIsChargedAsItsOwnClass() {
    final ResourceClaim claim =
        allocated(
            claim(
                "flexible",
                firstAvailable("accel", sub("big", GPU_CLASS, 4), sub("t", TPU_CLASS, 1))),
            result("accel/t", "tpu.example.com", "n9", "tpu-0"));
    final DraObjects objects = objects(List.of(), List.of(claim), List.of(), List.of());

    assertThat(CLAIMED.charge(pod("p", fromClaim("g", "flexible")), objects).devices())
        .isEqualTo(ResourceList.of(TPU, 4));
  }

  @Test
  void aDeviceSharedByClaimsIsChargedTheCapacityTheClaimConsumed() {
    final ResourceClaim claim =
        allocated(
            claim("slice-of-gpu", exact("gpu", GPU_CLASS, 1L)),
            new DeviceRequestAllocationResultBuilder(result("gpu", GPU_CLASS, "n2", "n2-gpu-0"))
                .withConsumedCapacity(Map.of("memory", new Quantity("10Gi")))
                .build());
    final DraObjects objects = objects(List.of(), List.of(claim), List.of(), SLICES);

    assertThat(CLAIMED.charge(pod("p", fromClaim("g", "slice-of-gpu")), objects).devices())
        .isEqualTo(ResourceList.of(GPU, 1, GPU_MEMORY, 10));
  }

  @Test
  void anAllocatedDeviceNoSliceKnowsIsChargedAndItsCapacityReported() {
    final ResourceClaim claim =
        allocated(claim("gone", exact("gpu", GPU_CLASS, 1L)), result("gpu", GPU_CLASS, "n7", "x"));
    final DraObjects objects = objects(List.of(), List.of(claim), List.of(), SLICES);

    final DeviceCharge charge = CLAIMED.charge(pod("p", fromClaim("g", "gone")), objects);

    assertThat(charge.devices()).isEqualTo(ResourceList.of(GPU, 1));
    assertThat(charge.problems())
        .singleElement()
        .extracting(SpecProblem::reason)
        .asString()
        .contains("gpu.nvidia.com/n7/x is in no ResourceSlice");
  }

  @Test
  void theClaimGeneratedForAPodReplacesItsTemplateOnceKnown() {
    final ResourceClaim generated =
        allocated(
            reservedFor(claim("p-gpu-x7k2", exact("gpu", GPU_CLASS, 2L)), "p"),
            result("gpu", GPU_CLASS, "n1", "n1-gpu-0"));
    final Pod pod = withGenerated(pod("p", fromTemplate("gpu", "two")), "gpu", "p-gpu-x7k2");
    final DraObjects before =
        objects(
            List.of(), List.of(), List.of(template("two", exact("gpu", GPU_CLASS, 2L))), List.of());
    final DraObjects after =
        objects(
            List.of(),
            List.of(generated),
            List.of(template("two", exact("gpu", GPU_CLASS, 2L))),
            List.of());

    // The generated claim is not watched yet: the template tells.
    assertThat(DEFAULTS.charge(pod, before).devices()).isEqualTo(ResourceList.of(GPU, 2));
    // Allocated: one device was given (the template changed since, say), and that is what counts.
    assertThat(DEFAULTS.charge(pod, after).devices()).isEqualTo(ResourceList.of(GPU, 1));
  }

  @Test
  void anEntryForWhichNoClaimWasNeededChargesNothing() {
    final Pod pod =
        new PodBuilder(pod("p", fromTemplate("gpu", "two")))
            .withNewStatus()
            .withResourceClaimStatuses(new PodResourceClaimStatusBuilder().withName("gpu").build())
            .endStatus()
            .build();
    final DraObjects objects =
        objects(
            List.of(), List.of(), List.of(template("two", exact("gpu", GPU_CLASS, 2L))), List.of());

    assertThat(DEFAULTS.charge(pod, objects)).isEqualTo(DeviceCharge.NONE);
  }

  @Test
  void anUnknownDeviceClassIsReportedAndNotGuessed() {
    final DraObjects objects =
        objects(
            List.of(),
            List.of(),
            List.of(
                template("fpgas", exact("f", "fpga.example.com", 2L), exact("g", GPU_CLASS, 1L))),
            List.of());

    final DeviceCharge charge = DEFAULTS.charge(pod("p", fromTemplate("x", "fpgas")), objects);

    assertThat(charge.devices()).isEqualTo(ResourceList.of(GPU, 1));
    assertThat(charge.problems())
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.field())
                  .isEqualTo(
                      "spec.resourceClaims[0] (ResourceClaimTemplate team-a/fpgas):"
                          + " spec.spec.devices.requests[0].exactly.deviceClassName");
              assertThat(problem.reason())
                  .startsWith("unknown DeviceClass fpga.example.com")
                  .endsWith("its devices are not charged");
            });
  }

  @Test
  void aDeviceClassThatExistsWithoutAMappingIsReportedAsUnmapped() {
    final DraObjects objects =
        objects(
            List.of(deviceClass("fpga.example.com", null)),
            List.of(),
            List.of(template("fpgas", exact("f", "fpga.example.com", 2L))),
            List.of());

    final DeviceCharge charge = DEFAULTS.charge(pod("p", fromTemplate("x", "fpgas")), objects);

    assertThat(charge.devices().isEmpty()).isTrue();
    assertThat(charge.problems())
        .singleElement()
        .extracting(SpecProblem::reason)
        .asString()
        .startsWith("DeviceClass fpga.example.com has no quota mapping");
  }

  @Test
  void anUnknownTemplateOrClaimIsReported() {
    final DeviceCharge charge =
        DEFAULTS.charge(
            pod("p", fromTemplate("a", "missing"), fromClaim("b", "nowhere")), DraObjects.empty());

    assertThat(charge.devices().isEmpty()).isTrue();
    assertThat(charge.problems())
        .extracting(SpecProblem::field)
        .containsExactly(
            "spec.resourceClaims[0].resourceClaimTemplateName",
            "spec.resourceClaims[1].resourceClaimName");
  }

  @Test
  void adminAccessTakesNoDeviceAndIsNotCharged() {
    final DraObjects objects =
        objects(
            List.of(),
            List.of(),
            List.of(template("watch", Dra.adminAccess("gpu", GPU_CLASS, 8))),
            List.of());

    assertThat(DEFAULTS.charge(pod("p", fromTemplate("gpu", "watch")), objects))
        .isEqualTo(DeviceCharge.NONE);
  }

  @Test
  void capacitiesAreReadInWholeUnitsRoundedUp() {
    assertThat(new CapacityRule("memory", GPU_MEMORY, GI).units(GI + 1)).isEqualTo(2);
    assertThat(new CapacityRule("memory", GPU_MEMORY, GI).units(80 * GI)).isEqualTo(80);
    assertThat(new CapacityRule("memory", GPU_MEMORY, GI).units(0)).isZero();
  }

  private static Device[] gpus(String node, int from, int count, String memory) {
    final Device[] devices = new Device[count];
    for (int i = 0; i < count; i++) {
      devices[i] = gpu(node + "-gpu-" + (from + i), memory);
    }
    return devices;
  }
}
