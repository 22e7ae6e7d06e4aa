package io.quotaflow.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.cluster.TokenBucket;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a group's status to its ElasticQuota in one cluster, where that cluster's CRD keeps it:
 * through the {@code status} subresource when the CRD has one, else (Koordinator's CRD) with the
 * object itself, annotations and {@code status.used} in one merge patch, as Koordinator's scheduler
 * writes them. Which one is asked of discovery at start ({@link #discover()}) and again when the
 * subresource answers 404, in case the CRD was replaced meanwhile. Every request takes a token of
 * the cluster's bucket. Used by the writer's thread only.
 */
final class QuotaPatcher {

  /** Part tags of the patches counter. */
  static final String ANNOTATIONS = "annotations";

  static final String STATUS = "status";

  private static final Logger LOG = LoggerFactory.getLogger(QuotaPatcher.class);

  /**
   * The field manager of every write, so that the API server's {@code managedFields} tell the
   * writer's fields from another writer's ({@link StatusConflicts}).
   */
  static final String FIELD_MANAGER = "quotaflow-status-writer";

  private static final PatchContext MERGE = merge();

  private final KubeCluster cluster;
  private final ClusterQuotas quotas;
  private final TokenBucket bucket;
  private StatusSubresource subresource = StatusSubresource.UNKNOWN;

  QuotaPatcher(final KubeCluster cluster, final ClusterQuotas quotas, final TokenBucket bucket) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.quotas = Objects.requireNonNull(quotas, "quotas");
    this.bucket = Objects.requireNonNull(bucket, "bucket");
  }

  /** Asks discovery whether the CRD has a status subresource; logs what changed. */
  StatusSubresource discover() {
    final StatusSubresource found = StatusSubresource.discover(cluster.client());
    if (found != subresource) {
      switch (found) {
        case PRESENT ->
            LOG.info("cluster {}: ElasticQuotas have a status subresource; writing it", cluster);
        case ABSENT ->
            LOG.info(
                "cluster {}: the ElasticQuota CRD has no status subresource (as Koordinator's);"
                    + " writing status.used with the object",
                cluster);
        case UNKNOWN ->
            LOG.warn(
                "cluster {}: discovery does not list ElasticQuotas; trying the status subresource",
                cluster);
      }
    }
    subresource = found;
    return found;
  }

  /** What discovery said last. */
  StatusSubresource subresource() {
    return subresource;
  }

  /**
   * What one write did.
   *
   * @param parts the parts written, one entry per patch and part ({@link #ANNOTATIONS}, {@link
   *     #STATUS})
   * @param after the object as the API server answered the last patch
   * @param firstVersion the resource version the first patch made: when another writer changed the
   *     object between two patches, {@code after} shows its change, not the first patch's
   */
  record Written(List<String> parts, GenericKubernetesResource after, String firstVersion) {}

  /**
   * Writes the annotations and {@code status.used}, or one of them.
   *
   * @return the parts written and the object after them
   * @throws KubernetesClientException when a request fails; 404 when the object is gone
   * @throws InterruptedException when stopped while waiting for a token
   */
  Written write(
      final GenericKubernetesResource quota,
      final QuotaStatus status,
      final StatusMode mode,
      final boolean annotations,
      final boolean used)
      throws InterruptedException {
    final List<String> written = new ArrayList<>();
    if (subresource == StatusSubresource.ABSENT) {
      bucket.acquire();
      final GenericKubernetesResource after =
          quotas.resource(quota).patch(MERGE, status.objectPatch(quota, mode, annotations, used));
      if (annotations) {
        written.add(ANNOTATIONS);
      }
      if (used) {
        written.add(STATUS);
      }
      return new Written(written, after, after.getMetadata().getResourceVersion());
    }
    GenericKubernetesResource after = quota;
    String firstVersion = null;
    if (annotations) {
      bucket.acquire();
      after = quotas.resource(quota).patch(MERGE, status.annotationsPatch(quota, mode));
      firstVersion = after.getMetadata().getResourceVersion();
      written.add(ANNOTATIONS);
    }
    if (used) {
      bucket.acquire();
      try {
        after = quotas.resource(quota).subresource("status").patch(MERGE, status.usedPatch(quota));
      } catch (KubernetesClientException e) {
        // A 404 is a missing object, or a CRD without the subresource: discovery tells which.
        if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND
            || discover() != StatusSubresource.ABSENT) {
          throw e;
        }
        bucket.acquire();
        after = quotas.resource(quota).patch(MERGE, status.objectPatch(quota, mode, false, true));
      }
      written.add(STATUS);
    }
    return new Written(
        written,
        after,
        firstVersion == null ? after.getMetadata().getResourceVersion() : firstVersion);
  }

  private static PatchContext merge() {
    final PatchContext context = PatchContext.of(PatchType.JSON_MERGE);
    context.setFieldManager(FIELD_MANAGER);
    return context;
  }
}
