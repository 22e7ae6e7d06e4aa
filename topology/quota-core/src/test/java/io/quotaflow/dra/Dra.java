package io.quotaflow.dra;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReferenceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.quotaflow.quota.SpecProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Fixture builders for DRA objects and pods that claim devices (resource.k8s.io/v1). */
final class Dra {

  static final String GPU_CLASS = "gpu.nvidia.com";
  static final String GPU = "nvidia.com/gpu";
  static final String GPU_MEMORY = "quotaflow.io/gpu-memory";
  static final String NAMESPACE = "team-a";

  private Dra() {}

  static DeviceRequest exact(String name, String deviceClass, Long count) {
    return new DeviceRequestBuilder()
        .withName(name)
        .withNewExactly()
        .withDeviceClassName(deviceClass)
        .withCount(count)
        .endExactly()
        .build();
  }

  static DeviceRequest all(String name, String deviceClass) {
    return new DeviceRequestBuilder()
        .withName(name)
        .withNewExactly()
        .withDeviceClassName(deviceClass)
        .withAllocationMode("All")
        .endExactly()
        .build();
  }

  static DeviceRequest adminAccess(String name, String deviceClass, long count) {
    return new DeviceRequestBuilder()
        .withName(name)
        .withNewExactly()
        .withDeviceClassName(deviceClass)
        .withCount(count)
        .withAdminAccess(true)
        .endExactly()
        .build();
  }

  static DeviceRequest firstAvailable(String name, DeviceSubRequest... subs) {
    return new DeviceRequestBuilder().withName(name).withFirstAvailable(subs).build();
  }

  static DeviceSubRequest sub(String name, String deviceClass, long count) {
    return new DeviceSubRequestBuilder()
        .withName(name)
        .withDeviceClassName(deviceClass)
        .withCount(count)
        .build();
  }

  static ResourceClaimTemplate template(String name, DeviceRequest... requests) {
    return new ResourceClaimTemplateBuilder()
        .withNewMetadata()
        .withNamespace(NAMESPACE)
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withNewSpec()
        .withNewDevices()
        .withRequests(requests)
        .endDevices()
        .endSpec()
        .endSpec()
        .build();
  }

  static ResourceClaim claim(String name, DeviceRequest... requests) {
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withNamespace(NAMESPACE)
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withNewDevices()
        .withRequests(requests)
        .endDevices()
        .endSpec()
        .build();
  }

  /** The claim reserved for these pods, in this order (uid = name + "-uid"). */
  static ResourceClaim reservedFor(ResourceClaim claim, String... pods) {
    final ResourceClaimBuilder builder = new ResourceClaimBuilder(claim);
    if (claim.getStatus() == null) {
      builder.withNewStatus().endStatus();
    }
    return builder
        .editStatus()
        .withReservedFor(
            List.of(pods).stream()
                .map(
                    pod ->
                        new ResourceClaimConsumerReferenceBuilder()
                            .withResource("pods")
                            .withName(pod)
                            .withUid(pod + "-uid")
                            .build())
                .toList())
        .endStatus()
        .build();
  }

  static ResourceClaim allocated(ResourceClaim claim, DeviceRequestAllocationResult... results) {
    final ResourceClaimBuilder builder = new ResourceClaimBuilder(claim);
    if (claim.getStatus() == null) {
      builder.withNewStatus().endStatus();
    }
    return builder
        .editStatus()
        .withAllocation(
            new AllocationResultBuilder()
                .withNewDevices()
                .withResults(results)
                .endDevices()
                .build())
        .endStatus()
        .build();
  }

  static DeviceRequestAllocationResult result(
      String request, String driver, String pool, String device) {
    return new DeviceRequestAllocationResultBuilder()
        .withRequest(request)
        .withDriver(driver)
        .withPool(pool)
        .withDevice(device)
        .build();
  }

