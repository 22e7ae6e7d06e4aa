package io.quotaflow.engine;

import io.quotaflow.schemas.AllocatedDevice;
import io.quotaflow.schemas.ClaimConsumer;
import io.quotaflow.schemas.DeviceClassState;
import io.quotaflow.schemas.DeviceRequest;
import io.quotaflow.schemas.ExactDeviceRequest;
import io.quotaflow.schemas.ResourceClaimState;
import io.quotaflow.schemas.ResourceClaimTemplateState;
import io.quotaflow.schemas.ResourceSliceState;
import io.quotaflow.schemas.SliceDevice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Records of the DRA topics for engine tests: NVIDIA's GPU class, claims, templates, slices. */
final class DraInputs {
  static final String GPU_CLASS = "gpu.nvidia.com";
  static final String GPU = "nvidia.com/gpu";

  private DraInputs() {}

  /** NVIDIA's GPU class, selecting its driver. */
  static DeviceClassState gpuClass() {
    return new DeviceClassState(List.of("device.driver == \"gpu.nvidia.com\""));
  }

  /** A request of {@code count} devices of {@code deviceClass}. */
  static DeviceRequest exactly(final String name, final String deviceClass, final long count) {
    return new DeviceRequest(
        name, new ExactDeviceRequest("", deviceClass, null, count, false), List.of());
  }

  /** A request of every device of a pool of {@code deviceClass}. */
  static DeviceRequest all(final String name, final String deviceClass) {
    return new DeviceRequest(
        name, new ExactDeviceRequest("", deviceClass, "All", null, false), List.of());
  }

  static ResourceClaimTemplateState template(final DeviceRequest... requests) {
    return new ResourceClaimTemplateState(List.of(requests));
  }

  /** A claim not allocated, reserved for nobody. */
  static ResourceClaimState claim(final DeviceRequest... requests) {
    return new ResourceClaimState(List.of(requests), null, List.of());
  }

  /**
   * {@code claim} allocated {@code devices} GPUs of pool {@code pool} for request {@code request}.
   */
  static ResourceClaimState allocated(
      final ResourceClaimState claim, final String request, final String... devices) {
    final List<AllocatedDevice> results = new ArrayList<>();
    for (final String device : devices) {
      results.add(new AllocatedDevice(request, GPU_CLASS, "node-1", device, false, Map.of()));
    }
    return ResourceClaimState.newBuilder(claim).setAllocation(results).build();
  }

  /** {@code claim} reserved for the pods of {@code uids}, in order. */
  static ResourceClaimState reservedFor(final ResourceClaimState claim, final String... uids) {
    final List<ClaimConsumer> consumers =
        Arrays.stream(uids).map(uid -> new ClaimConsumer("", "pods", "", uid)).toList();
    return ResourceClaimState.newBuilder(claim).setReservedFor(consumers).build();
  }

  /** A slice of NVIDIA's driver publishing {@code devices} in {@code pool}. */
  /** A slice of node n1 (the tests' GPU node), generation 1. */
  static ResourceSliceState gpuSlice(final String pool, final String... devices) {
    return gpuSliceOn("n1", pool, devices);
  }

  /** A node-local slice of {@code node} ("" for a slice bound to no single node), generation 1. */
  static ResourceSliceState gpuSliceOn(
      final String node, final String pool, final String... devices) {
    return ResourceSliceState.newBuilder()
        .setDriver(GPU_CLASS)
        .setPool(pool)
        .setDevices(
            Arrays.stream(devices)
                .map(name -> new SliceDevice(name, Map.of("memory", "80Gi")))
                .toList())
        .setNodeName(node)
        .setGeneration(1L)
        .build();
  }

  /** The names gpu-0 .. gpu-(count - 1). */
  static String[] gpuNames(final int count) {
    return java.util.stream.IntStream.range(0, count)
        .mapToObj(i -> "gpu-" + i)
        .toArray(String[]::new);
  }

  /** cpu (milli-cores) and GPUs. */
  static Map<String, Long> cpuAndGpus(final long cpuMillis, final long gpus) {
    return Map.of("cpu", cpuMillis, GPU, gpus);
  }
}
