package io.quotaflow.simulate;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.quotaflow.dra.DraObjects;
import io.quotaflow.dra.SliceDevices;
import io.quotaflow.quota.SpecProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The DRA objects among the manifests (semantics.md section 22), gathered for {@link DraObjects}.
 * What the API server would refuse is bad input: a missing name, the same object twice, a device
 * capacity that is not a quantity.
 */
final class DraManifests {

  private final List<DeviceClass> classes = new ArrayList<>();
  private final List<ResourceClaim> claims = new ArrayList<>();
  private final List<ResourceClaimTemplate> templates = new ArrayList<>();
  private final List<SliceDevices> slices = new ArrayList<>();

  boolean accepts(Manifest manifest) {
    return manifest.object() instanceof DeviceClass
        || manifest.object() instanceof ResourceClaim
        || manifest.object() instanceof ResourceClaimTemplate
        || manifest.object() instanceof ResourceSlice;
  }

  void add(Manifest manifest, Map<String, Manifest> seen) throws BadInputException {
    final String kind = manifest.object().getKind();
    final String name = manifest.object().getMetadata().getName();
    if (name == null || name.isEmpty()) {
      throw BadInputException.inField(manifest, "metadata.name", "a " + kind + " needs a name");
    }
    final String namespace = manifest.object().getMetadata().getNamespace();
    final String key =
        manifest.object() instanceof DeviceClass || manifest.object() instanceof ResourceSlice
            ? name
            : (namespace == null || namespace.isEmpty() ? "default" : namespace) + "/" + name;
    ManifestInputs.unique(seen, manifest, kind + " " + key, key);
    if (manifest.object() instanceof DeviceClass deviceClass) {
      classes.add(deviceClass);
    } else if (manifest.object() instanceof ResourceClaim claim) {
      claims.add(claim);
    } else if (manifest.object() instanceof ResourceClaimTemplate template) {
      templates.add(template);
    } else if (manifest.object() instanceof ResourceSlice slice) {
      final List<SpecProblem> problems = new ArrayList<>();
      final SliceDevices devices = SliceDevices.read(slice, problems);
      // A capacity that is not a quantity: the API server refuses the slice.
      ManifestInputs.rejectProblems(manifest, problems, false, line -> {});
      slices.add(devices);
    }
  }

  DraObjects objects() {
    return DraObjects.of(classes, claims, templates, slices);
  }
}
