package io.quotaflow.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.quotaflow.quota.SpecProblem;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Reads a PodGroup of either API ({@link PodGroupApi}) as a {@link PodGroupObject}. Pure; never
 * throws. Only {@code spec.minMember} is read: a missing one or 0 (both APIs accept either: no gang
 * constraint) declares no minMember; a value that is not a whole number from 0 to 2^31-1 is a
 * problem and declares none either.
 */
public final class PodGroupAdapter {

  private static final String MIN_MEMBER = "spec.minMember";

  private PodGroupAdapter() {}

  /**
   * @throws IllegalArgumentException when {@code resource} is not a PodGroup ({@link
   *     PodGroupApi#isPodGroup})
   */
  public static PodGroupObject toPodGroup(GenericKubernetesResource resource) {
    final String convention =
        PodGroupApi.convention(resource.getApiVersion(), resource.getKind())
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "not a PodGroup: " + resource.getApiVersion() + " " + resource.getKind()));
    final ObjectMeta meta =
        resource.getMetadata() == null ? new ObjectMeta() : resource.getMetadata();
    final List<SpecProblem> problems = new ArrayList<>();
    final Object spec = resource.getAdditionalProperties().get("spec");
    final Object minMember = spec instanceof Map<?, ?> map ? map.get("minMember") : null;
    return new PodGroupObject(
        meta.getNamespace() == null || meta.getNamespace().isEmpty()
            ? "default"
            : meta.getNamespace(),
        meta.getName() == null ? "" : meta.getName(),
        convention,
        minMember(minMember, problems),
        problems);
  }

  private static OptionalInt minMember(Object value, List<SpecProblem> problems) {
    if (value == null) {
      return OptionalInt.empty();
    }
    final BigInteger whole = wholeNumber(value);
    if (whole == null
        || whole.signum() < 0
        || whole.compareTo(BigInteger.valueOf(Integer.MAX_VALUE)) > 0) {
      problems.add(
          new SpecProblem(MIN_MEMBER, "\"" + value + "\" is not a whole number from 0 to 2^31-1"));
      return OptionalInt.empty();
    }
    return whole.signum() == 0 ? OptionalInt.empty() : OptionalInt.of(whole.intValueExact());
  }

  /** The whole number a JSON number holds; null for anything else (text included, as the API). */
  private static BigInteger wholeNumber(Object value) {
    if (value instanceof Integer || value instanceof Long || value instanceof BigInteger) {
      return new BigInteger(value.toString());
    }
    if (value instanceof Double || value instanceof Float) {
      return wholeNumber(new BigDecimal(value.toString()));
    }
    if (value instanceof BigDecimal decimal) {
      try {
        return decimal.toBigIntegerExact();
      } catch (ArithmeticException e) {
        return null;
      }
    }
    return null;
  }
}
