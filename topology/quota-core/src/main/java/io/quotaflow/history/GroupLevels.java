package io.quotaflow.history;

import io.quotaflow.quota.ResourceList;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A group's levels from one of its runtime records, in force until the next: request, used, runtime
 * and min per resource, in canonical units. {@link #NONE} stands for a group that does not exist.
 */
public record GroupLevels(
    ResourceList request, ResourceList used, ResourceList runtime, ResourceList min) {

  /** No group: every level zero. */
  public static final GroupLevels NONE =
      new GroupLevels(
          ResourceList.empty(), ResourceList.empty(), ResourceList.empty(), ResourceList.empty());

  public GroupLevels {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(used, "used");
    Objects.requireNonNull(runtime, "runtime");
    Objects.requireNonNull(min, "min");
  }

  /** Every resource any level names, sorted. */
  public Set<String> resources() {
    final Set<String> names = new TreeSet<>(request.names());
    names.addAll(used.names());
    names.addAll(runtime.names());
    names.addAll(min.names());
    return names;
  }

  /** The level of {@code metric} in {@code resource}; 0 where not named. */
  public long level(HistoryMetric metric, String resource) {
    return switch (metric) {
      case REQUEST -> request.get(resource);
      case USED -> used.get(resource);
      case RUNTIME -> runtime.get(resource);
      case MIN -> min.get(resource);
      case BORROWED ->
          Math.max(0, ResourceList.saturatedSubtract(used.get(resource), min.get(resource)));
      case LENT ->
          Math.max(0, ResourceList.saturatedSubtract(min.get(resource), runtime.get(resource)));
    };
  }
}
