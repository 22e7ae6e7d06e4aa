package io.quotaflow.kube;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecProblem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a Kubernetes {@link Pod} as a {@link QuotaPod}. Pure: no I/O, no clock.
 *
 * <p>The effective request is computed as the kube-scheduler computes it (SPEC 3): per dimension,
 * the larger of the sum of the containers and the largest init container, plus the pod overhead. A
 * container's request for a dimension defaults to its limit when only the limit is set, as the API
 * server defaults it. Sidecars (init containers with {@code restartPolicy: Always}) run beside the
 * containers, so they add to the sum and to every later init container; without sidecars this is
 * exactly the SPEC's formula. Pod-level {@code spec.resources} replaces the containers' aggregate
 * for the dimensions it sets.
 *
 * <p>A quantity that cannot be read becomes a {@link SpecProblem} naming the field, and that
 * dimension is left out of the request (a partial sum would understate it).
 *
 * <p>The pod's gang is read by {@link GangConventions}; its problems are the pod's.
 */
public final class PodAdapter {

  private static final String RESTART_ALWAYS = "Always";

  private PodAdapter() {}

  public static QuotaPod toQuotaPod(Pod pod) {
    final List<SpecProblem> problems = new ArrayList<>();
    final ObjectMeta meta = pod.getMetadata() == null ? new ObjectMeta() : pod.getMetadata();
    final PodSpec spec = pod.getSpec() == null ? new PodSpec() : pod.getSpec();
    final PodStatus status = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
    final Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
    final Map<String, String> annotations =
        meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();

    final String name = meta.getName() == null ? "" : meta.getName();
    if (name.isEmpty()) {
      problems.add(new SpecProblem("metadata.name", "a pod needs a name"));
    }
    final String namespace =
        meta.getNamespace() == null || meta.getNamespace().isEmpty()
            ? "default"
            : meta.getNamespace();

    final QuotaPod.Builder builder =
        QuotaPod.builder(namespace, name)
            .uid(meta.getUid() == null ? "" : meta.getUid())
            .phase(phase(status.getPhase()))
            .priority(spec.getPriority() == null ? 0 : spec.getPriority())
            .request(effectiveRequest(spec, problems))
            .preemptible(!"false".equals(labels.get(QuotaLabels.PREEMPTIBLE)))
            .creationTime(
                Timestamps.read(meta.getCreationTimestamp(), "metadata.creationTimestamp", problems)
                    .orElse(Instant.EPOCH));
    nonEmpty(labels.get(QuotaLabels.QUOTA_NAME)).ifPresent(builder::quotaName);
    nonEmpty(spec.getNodeName()).ifPresent(builder::nodeName);
    Timestamps.read(status.getStartTime(), "status.startTime", problems)
        .ifPresent(builder::startTime);
    Timestamps.read(meta.getDeletionTimestamp(), "metadata.deletionTimestamp", problems)
        .ifPresent(builder::deletionTime);
    GangConventions.read(labels, annotations, problems).ifPresent(builder::gang);
    return builder.problems(problems).build();
  }

  private static ResourceList effectiveRequest(PodSpec spec, List<SpecProblem> problems) {
    final Set<String> unreadable = new HashSet<>();

    ResourceList containers = ResourceList.empty();
    final List<Container> regular = orEmpty(spec.getContainers());
    for (int i = 0; i < regular.size(); i++) {
      containers =
          containers.plus(
              requests(regular.get(i), "spec.containers[" + i + "]", problems, unreadable));
    }

    // Init containers run one after another, each beside the sidecars started before it.
    ResourceList sidecars = ResourceList.empty();
    ResourceList largestInit = ResourceList.empty();
    final List<Container> init = orEmpty(spec.getInitContainers());
    for (int i = 0; i < init.size(); i++) {
      final Container container = init.get(i);
      final ResourceList own =
          requests(container, "spec.initContainers[" + i + "]", problems, unreadable);
      final ResourceList whileRunning;
      if (RESTART_ALWAYS.equals(container.getRestartPolicy())) {
        containers = containers.plus(own);
        sidecars = sidecars.plus(own);
        whileRunning = sidecars;
      } else {
        whileRunning = own.plus(sidecars);
      }
      largestInit = max(largestInit, whileRunning);
    }
    ResourceList request = max(containers, largestInit);

    final ResourceList podLevel =
        requests(spec.getResources(), "spec.resources", problems, unreadable);
    for (final String resource : podLevel.names()) {
      request = request.with(resource, podLevel.get(resource));
    }

    final ResourceReading overhead =
        ResourceReading.read(spec.getOverhead(), "spec.overhead", problems);
    unreadable.addAll(overhead.unreadable());
    request = request.plus(overhead.values());

    return request.only(without(request.names(), unreadable));
  }

  /** A container's requests, each missing request defaulted to the limit of the same dimension. */
  private static ResourceList requests(
      Container container, String field, List<SpecProblem> problems, Set<String> unreadable) {
    return requests(container.getResources(), field + ".resources", problems, unreadable);
  }

  private static ResourceList requests(
      ResourceRequirements resources,
      String field,
      List<SpecProblem> problems,
      Set<String> unreadable) {
    if (resources == null) {
      return ResourceList.empty();
    }
    final ResourceReading requests =
        ResourceReading.read(resources.getRequests(), field + ".requests", problems);
    final ResourceReading limits =
        ResourceReading.read(resources.getLimits(), field + ".limits", problems);
    ResourceList result = requests.values();
    for (final String resource : limits.values().names()) {
      if (!requests.values().contains(resource) && !requests.unreadable().contains(resource)) {
        result = result.with(resource, limits.values().get(resource));
      }
    }
    unreadable.addAll(requests.unreadable());
    for (final String resource : limits.unreadable()) {
      // An unreadable limit only matters where it would have been the request.
      if (!requests.values().contains(resource)) {
        unreadable.add(resource);
      }
    }
    return result;
  }

  private static ResourceList max(ResourceList a, ResourceList b) {
    ResourceList result = a;
    for (final String resource : b.names()) {
      if (!a.contains(resource) || b.get(resource) > a.get(resource)) {
        result = result.with(resource, b.get(resource));
      }
    }
    return result;
  }

  private static Set<String> without(Set<String> names, Set<String> removed) {
    final Set<String> kept = new HashSet<>(names);
    kept.removeAll(removed);
    return kept;
  }

  private static PodPhase phase(String phase) {
    if (phase == null || phase.isEmpty()) {
      // A pod the kubelet has not reported on yet is pending.
      return PodPhase.PENDING;
    }
    return switch (phase) {
      case "Pending" -> PodPhase.PENDING;
      case "Running" -> PodPhase.RUNNING;
      case "Succeeded" -> PodPhase.SUCCEEDED;
      case "Failed" -> PodPhase.FAILED;
      default -> PodPhase.UNKNOWN;
    };
  }

  private static Optional<String> nonEmpty(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
