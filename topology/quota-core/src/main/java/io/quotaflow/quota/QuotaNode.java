package io.quotaflow.quota;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the engine reads of one node: its allocatable resources count toward the cluster total (SPEC
 * 3) unless it is being deleted (or, when so configured, not ready or not schedulable).
 *
 * @param name the node name
 * @param allocatable status.allocatable in canonical units
 * @param ready the Ready condition is True
 * @param schedulable spec.unschedulable is not true
 * @param deleting metadata.deletionTimestamp is set
 * @param problems fields that could not be read
 * @param labels metadata.labels: what an ElasticQuotaProfile's node selector matches
 */
public record QuotaNode(
    String name,
    ResourceList allocatable,
    boolean ready,
    boolean schedulable,
    boolean deleting,
    List<SpecProblem> problems,
    Map<String, String> labels) {

  public QuotaNode {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(allocatable, "allocatable");
    problems = List.copyOf(problems);
    labels = Map.copyOf(labels);
  }

  /** A node without labels. */
  public QuotaNode(
      String name,
      ResourceList allocatable,
      boolean ready,
      boolean schedulable,
      boolean deleting,
      List<SpecProblem> problems) {
    this(name, allocatable, ready, schedulable, deleting, problems, Map.of());
  }

  /** A ready, schedulable node that is not being deleted. */
  public static QuotaNode healthy(String name, ResourceList allocatable) {
    return new QuotaNode(name, allocatable, true, true, false, List.of());
  }
}
