package io.quotaflow.admission.machine;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.filter.FilteringParserDelegate;
import com.fasterxml.jackson.core.filter.TokenFilter;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.machine.pods.PodReviews;
import io.quotaflow.kube.QuotaLabels;
import java.util.Map;
import java.util.Set;

/**
 * What of a review the checks never read, left out as it is parsed (issue 40.14): a review may be
 * 3.5 MiB ({@link PluginConfig#MAX_REVIEW_BODY_BYTES}), and reading all of it into fabric8's model
 * for each of 64 concurrent requests would hold hundreds of MiB. Left out of each Kubernetes object
 * a review carries: {@code metadata.managedFields} and every annotation but those quotaflow reads
 * (kubectl's last applied configuration alone may be as large as the object), and for an
 * ElasticQuota its {@code status}. Skipped tokens are never decoded: Jackson steps over them. The
 * pod webhook reads its review with {@link PodReviews}, which keeps even less.
 */
public final class UnreadFields {

  /** The annotations of an ElasticQuota that {@code ElasticQuotaAdapter} reads. */
  public static final Set<String> QUOTA_ANNOTATIONS =
      Set.of(
          QuotaLabels.SHARED_WEIGHT,
          QuotaLabels.NAMESPACES,
          QuotaLabels.ALLOW_FORCE_UPDATE,
          QuotaLabels.MAX_STRICT_CHECK_RESOURCE_KEYS,
          QuotaLabels.LENDING_LIMIT,
          QuotaLabels.BORROWING_LIMIT,
          QuotaLabels.RESERVATION,
          QuotaLabels.NAMESPACE_SELECTOR);

  private static final TokenFilter QUOTA = object(QUOTA_ANNOTATIONS, Set.of("status"));

  /** An ElasticQuota {@code AdmissionReview}: its {@code request.object} and {@code oldObject}. */
  public static final TokenFilter QUOTA_REVIEW =
      new Fields(
          Map.of("request", new Fields(Map.of("object", QUOTA, "oldObject", QUOTA), Set.of())),
          Set.of());

  /**
   * kube-scheduler's {@code ExtenderArgs}: its {@code Pod} (whose status is kept: the claims' names
   * are there).
   */
  public static final TokenFilter EXTENDER_ARGS =
      new Fields(Map.of("Pod", object(PodReviews.GANG_ANNOTATIONS, Set.of())), Set.of());

  private UnreadFields() {}

  /** {@code parser} without what {@code filter} leaves out. */
  public static JsonParser filtered(JsonParser parser, TokenFilter filter) {
    return new FilteringParserDelegate(
        parser, filter, TokenFilter.Inclusion.INCLUDE_ALL_AND_PATH, true);
  }

  /**
   * A Kubernetes object keeping the annotations {@code kept}, without the fields {@code dropped}.
   */
  private static TokenFilter object(Set<String> kept, Set<String> dropped) {
    return new Fields(
        Map.of(
            "metadata", new Fields(Map.of("annotations", new Only(kept)), Set.of("managedFields"))),
        dropped);
  }

  /**
   * An object whose fields are kept whole but for {@code nested}, filtered by their own filter, and
   * {@code dropped}, left out.
   */
  private static final class Fields extends TokenFilter {
    private final Map<String, TokenFilter> nested;
    private final Set<String> dropped;

    Fields(Map<String, TokenFilter> nested, Set<String> dropped) {
      this.nested = nested;
      this.dropped = dropped;
    }

    @Override
    public TokenFilter includeProperty(String name) {
      if (dropped.contains(name)) {
        return null;
      }
      final TokenFilter filter = nested.get(name);
      return filter != null ? filter : TokenFilter.INCLUDE_ALL;
    }

    // An object or array whose every field is left out is still there, empty (not absent).
    @Override
    public boolean includeEmptyObject(boolean contentsFiltered) {
      return true;
    }

    @Override
    public boolean includeEmptyArray(boolean contentsFiltered) {
      return true;
    }
  }

  /** An object keeping only the fields {@code kept}. */
  private static final class Only extends TokenFilter {
    private final Set<String> kept;

    Only(Set<String> kept) {
      this.kept = kept;
    }

    @Override
    public TokenFilter includeProperty(String name) {
      return kept.contains(name) ? TokenFilter.INCLUDE_ALL : null;
    }

    @Override
    public boolean includeEmptyObject(boolean contentsFiltered) {
      return true;
    }

    @Override
    public boolean includeEmptyArray(boolean contentsFiltered) {
      return true;
    }
  }
}
