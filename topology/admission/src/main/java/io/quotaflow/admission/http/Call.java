package io.quotaflow.admission.http;

import java.util.Objects;

/**
 * One HTTP request as the plugin sees it.
 *
 * @param method the HTTP method
 * @param path the path, without the query
 * @param query the raw query string; empty when none
 * @param body the body, at most {@link PluginConfig#MAX_BODY_BYTES}
 * @param forwarded whether another instance forwarded it (it is then never forwarded again); with
 *     client certificates required, only a peer's mark counts
 * @param certified whether the caller presented a client certificate the callers' CA (or this
 *     plugin's bundle) verified; always true while client certificates are not required
 */
record Call(
    String method, String path, String query, byte[] body, boolean forwarded, boolean certified) {

  /** A call whose caller needs no certificate (client certificates not required). */
  Call(String method, String path, String query, byte[] body, boolean forwarded) {
    this(method, path, query, body, forwarded, true);
  }

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
