package io.quotaflow.admission.http;

import io.quotaflow.admission.http.auth.Viewer;
import io.quotaflow.admission.http.limits.BodyLimits;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.VisibleClusterView;
import java.util.Objects;
import java.util.Optional;

/**
 * One HTTP request as the plugin sees it.
 *
 * @param method the HTTP method
 * @param path the path, without the query
 * @param query the raw query string; empty when none
 * @param body the body, at most its door's limit ({@link BodyLimits})
 * @param forwarded whether another instance forwarded it (it is then never forwarded again); with
 *     client certificates required, only a peer's mark counts
 * @param trust what the caller may do at the webhooks and the scheduler filter: its client
 *     certificate, or the plugin's listening on loopback, decides ({@link CallerPolicy})
 * @param viewer what the caller may see of the clusters (people's doors); everything when
 *     authentication is off
 * @param token the caller's bearer token, passed on when the call is forwarded
 */
public record Call(
    String method,
    String path,
    String query,
    byte[] body,
    boolean forwarded,
    CallerPolicy.Trust trust,
    Viewer viewer,
    Optional<String> token) {

  /** A call whose caller is trusted and sees everything (authentication off). */
  public Call(String method, String path, String query, byte[] body, boolean forwarded) {
    this(
        method,
        path,
        query,
        body,
        forwarded,
        CallerPolicy.Trust.TRUSTED,
        Viewer.EVERYONE,
        Optional.empty());
  }

  /** {@code view} as this call's viewer may see it. */
  ClusterView visible(ClusterView view) {
    return viewer == Viewer.EVERYONE || viewer.seesAll()
        ? view
        : new VisibleClusterView(view, viewer);
  }

  /** Header marking a request forwarded by another instance. */
  public static final String FORWARDED_HEADER = "X-Quotaflow-Forwarded";

  public Call {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(trust, "trust");
    Objects.requireNonNull(viewer, "viewer");
    Objects.requireNonNull(token, "token");
  }

  /** The path and query, as sent. */
  public String target() {
    return query.isEmpty() ? path : path + "?" + query;
  }
}
