package io.quotaflow.simulate;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.dra.ClaimedDevices;
import io.quotaflow.dra.DeviceCharge;
import io.quotaflow.dra.DeviceClassMappings;
import io.quotaflow.dra.DeviceSupply;
import io.quotaflow.dra.DraObjects;
import io.quotaflow.kube.ElasticQuotaAdapter;
import io.quotaflow.kube.ElasticQuotaProfileAdapter;
import io.quotaflow.kube.ElasticQuotaProfileApi;
import io.quotaflow.kube.NodeAdapter;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.kube.PodGroupAdapter;
import io.quotaflow.kube.PodGroupApi;
import io.quotaflow.kube.PodGroupKey;
import io.quotaflow.kube.PodGroupMembership;
import io.quotaflow.kube.PodGroupObject;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.quota.NamespaceSelector;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ReservationSpec;
import io.quotaflow.quota.SpecProblem;
import io.quotaflow.tree.ClusterInputs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Turns manifests into the quota core's inputs, deciding what is bad input.
 *
 * <p>The line is drawn where a Kubernetes API server would draw it: what it would reject (a
 * quantity that does not parse in a pod's resources, a node's allocatable or an ElasticQuota's
 * spec; a missing name; the same object twice) cannot be simulated and is bad input. What it would
 * accept (labels and annotations, whatever they hold; min above max; a missing parent) is a quota
 * configuration the engine must cope with: the group is marked invalid and the tree is still
 * computed (SPEC 9).
 */
final class ManifestInputs {

  private static final String ANNOTATIONS = "metadata.annotations";
  private static final String LABELS = "metadata.labels";

  private ManifestInputs() {}

  /**
   * @param warnings receives one line per tolerated problem (an unreadable label or annotation),
   *     naming the file, document, object and field
   */
  static ClusterInputs toClusterInputs(List<Manifest> manifests, Consumer<String> warnings)
      throws BadInputException {
    return toClusterInputs(manifests, DeviceClassMappings.defaults(), warnings);
  }

