package io.quotaflow.dra;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The DRA objects of one cluster a pod's claims are read against: DeviceClasses by name,
 * ResourceClaims and ResourceClaimTemplates by namespace and name, and the devices the
 * ResourceSlices publish. A later object of the same key replaces an earlier one. Immutable.
 */
public final class DraObjects {

  private static final DraObjects EMPTY =
      new DraObjects(Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), List.of());

  private final Map<String, DeviceClass> classes;
  private final Map<Named, ResourceClaim> claims;
  private final Map<Named, ResourceClaimTemplate> templates;
  private final Map<DeviceId, PublishedDevice> devices;
  private final Map<String, List<List<PublishedDevice>>> poolsByDriver;
  private final List<SliceDevices> slices;

  private DraObjects(
      Map<String, DeviceClass> classes,
      Map<Named, ResourceClaim> claims,
      Map<Named, ResourceClaimTemplate> templates,
      Map<DeviceId, PublishedDevice> devices,
      Map<String, List<List<PublishedDevice>>> poolsByDriver,
      List<SliceDevices> slices) {
    this.classes = classes;
    this.claims = claims;
    this.templates = templates;
    this.devices = devices;
    this.poolsByDriver = poolsByDriver;
    this.slices = slices;
  }

  /** No DRA objects: a cluster without DRA. */
  public static DraObjects empty() {
    return EMPTY;
  }

  public static DraObjects of(
      Collection<DeviceClass> classes,
      Collection<ResourceClaim> claims,
      Collection<ResourceClaimTemplate> templates,
      Collection<SliceDevices> slices) {
    final Map<String, DeviceClass> classByName = new HashMap<>();
    classes.forEach(c -> classByName.put(name(c), c));
    final Map<Named, ResourceClaim> claimByRef = new HashMap<>();
    claims.forEach(c -> claimByRef.put(ref(c), c));
    final Map<Named, ResourceClaimTemplate> templateByRef = new HashMap<>();
    templates.forEach(t -> templateByRef.put(ref(t), t));
    final Map<DeviceId, PublishedDevice> deviceById = new HashMap<>();
    // A pool may be published in several slices: its devices are gathered by driver and pool,
    // once each (a pool being republished lists a device in an old and a new slice for a while).
    final Map<String, Map<String, Map<String, PublishedDevice>>> pools = new HashMap<>();
    for (final SliceDevices slice : slices) {
      for (final PublishedDevice device : slice.devices()) {
        deviceById.put(device.id(), device);
        pools
            .computeIfAbsent(slice.driver(), d -> new HashMap<>())
            .computeIfAbsent(slice.pool(), p -> new LinkedHashMap<>())
            .put(device.id().device(), device);
      }
    }
    final Map<String, List<List<PublishedDevice>>> poolsByDriver = new HashMap<>();
    pools.forEach(
        (driver, byPool) ->
            poolsByDriver.put(
                driver,
                byPool.values().stream().map(devices -> List.copyOf(devices.values())).toList()));
    return new DraObjects(
        Map.copyOf(classByName),
        Map.copyOf(claimByRef),
        Map.copyOf(templateByRef),
        Map.copyOf(deviceById),
        Map.copyOf(poolsByDriver),
        List.copyOf(slices));
  }

  public Optional<DeviceClass> deviceClass(String name) {
    return Optional.ofNullable(classes.get(name));
  }

  public Optional<ResourceClaim> claim(String namespace, String name) {
    return Optional.ofNullable(claims.get(new Named(namespace, name)));
  }

  public Optional<ResourceClaimTemplate> template(String namespace, String name) {
    return Optional.ofNullable(templates.get(new Named(namespace, name)));
  }

  public Optional<PublishedDevice> device(DeviceId id) {
    return Optional.ofNullable(devices.get(id));
  }

  /** The pools of {@code driver}, each the list of its devices; empty when none is published. */
  public List<List<PublishedDevice>> pools(String driver) {
    return poolsByDriver.getOrDefault(driver, List.of());
  }

  /** The slices as given, in order: what the cluster total counts (section 22.8). */
  public List<SliceDevices> slices() {
    return slices;
  }

  /** A namespaced object's key. */
  private record Named(String namespace, String name) {}

  private static String name(HasMetadata object) {
    return object.getMetadata() == null || object.getMetadata().getName() == null
        ? ""
        : object.getMetadata().getName();
  }

  private static Named ref(HasMetadata object) {
    final String namespace =
        object.getMetadata() == null || object.getMetadata().getNamespace() == null
            ? "default"
            : object.getMetadata().getNamespace();
    return new Named(namespace, name(object));
  }
}
