package io.quotaflow.engine.convert;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.CELDeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassSpec;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourcePool;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.quotaflow.schemas.AllocatedDevice;
import io.quotaflow.schemas.ClaimConsumer;
import io.quotaflow.schemas.DeviceClassState;
import io.quotaflow.schemas.DeviceRequest;
import io.quotaflow.schemas.ExactDeviceRequest;
import io.quotaflow.schemas.PodClaimEntry;
import io.quotaflow.schemas.PodClaimStatus;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.ResourceClaimState;
import io.quotaflow.schemas.ResourceClaimTemplateState;
import io.quotaflow.schemas.ResourceSliceState;
import io.quotaflow.schemas.SliceDevice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The DRA objects (resource.k8s.io/v1) as the records of their topics and back (docs/semantics.md
 * section 22): the connectors keep only what the quota core's counting reads ({@code
 * io.quotaflow.dra}), the engine rebuilds fabric8 objects holding just that, so the core counts a
 * pod's claims the same from either. Quantities travel as written and are parsed by the core, which
 * reports the ones it cannot read. Pure functions.
 */
public final class DraRecords {
  private DraRecords() {}

  /** What a DeviceClass tells: the CEL expressions of its selectors. */
  public static DeviceClassState deviceClassState(final DeviceClass deviceClass) {
    final List<String> selectors = new ArrayList<>();
    final DeviceClassSpec spec = deviceClass.getSpec();
    if (spec != null && spec.getSelectors() != null) {
      for (final DeviceSelector selector : spec.getSelectors()) {
        if (selector != null
            && selector.getCel() != null
            && selector.getCel().getExpression() != null) {
          selectors.add(selector.getCel().getExpression());
        }
      }
    }
    return DeviceClassState.newBuilder().setSelectors(selectors).build();
  }

  /** What a ResourceClaim tells: its requests, allocation and consumers. */
  public static ResourceClaimState resourceClaimState(final ResourceClaim claim) {
    final ResourceClaimStatus status = claim.getStatus();
    final List<AllocatedDevice> allocation = allocated(status);
    final List<ClaimConsumer> consumers = new ArrayList<>();
    if (status != null && status.getReservedFor() != null) {
      for (final ResourceClaimConsumerReference consumer : status.getReservedFor()) {
        consumers.add(
            ClaimConsumer.newBuilder()
                .setApiGroup(text(consumer.getApiGroup()))
                .setResource(text(consumer.getResource()))
                .setName(text(consumer.getName()))
                .setUid(text(consumer.getUid()))
                .build());
      }
    }
    return ResourceClaimState.newBuilder()
        .setRequests(requests(claim.getSpec()))
        .setAllocation(allocation)
        .setReservedFor(consumers)
        .build();
  }

  /** What a ResourceClaimTemplate tells: the requests of the claims it makes. */
  public static ResourceClaimTemplateState resourceClaimTemplateState(
      final ResourceClaimTemplate template) {
    return ResourceClaimTemplateState.newBuilder()
        .setRequests(requests(template.getSpec() == null ? null : template.getSpec().getSpec()))
        .build();
  }

  /** What a ResourceSlice tells: its driver, pool and devices with their capacities. */
  public static ResourceSliceState resourceSliceState(final ResourceSlice slice) {
    final ResourceSliceSpec spec =
        slice.getSpec() == null ? new ResourceSliceSpec() : slice.getSpec();
    final List<SliceDevice> devices = new ArrayList<>();
    if (spec.getDevices() != null) {
      for (final Device device : spec.getDevices()) {
        final Map<String, String> capacity = new LinkedHashMap<>();
        if (device.getCapacity() != null) {
          device
              .getCapacity()
              .forEach(
                  (name, value) -> {
                    // A capacity without a value is left out: the core charges it nothing.
                    if (value != null && value.getValue() != null) {
                      capacity.put(name, value.getValue().toString());
                    }
                  });
        }
        devices.add(
            SliceDevice.newBuilder().setName(text(device.getName())).setCapacity(capacity).build());
      }
    }
    return ResourceSliceState.newBuilder()
        .setDriver(text(spec.getDriver()))
        .setPool(spec.getPool() == null ? "" : text(spec.getPool().getName()))
        .setDevices(devices)
        .setNodeName(text(spec.getNodeName()))
        .setGeneration(
            spec.getPool() == null || spec.getPool().getGeneration() == null
                ? 0L
                : spec.getPool().getGeneration())
        .build();
  }

