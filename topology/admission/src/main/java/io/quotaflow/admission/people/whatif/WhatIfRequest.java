package io.quotaflow.admission.people.whatif;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code POST /api/v1/clusters/{cluster}/what-if}, as read from JSON
 * (docs/admission.md, What-if). Quantities are Kubernetes quantity strings ({@code "500m"}, {@code
 * "4Gi"}, {@code "2"}); a JSON number is read as its decimal text.
 *
 * @param groups edits of groups' min, max or shared weight; may be null (none)
 * @param pods pending pods to add; may be null (none)
 */
public record WhatIfRequest(
    @JsonProperty("groups") List<GroupEdit> groups, @JsonProperty("pods") List<AddedPods> pods) {

  /**
   * New amounts for some resources of one group; each named resource replaces that resource's
   * amount, resources not named keep theirs.
   *
   * @param name the group
   * @param min resources of spec.min to set; may be null
   * @param max resources of spec.max to set; may be null
   * @param sharedWeight resources of the shared weight to set; may be null
   */
  public record GroupEdit(
      @JsonProperty("name") String name,
      @JsonProperty("min") Map<String, String> min,
      @JsonProperty("max") Map<String, String> max,
      @JsonProperty("sharedWeight") Map<String, String> sharedWeight) {}

  /**
   * {@code count} pending pods, each requesting {@code requests}, labelled for {@code group}.
   *
   * @param group the leaf group they are charged to
   * @param requests what each pod requests
   * @param count how many such pods; null means 1
   */
  public record AddedPods(
      @JsonProperty("group") String group,
      @JsonProperty("requests") Map<String, String> requests,
      @JsonProperty("count") Integer count) {}
}
