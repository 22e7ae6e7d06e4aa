package io.quotaflow.kube;

import io.quotaflow.quota.SpecProblem;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A PodGroup object as quotaflow reads it: the minMember of the gang of its name in its namespace,
 * for the pods of its convention.
 *
 * @param namespace metadata.namespace ({@code default} when not set)
 * @param name metadata.name, the gang's name
 * @param convention {@link GangConventions#SCHEDULER_PLUGINS} or {@link GangConventions#VOLCANO}
 * @param minMember spec.minMember; empty when not set, 0, or unreadable
 * @param problems fields that could not be read
 */
public record PodGroupObject(
    String namespace,
    String name,
    String convention,
    OptionalInt minMember,
    List<SpecProblem> problems) {

  public PodGroupObject {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(convention, "convention");
    Objects.requireNonNull(minMember, "minMember");
    problems = List.copyOf(problems);
  }
}