  /**
   * @param deviceClasses what the devices of each DeviceClass count as (semantics.md section 22)
   * @param warnings receives one line per tolerated problem (an unreadable label or annotation, a
   *     claim whose devices are not charged), naming the file, document, object and field
   */
  static ClusterInputs toClusterInputs(
      List<Manifest> manifests, DeviceClassMappings deviceClasses, Consumer<String> warnings)
      throws BadInputException {
    final List<QuotaGroup> groups = new ArrayList<>();
    final List<ReadPod> readPods = new ArrayList<>();
    final DraManifests dra = new DraManifests();
    final List<QuotaNode> nodes = new ArrayList<>();
    final List<PodGroupObject> podGroups = new ArrayList<>();
    final Map<String, Map<String, String>> namespaceLabels = new HashMap<>();
    final Map<String, Manifest> seen = new HashMap<>();
    for (final Manifest manifest : manifests) {
      if (manifest.object() instanceof Namespace namespace) {
        final String name = namespace.getMetadata().getName();
        if (name == null || name.isEmpty()) {
          throw BadInputException.inField(manifest, "metadata.name", "a Namespace needs a name");
        }
        unique(seen, manifest, "Namespace " + name, "namespace " + name);
        final Map<String, String> labels = namespace.getMetadata().getLabels();
        namespaceLabels.put(name, labels == null ? Map.of() : labels);
      } else if (manifest.object() instanceof Pod pod) {
        final QuotaPod quotaPod = PodAdapter.toQuotaPod(pod);
        // A pod's labels and annotations (its gang's) are accepted by the API server: warnings.
        rejectProblems(manifest, quotaPod.problems(), true, warnings);
        unique(seen, manifest, "Pod " + quotaPod.ref(), quotaPod.ref().toString());
        readPods.add(new ReadPod(manifest, pod, quotaPod));
      } else if (dra.accepts(manifest)) {
        dra.add(manifest, seen);
      } else if (manifest.object() instanceof Node node) {
        final QuotaNode quotaNode = NodeAdapter.toQuotaNode(node);
        rejectProblems(manifest, quotaNode.problems(), false, warnings);
        unique(seen, manifest, "Node " + quotaNode.name(), quotaNode.name());
        nodes.add(quotaNode);
      } else if (manifest.object() instanceof GenericKubernetesResource resource
          && isPodGroup(resource)) {
        final PodGroupObject podGroup = PodGroupAdapter.toPodGroup(resource);
        if (podGroup.name().isEmpty()) {
          throw BadInputException.inField(manifest, "metadata.name", "a PodGroup needs a name");
        }
        // Its CRD's schema makes the API server refuse a minMember that is not a whole number.
        rejectProblems(manifest, podGroup.problems(), false, warnings);
        final String key = podGroup.namespace() + "/" + podGroup.name();
        unique(seen, manifest, "PodGroup " + key, podGroup.convention() + " " + key);
        podGroups.add(podGroup);
      } else if (manifest.object() instanceof GenericKubernetesResource quota
          && !isProfile(quota)) {
        final QuotaGroup group = ElasticQuotaAdapter.toQuotaGroup(quota);
        rejectProblems(manifest, group.problems(), true, warnings);
        // An unreadable reservation is reported on the group too, as invalid: here a warning.
        for (final SpecProblem problem :
            group.reservation().map(ReservationSpec::problems).orElse(List.of())) {
          warnings.accept(
              manifest.location()
                  + " ("
                  + manifest.describe()
                  + "): "
                  + problem
                  + "; the reservation locks nothing");
        }
        // Group names are unique per cluster: the namespace is not part of a group's identity.
        unique(seen, manifest, "ElasticQuota " + group.name(), group.name());
        groups.add(group);
      }
    }
    final List<QuotaPod> pods =
        withClaimedDevices(readPods, dra.objects(), deviceClasses, warnings);
    // Devices published in ResourceSlices count toward the total (semantics.md section 22.8).
    final DeviceSupply supply = DeviceSupply.of(dra.objects(), deviceClasses);
    supply.problems().forEach(problem -> warnings.accept("ResourceSlices: " + problem));
    return new ClusterInputs(
        selected(groups, namespaceLabels), withPodGroups(pods, podGroups), supply.nodes(nodes));
  }

  /** A pod as read by PodAdapter, kept with its object until the DRA objects are all known. */
  private record ReadPod(Manifest manifest, Pod pod, QuotaPod read) {}

  /**
   * The pods with the devices of their claims added (semantics.md section 22). A claim that charges
   * nothing (an unknown template or device class) is a warning: the API server accepts it, and the
   * pod then waits unscheduled.
   */
  private static List<QuotaPod> withClaimedDevices(
      List<ReadPod> readPods,
      DraObjects objects,
      DeviceClassMappings deviceClasses,
      Consumer<String> warnings) {
    final ClaimedDevices claimed = new ClaimedDevices(deviceClasses);
    final List<QuotaPod> pods = new ArrayList<>(readPods.size());
    for (final ReadPod readPod : readPods) {
      final DeviceCharge charge = claimed.charge(readPod.pod(), objects);
      for (final SpecProblem problem : charge.problems()) {
        warnings.accept(
            readPod.manifest().location() + " (" + readPod.manifest().describe() + "): " + problem);
      }
      pods.add(ClaimedDevices.withCharge(readPod.read(), charge));
    }
    return pods;
  }

  /**
   * The pods with the minMember of their gang's PodGroup where the pod alone does not tell it
   * ({@link PodGroupMembership}, the rule the connectors apply on clusters too).
   */
  private static List<QuotaPod> withPodGroups(List<QuotaPod> pods, List<PodGroupObject> podGroups) {
    if (podGroups.isEmpty()) {
      return pods;
    }
    final Map<PodGroupKey, PodGroupObject> byKey = new HashMap<>();
    for (final PodGroupObject podGroup : podGroups) {
      byKey.put(PodGroupKey.of(podGroup), podGroup);
    }
    final List<QuotaPod> result = new ArrayList<>(pods.size());
    for (final QuotaPod pod : pods) {
      result.add(PodGroupMembership.withMinMember(pod, key -> Optional.ofNullable(byKey.get(key))));
    }
    return result;
  }