  /** A pod's {@code spec.resourceClaims}, as its record carries them. */
  public static List<PodClaimEntry> podClaims(final Pod pod) {
    final List<PodClaimEntry> entries = new ArrayList<>();
    if (pod.getSpec() != null && pod.getSpec().getResourceClaims() != null) {
      for (final PodResourceClaim claim : pod.getSpec().getResourceClaims()) {
        entries.add(
            PodClaimEntry.newBuilder()
                .setName(text(claim.getName()))
                .setResourceClaimName(claim.getResourceClaimName())
                .setResourceClaimTemplateName(claim.getResourceClaimTemplateName())
                .build());
      }
    }
    return entries;
  }

  /** A pod's {@code status.resourceClaimStatuses}, as its record carries them. */
  public static List<PodClaimStatus> podClaimStatuses(final Pod pod) {
    final List<PodClaimStatus> statuses = new ArrayList<>();
    if (pod.getStatus() != null && pod.getStatus().getResourceClaimStatuses() != null) {
      for (final PodResourceClaimStatus status : pod.getStatus().getResourceClaimStatuses()) {
        statuses.add(
            PodClaimStatus.newBuilder()
                .setName(text(status.getName()))
                .setResourceClaimName(status.getResourceClaimName())
                .build());
      }
    }
    return statuses;
  }

  /** Whether a pod's record names claims: only such pods are charged devices. */
  public static boolean hasClaims(final PodState state) {
    return !state.getResourceClaims().isEmpty();
  }

  /** The pod of a record, with just what counting its claims reads: identity and claims. */
  public static Pod pod(final String namespace, final String name, final PodState state) {
    final ObjectMeta meta = new ObjectMeta();
    meta.setNamespace(namespace);
    meta.setName(name);
    meta.setUid(state.getUid());
    final PodSpec spec = new PodSpec();
    spec.setResourceClaims(
        map(
            state.getResourceClaims(),
            entry -> {
              final PodResourceClaim claim = new PodResourceClaim();
              claim.setName(entry.getName());
              claim.setResourceClaimName(entry.getResourceClaimName().orElse(null));
              claim.setResourceClaimTemplateName(entry.getResourceClaimTemplateName().orElse(null));
              return claim;
            }));
    final PodStatus status = new PodStatus();
    status.setResourceClaimStatuses(
        map(
            state.getResourceClaimStatuses(),
            entry -> {
              final PodResourceClaimStatus claim = new PodResourceClaimStatus();
              claim.setName(entry.getName());
              claim.setResourceClaimName(entry.getResourceClaimName().orElse(null));
              return claim;
            }));
    final Pod pod = new Pod();
    pod.setMetadata(meta);
    pod.setSpec(spec);
    pod.setStatus(status);
    return pod;
  }

  /** The DeviceClass of a record. */
  public static DeviceClass deviceClass(final String name, final DeviceClassState state) {
    final DeviceClassSpec spec = new DeviceClassSpec();
    spec.setSelectors(
        map(
            state.getSelectors(),
            expression -> {
              final DeviceSelector selector = new DeviceSelector();
              selector.setCel(new CELDeviceSelector(expression));
              return selector;
            }));
    final DeviceClass deviceClass = new DeviceClass();
    deviceClass.setMetadata(meta("", name));
    deviceClass.setSpec(spec);
    return deviceClass;
  }

