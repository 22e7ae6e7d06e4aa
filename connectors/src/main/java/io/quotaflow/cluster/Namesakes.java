package io.quotaflow.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.quotaflow.quota.SpecialQuotaNamespaces;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which of several objects sharing one name stands for it, when a kind is identified by name alone
 * whatever its namespace (ElasticQuotas and ElasticQuotaProfiles, as Koordinator reads them). The
 * first created wins (then the first namespace alphabetically, for objects created in the same
 * second): a namesake created later, by a tenant or by mistake, never shadows a group that exists
 * (issue 24). The quota webhook refuses new namesakes; this decides for those that exist anyway. An
 * ElasticQuota named like a special group outside the special namespaces never wins the name (issue
 * 39 point 5, {@link SpecialQuotaNamespaces}): the webhook is not called for every namespace, nor
 * before it is installed.
 */
public final class Namesakes {

  /** Oldest first; an object without a readable creation time last; then by namespace. */
  public static final Comparator<HasMetadata> FIRST_CREATED =
      Comparator.comparing(Namesakes::created)
          .thenComparing(object -> String.valueOf(object.getMetadata().getNamespace()));

  private Namesakes() {}

  /** The object that stands for the name among {@code objects} (all of one name). */
  public static <T extends HasMetadata> Optional<T> winner(final Collection<T> objects) {
    return objects.stream().min(FIRST_CREATED);
  }

  /**
   * The ElasticQuota that stands for the name among {@code objects} (all of one name): the first
   * created among those {@code special} lets define it; none when a special group's objects are all
   * outside the special namespaces.
   */
  public static <T extends HasMetadata> Optional<T> winner(
      final Collection<T> objects, final SpecialQuotaNamespaces special) {
    return objects.stream()
        .filter(
            object ->
                special.mayDefine(
                    object.getMetadata().getName(),
                    String.valueOf(object.getMetadata().getNamespace())))
        .min(FIRST_CREATED);
  }

  /** The namespaces of the objects that {@link #winner} ignores, sorted. */
  public static List<String> ignored(final Collection<? extends HasMetadata> objects) {
    return others(objects, winner(objects));
  }

  /**
   * The namespaces of the ElasticQuotas that {@link #winner(Collection, SpecialQuotaNamespaces)}
   * ignores, sorted: the later namesakes and a special group's objects outside the special
   * namespaces.
   */
  public static List<String> ignored(
      final Collection<? extends HasMetadata> objects, final SpecialQuotaNamespaces special) {
    return others(objects, winner(objects, special));
  }

  private static List<String> others(
      final Collection<? extends HasMetadata> objects,
      final Optional<? extends HasMetadata> winner) {
    return objects.stream()
        .filter(object -> object != winner.orElse(null))
        .map(object -> String.valueOf(object.getMetadata().getNamespace()))
        .sorted()
        .toList();
  }

  private static Instant created(final HasMetadata object) {
    final String text = object.getMetadata().getCreationTimestamp();
    if (text == null || text.isEmpty()) {
      return Instant.MAX;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      return Instant.MAX;
    }
  }
}
