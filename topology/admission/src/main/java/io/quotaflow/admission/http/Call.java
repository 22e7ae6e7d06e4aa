package io.quotaflow.admission.http;

import java.util.Objects;

/**
 * One HTTP request as the plugin sees it.
 *
 * @param method the HTTP method
 * @param path the path, without the query
 * @param query the raw query string; empty when none
 * @param body the body, at most {@link PluginConfig#MAX_BODY_BYTES}
 * @param forwarded whether another instance forwarded it (it is then never forwarded again)
 */
record Call(String method, String path, String query, byte[] body, boolean forwarded) {

  /** Header marking a request forwarded by another instance. */
  static final String FORWARDED_HEADER = "X-Quotaflow-Forwarded";

  Call {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(body, "body");
  }

  /** The path and query, as sent. */
  String target() {
    return query.isEmpty() ? path : path + "?" + query;
  }
}
