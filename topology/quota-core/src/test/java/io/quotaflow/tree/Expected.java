package io.quotaflow.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.ResourceList;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * One number a computed tree must show, as a row of a specification table: {@code runtimeIs("a",
 * CPU, 10)} reads "a's runtime in cpu is 10".
 */
public record Expected(String what, ToLongFunction<TreeSnapshot> actual, long amount) {

  public static Expected runtimeIs(String group, String dimension, long amount) {
    return of(group, "runtime", GroupStatus::runtime, dimension, amount);
  }

  public static Expected requestIs(String group, String dimension, long amount) {
    return of(group, "request", GroupStatus::request, dimension, amount);
  }

  public static Expected limitedRequestIs(String group, String dimension, long amount) {
    return of(group, "limitedRequest", GroupStatus::limitedRequest, dimension, amount);
  }

  public static Expected usedIs(String group, String dimension, long amount) {
    return of(group, "used", GroupStatus::used, dimension, amount);
  }

  public static Expected minIs(String group, String dimension, long amount) {
    return of(group, "min", GroupStatus::min, dimension, amount);
  }

  public static Expected scaledMinIs(String group, String dimension, long amount) {
    return of(group, "scaledMin", GroupStatus::scaledMin, dimension, amount);
  }

  public static Expected sharedWeightIs(String group, String dimension, long amount) {
    return of(group, "sharedWeight", GroupStatus::sharedWeight, dimension, amount);
  }

  /** The cluster's total in one dimension. */
  public static Expected totalIs(String dimension, long amount) {
    return new Expected("total " + dimension, snapshot -> snapshot.total().get(dimension), amount);
  }

  private static Expected of(
      String group,
      String field,
      Function<GroupStatus, ResourceList> resources,
      String dimension,
      long amount) {
    return new Expected(
        group + "." + field + "[" + dimension + "]",
        snapshot -> resources.apply(Fixtures.status(snapshot, group)).get(dimension),
        amount);
  }

  /** Fails naming the group, field and dimension when the snapshot shows another number. */
  public void verify(TreeSnapshot snapshot) {
    assertThat(actual.applyAsLong(snapshot)).as(what).isEqualTo(amount);
  }

  @Override
  public String toString() {
    return what + " = " + amount;
  }
}
