package io.quotaflow.quota;

import java.util.Objects;

/**
 * A field of a source object that could not be read, e.g. a quantity that does not parse or a
 * shared-weight annotation that is not JSON. The object is still taken in (the engine must know the
 * group exists, SPEC 9) and the problem travels with it.
 *
 * @param field the path of the field, e.g. {@code spec.min.cpu} or {@code
 *     metadata.annotations[quota.scheduling.koordinator.sh/shared-weight]}
 * @param reason what is wrong with it, for people
 */
public record SpecProblem(String field, String reason) {
  public SpecProblem {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(reason, "reason");
  }

  @Override
  public String toString() {
    return field + ": " + reason;
  }
}
