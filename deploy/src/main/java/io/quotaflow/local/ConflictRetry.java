package io.quotaflow.local;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes an object that another writer may write at the same time, as client-go's {@code
 * retry.RetryOnConflict} does.
 *
 * <p>A replace carries the resourceVersion it read. When another writer (the connectors' status
 * writer patching an ElasticQuota, say) writes in between, the API server answers 409 Conflict; so
 * does a create that lost a race with another create. Each attempt therefore reads the object again
 * and writes on that read. Other failures are not retried.
 */
final class ConflictRetry {

  /**
   * Attempts before a conflict is given up: each lost race means another writer wrote in the
   * milliseconds between a read and a write, so ten in a row means a writer that never stops.
   */
  static final int ATTEMPTS = 10;

  private static final Logger LOG = LoggerFactory.getLogger(ConflictRetry.class);

  private ConflictRetry() {}

  /**
   * Runs {@code attempt}, which reads the object and writes on that read, until it does not meet a
   * conflict.
   *
   * @param what the object, for the log and the error
   * @throws KubernetesClientException the last conflict after {@link #ATTEMPTS}, or any other error
   */
  static <T> T write(final String what, final Supplier<T> attempt) {
    for (int tried = 1; ; tried++) {
      try {
        return attempt.get();
      } catch (final KubernetesClientException e) {
        if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || tried >= ATTEMPTS) {
          throw e;
        }
        LOG.debug("{} was written by another writer meanwhile ({}); reading it again", what, e);
      }
    }
  }
}