  /** The ResourceClaim of a record. */
  public static ResourceClaim resourceClaim(
      final String namespace, final String name, final ResourceClaimState state) {
    final ResourceClaimStatus status = new ResourceClaimStatus();
    state
        .getAllocation()
        .ifPresent(
            results -> {
              final DeviceAllocationResult devices = new DeviceAllocationResult();
              devices.setResults(map(results, DraRecords::result));
              final AllocationResult allocation = new AllocationResult();
              allocation.setDevices(devices);
              status.setAllocation(allocation);
            });
    status.setReservedFor(
        map(
            state.getReservedFor(),
            consumer -> {
              final ResourceClaimConsumerReference reference = new ResourceClaimConsumerReference();
              reference.setApiGroup(consumer.getApiGroup());
              reference.setResource(consumer.getResource());
              reference.setName(consumer.getName());
              reference.setUid(consumer.getUid());
              return reference;
            }));
    final ResourceClaim claim = new ResourceClaim();
    claim.setMetadata(meta(namespace, name));
    claim.setSpec(spec(state.getRequests()));
    claim.setStatus(status);
    return claim;
  }

  /** The ResourceClaimTemplate of a record. */
  public static ResourceClaimTemplate resourceClaimTemplate(
      final String namespace, final String name, final ResourceClaimTemplateState state) {
    final ResourceClaimTemplateSpec spec = new ResourceClaimTemplateSpec();
    spec.setSpec(spec(state.getRequests()));
    final ResourceClaimTemplate template = new ResourceClaimTemplate();
    template.setMetadata(meta(namespace, name));
    template.setSpec(spec);
    return template;
  }

  /** The ResourceSlice of a record. */
  public static ResourceSlice resourceSlice(final String name, final ResourceSliceState state) {
    final ResourceSliceSpec spec = new ResourceSliceSpec();
    spec.setDriver(state.getDriver());
    final ResourcePool pool = new ResourcePool();
    pool.setName(state.getPool());
    pool.setGeneration(state.getGeneration());
    spec.setPool(pool);
    if (!state.getNodeName().isEmpty()) {
      spec.setNodeName(state.getNodeName());
    }
    spec.setDevices(
        map(
            state.getDevices(),
            published -> {
              final Device device = new Device();
              device.setName(published.getName());
              final Map<String, DeviceCapacity> capacity = new LinkedHashMap<>();
              published
                  .getCapacity()
                  .forEach(
                      (capacityName, value) -> {
                        final DeviceCapacity one = new DeviceCapacity();
                        one.setValue(new Quantity(value));
                        capacity.put(capacityName, one);
                      });
              device.setCapacity(capacity);
              return device;
            }));
    final ResourceSlice slice = new ResourceSlice();
    slice.setMetadata(meta("", name));
    slice.setSpec(spec);
    return slice;
  }

  private static List<DeviceRequest> requests(final ResourceClaimSpec spec) {
    final DeviceClaim devices = spec == null ? null : spec.getDevices();
    final List<DeviceRequest> requests = new ArrayList<>();
    if (devices == null || devices.getRequests() == null) {
      return requests;
    }
    for (final io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest request :
        devices.getRequests()) {
      final List<ExactDeviceRequest> firstAvailable = new ArrayList<>();
      if (request.getFirstAvailable() != null) {
        for (final DeviceSubRequest sub : request.getFirstAvailable()) {
          firstAvailable.add(
              ExactDeviceRequest.newBuilder()
                  .setName(text(sub.getName()))
                  .setDeviceClassName(text(sub.getDeviceClassName()))
                  .setAllocationMode(sub.getAllocationMode())
                  .setCount(sub.getCount())
                  .build());
        }
      }
      final io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest exactly =
          request.getExactly();
      requests.add(
          DeviceRequest.newBuilder()
              .setName(text(request.getName()))
              .setExactly(
                  exactly == null
                      ? null
                      : ExactDeviceRequest.newBuilder()
                          .setDeviceClassName(text(exactly.getDeviceClassName()))
                          .setAllocationMode(exactly.getAllocationMode())
                          .setCount(exactly.getCount())
                          .setAdminAccess(Boolean.TRUE.equals(exactly.getAdminAccess()))
                          .build())
              .setFirstAvailable(firstAvailable)
              .build());
    }
    return requests;
  }