  /**
   * The groups with the namespaces their namespace selector picks among the Namespace manifests (as
   * the connectors resolve it from the cluster's namespaces): a namespace without a manifest has no
   * labels known here, so no selector picks it.
   */
  private static List<QuotaGroup> selected(
      List<QuotaGroup> groups, Map<String, Map<String, String>> namespaceLabels) {
    final List<QuotaGroup> resolved = new ArrayList<>(groups.size());
    for (final QuotaGroup group : groups) {
      if (group.namespaceSelector().isEmpty()) {
        resolved.add(group);
        continue;
      }
      final NamespaceSelector selector = group.namespaceSelector().get();
      final List<String> selected =
          namespaceLabels.entrySet().stream()
              .filter(namespace -> selector.matches(namespace.getValue()))
              .map(Map.Entry::getKey)
              .sorted()
              .toList();
      resolved.add(group.toBuilder().selectedNamespaces(selected).build());
    }
    return resolved;
  }

  /**
   * The ElasticQuotaProfiles among {@code manifests}. A profile's unreadable field is a warning
   * here: the engine reports it on the tree's root group, which is computed as invalid.
   */
  static List<QuotaProfile> profiles(List<Manifest> manifests, Consumer<String> warnings)
      throws BadInputException {
    final List<QuotaProfile> profiles = new ArrayList<>();
    final Map<String, Manifest> seen = new HashMap<>();
    for (final Manifest manifest : manifests) {
      if (manifest.object() instanceof GenericKubernetesResource resource && isProfile(resource)) {
        final QuotaProfile profile = ElasticQuotaProfileAdapter.toQuotaProfile(resource);
        if (profile.name().isEmpty()) {
          throw BadInputException.inField(
              manifest, "metadata.name", "an ElasticQuotaProfile needs a name");
        }
        for (final SpecProblem problem : profile.problems()) {
          warnings.accept(
              manifest.location()
                  + " ("
                  + manifest.describe()
                  + "): "
                  + problem
                  + "; the tree's root is invalid");
        }
        unique(seen, manifest, "ElasticQuotaProfile " + profile.name(), profile.name());
        profiles.add(profile);
      }
    }
    return profiles;
  }

  private static boolean isPodGroup(GenericKubernetesResource resource) {
    return PodGroupApi.isPodGroup(resource.getApiVersion(), resource.getKind());
  }

  private static boolean isProfile(GenericKubernetesResource resource) {
    return ElasticQuotaProfileApi.isProfile(resource.getApiVersion(), resource.getKind());
  }

  static void rejectProblems(
      Manifest manifest,
      List<SpecProblem> problems,
      boolean annotationsAreConfiguration,
      Consumer<String> warnings)
      throws BadInputException {
    for (final SpecProblem problem : problems) {
      final boolean configuration =
          problem.field().startsWith(ANNOTATIONS) || problem.field().startsWith(LABELS);
      if (!(annotationsAreConfiguration && configuration)) {
        throw BadInputException.inField(manifest, problem.field(), problem.reason());
      }
      warnings.accept(
          manifest.location()
              + " ("
              + manifest.describe()
              + "): "
              + problem
              + "; the field is ignored");
    }
  }

  static void unique(Map<String, Manifest> seen, Manifest manifest, String what, String name)
      throws BadInputException {
    final String key = manifest.object().getKind() + "/" + name;
    final Manifest earlier = seen.putIfAbsent(key, manifest);
    if (earlier != null) {
      throw BadInputException.inField(
          manifest,
          "metadata.name",
          what + " is defined twice (first at " + earlier.location() + ")");
    }
  }
}