  static DeviceClass deviceClass(String name, String celExpression) {
    final DeviceClassBuilder builder =
        new DeviceClassBuilder().withNewMetadata().withName(name).endMetadata();
    if (celExpression == null) {
      return builder.withNewSpec().endSpec().build();
    }
    return builder
        .withNewSpec()
        .addNewSelector()
        .withNewCel()
        .withExpression(celExpression)
        .endCel()
        .endSelector()
        .endSpec()
        .build();
  }

  static ResourceSlice slice(String name, String driver, String pool, Device... devices) {
    return new ResourceSliceBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withDriver(driver)
        .withNewPool()
        .withName(pool)
        .withGeneration(1L)
        .withResourceSliceCount(1L)
        .endPool()
        .withNodeName(pool)
        .withDevices(devices)
        .endSpec()
        .build();
  }

  /** A node-local slice of {@code node}, of pool generation {@code generation}. */
  static ResourceSlice sliceOn(
      String node, String driver, String pool, long generation, Device... devices) {
    return new ResourceSliceBuilder()
        .withNewMetadata()
        .withName(pool + "-" + generation + "-" + node)
        .endMetadata()
        .withNewSpec()
        .withDriver(driver)
        .withNewPool()
        .withName(pool)
        .withGeneration(generation)
        .withResourceSliceCount(1L)
        .endPool()
        .withNodeName(node)
        .withDevices(devices)
        .endSpec()
        .build();
  }

  /** A slice of devices reachable from every node (network-attached), generation 1. */
  static ResourceSlice sliceForAllNodes(String driver, String pool, Device... devices) {
    return new ResourceSliceBuilder()
        .withNewMetadata()
        .withName(pool + "-all")
        .endMetadata()
        .withNewSpec()
        .withDriver(driver)
        .withNewPool()
        .withName(pool)
        .withGeneration(1L)
        .withResourceSliceCount(1L)
        .endPool()
        .withAllNodes(true)
        .withDevices(devices)
        .endSpec()
        .build();
  }

  static Device gpu(String name, String memory) {
    return new DeviceBuilder()
        .withName(name)
        .withCapacity(
            Map.of("memory", new DeviceCapacityBuilder().withValue(new Quantity(memory)).build()))
        .build();
  }

  static PodResourceClaim fromTemplate(String entry, String template) {
    return new PodResourceClaimBuilder()
        .withName(entry)
        .withResourceClaimTemplateName(template)
        .build();
  }

  static PodResourceClaim fromClaim(String entry, String claim) {
    return new PodResourceClaimBuilder().withName(entry).withResourceClaimName(claim).build();
  }

  /** A pending pod asking 1 cpu, with these claims (uid = name + "-uid"). */
  static Pod pod(String name, PodResourceClaim... claims) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace(NAMESPACE)
        .withName(name)
        .withUid(name + "-uid")
        .endMetadata()
        .withNewSpec()
        .withContainers(
            new ContainerBuilder()
                .withName("main")
                .withNewResources()
                .withRequests(Map.of("cpu", new Quantity("1")))
                .endResources()
                .build())
        .withResourceClaims(claims)
        .endSpec()
        .build();
  }

  /** The pod with a claim generated for its entry, as the resource claim controller records it. */
  static Pod withGenerated(Pod pod, String entry, String claim) {
    final List<PodResourceClaimStatus> statuses = new ArrayList<>();
    statuses.add(
        new PodResourceClaimStatusBuilder().withName(entry).withResourceClaimName(claim).build());
    return new PodBuilder(pod)
        .withNewStatus()
        .withResourceClaimStatuses(statuses)
        .endStatus()
        .build();
  }

  static DraObjects objects(
      List<DeviceClass> classes,
      List<ResourceClaim> claims,
      List<ResourceClaimTemplate> templates,
      List<ResourceSlice> slices) {
    final List<SliceDevices> devices = new ArrayList<>();
    for (final ResourceSlice slice : slices) {
      final List<SpecProblem> problems = new ArrayList<>();
      devices.add(SliceDevices.read(slice, problems));
      if (!problems.isEmpty()) {
        throw new AssertionError("fixture slice has problems: " + problems);
      }
    }
    return DraObjects.of(classes, claims, templates, devices);
  }
}