  private static List<AllocatedDevice> allocated(final ResourceClaimStatus status) {
    if (status == null
        || status.getAllocation() == null
        || status.getAllocation().getDevices() == null
        || status.getAllocation().getDevices().getResults() == null) {
      return null;
    }
    final List<AllocatedDevice> results = new ArrayList<>();
    for (final DeviceRequestAllocationResult result :
        status.getAllocation().getDevices().getResults()) {
      final Map<String, String> consumed = new LinkedHashMap<>();
      if (result.getConsumedCapacity() != null) {
        result
            .getConsumedCapacity()
            .forEach(
                (name, quantity) -> {
                  if (quantity != null) {
                    consumed.put(name, quantity.toString());
                  }
                });
      }
      results.add(
          AllocatedDevice.newBuilder()
              .setRequest(text(result.getRequest()))
              .setDriver(text(result.getDriver()))
              .setPool(text(result.getPool()))
              .setDevice(text(result.getDevice()))
              .setAdminAccess(Boolean.TRUE.equals(result.getAdminAccess()))
              .setConsumedCapacity(consumed)
              .build());
    }
    return results;
  }

  private static DeviceRequestAllocationResult result(final AllocatedDevice device) {
    final DeviceRequestAllocationResult result = new DeviceRequestAllocationResult();
    result.setRequest(device.getRequest());
    result.setDriver(device.getDriver());
    result.setPool(device.getPool());
    result.setDevice(device.getDevice());
    result.setAdminAccess(device.getAdminAccess() ? Boolean.TRUE : null);
    if (!device.getConsumedCapacity().isEmpty()) {
      final Map<String, Quantity> consumed = new LinkedHashMap<>();
      device
          .getConsumedCapacity()
          .forEach((name, value) -> consumed.put(name, new Quantity(value)));
      result.setConsumedCapacity(consumed);
    }
    return result;
  }

  private static ResourceClaimSpec spec(final List<DeviceRequest> requests) {
    final DeviceClaim devices = new DeviceClaim();
    devices.setRequests(
        map(
            requests,
            request -> {
              final io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest made =
                  new io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest();
              made.setName(request.getName());
              request.getExactly().ifPresent(exactly -> made.setExactly(exact(exactly)));
              if (!request.getFirstAvailable().isEmpty()) {
                made.setFirstAvailable(map(request.getFirstAvailable(), DraRecords::sub));
              }
              return made;
            }));
    final ResourceClaimSpec spec = new ResourceClaimSpec();
    spec.setDevices(devices);
    return spec;
  }

  private static io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest exact(
      final ExactDeviceRequest request) {
    final io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest exact =
        new io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest();
    exact.setDeviceClassName(request.getDeviceClassName());
    exact.setAllocationMode(request.getAllocationMode().orElse(null));
    exact.setCount(request.getCount().orElse(null));
    exact.setAdminAccess(request.getAdminAccess() ? Boolean.TRUE : null);
    return exact;
  }

  private static DeviceSubRequest sub(final ExactDeviceRequest request) {
    final DeviceSubRequest sub = new DeviceSubRequest();
    sub.setName(request.getName());
    sub.setDeviceClassName(request.getDeviceClassName());
    sub.setAllocationMode(request.getAllocationMode().orElse(null));
    sub.setCount(request.getCount().orElse(null));
    return sub;
  }

  private static ObjectMeta meta(final String namespace, final String name) {
    final ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    if (!namespace.isEmpty()) {
      meta.setNamespace(namespace);
    }
    return meta;
  }

  private static <A, B> List<B> map(final List<A> items, final Function<A, B> each) {
    final List<B> mapped = new ArrayList<>(items.size());
    items.forEach(item -> mapped.add(each.apply(item)));
    return mapped;
  }

  private static String text(final String value) {
    return value == null ? "" : value;
  }
}
