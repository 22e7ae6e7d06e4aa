package io.quotaflow.eviction;

import io.quotaflow.quota.QuotaPod;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Pods quotaflow never evicts, whatever an eviction command says or a group's over-use asks: pods
 * in protected namespaces (the cluster's own and quotaflow's), and pods of protected priority
 * classes (the cluster-critical and node-critical ones). The engine never chooses them as victims;
 * the executor refuses a command for one (outcome {@code PROTECTED}), so that neither a bug nor
 * anyone who can write to the commands topic can turn quotaflow against them.
 *
 * <p>The engine knows a pod's priority, not its class's name, so it protects by priority:
 * Kubernetes reserves priorities above 1,000,000,000 to its system classes ({@value
 * #SYSTEM_PRIORITY_FLOOR} and up), which no user-defined class can reach. The executor reads the
 * pod and checks both.
 *
 * <p>The default group ({@code koordinator-default-quota}) collects the pods no group claims, which
 * are often the cluster's own services: it gets no victims unless {@code defaultGroupReclaimed}
 * says so (engine setting {@code reclaim.default.group.enabled}).
 *
 * @param namespaces namespaces whose pods are never evicted
 * @param priorityClasses priority class names whose pods are never evicted (executor)
 * @param defaultGroupReclaimed whether reclaim may choose victims in the default group
 */
public record ProtectedPods(
    Set<String> namespaces, Set<String> priorityClasses, boolean defaultGroupReclaimed) {

  /** The lowest priority of Kubernetes' system priority classes (system-cluster-critical). */
  public static final int SYSTEM_PRIORITY_FLOOR = 2_000_000_000;

  /**
   * The default protected namespaces: Kubernetes' own, quotaflow's (the manifests'), and those of
   * what quotaflow runs on or beside: Kafka and Strimzi (usual namespaces of the quickstart and the
   * operator), cert-manager, Koordinator and monitoring (issue 39).
   */
  public static final String DEFAULT_NAMESPACE_LIST =
      "kube-system,quotaflow,kafka,strimzi,strimzi-system,cert-manager,koordinator-system,"
          + "monitoring";

  /** {@link #DEFAULT_NAMESPACE_LIST} as a set. */
  public static final Set<String> DEFAULT_NAMESPACES = Set.of(DEFAULT_NAMESPACE_LIST.split(","));

  /** The default protected priority classes: Kubernetes' system classes. */
  public static final Set<String> DEFAULT_PRIORITY_CLASSES =
      Set.of("system-cluster-critical", "system-node-critical");

  public static final ProtectedPods DEFAULTS =
      new ProtectedPods(DEFAULT_NAMESPACES, DEFAULT_PRIORITY_CLASSES);

  /** Protected namespaces and priority classes; the default group not reclaimed. */
  public ProtectedPods(final Set<String> namespaces, final Set<String> priorityClasses) {
    this(namespaces, priorityClasses, false);
  }

  /** Copies the sets. */
  public ProtectedPods {
    namespaces = Set.copyOf(new TreeSet<>(Objects.requireNonNull(namespaces, "namespaces")));
    priorityClasses =
        Set.copyOf(new TreeSet<>(Objects.requireNonNull(priorityClasses, "priorityClasses")));
  }

  /** These protections, with reclaim in the default group turned on or off. */
  public ProtectedPods withDefaultGroupReclaimed(final boolean value) {
    return new ProtectedPods(namespaces, priorityClasses, value);
  }

  /** Whether the engine must never choose {@code pod} as a victim. */
  public boolean protects(final QuotaPod pod) {
    return namespaces.contains(pod.ref().namespace()) || pod.priority() >= SYSTEM_PRIORITY_FLOOR;
  }

  /**
   * Why a pod must not be evicted, for people; empty when it may be.
   *
   * @param namespace the pod's namespace
   * @param priorityClassName the pod's {@code spec.priorityClassName}, if any
   * @param priority the pod's {@code spec.priority}, if set
   */
  public Optional<String> reason(
      final String namespace,
      final Optional<String> priorityClassName,
      final Optional<Integer> priority) {
    if (namespaces.contains(namespace)) {
      return Optional.of("namespace " + namespace + " is protected");
    }
    if (priorityClassName.filter(priorityClasses::contains).isPresent()) {
      return Optional.of("priority class " + priorityClassName.get() + " is protected");
    }
    if (priority.filter(value -> value >= SYSTEM_PRIORITY_FLOOR).isPresent()) {
      return Optional.of("priority " + priority.get() + " is a system priority");
    }
    return Optional.empty();
  }
}
