package io.quotaflow.admission.http.auth;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The gate of the people's doors (query API, web view, its stream, the what-if): who a request's
 * bearer token is (issue 25). The token comes from the {@code Authorization: Bearer} header (as
 * kubectl, curl and proxies such as oauth2-proxy send it) or from the web view's session cookie.
 * Off ({@link #NONE}), every request sees everything, as before.
 */
public final class ApiAuth {

  /** The session cookie the web view's sign-in sets. */
  public static final String COOKIE = "quotaflow-token";

  /**
   * The longest token asked about by default, in bytes: a browser keeps at most 4096 bytes in a
   * cookie, and Kubernetes' service-account tokens are about 1 KB.
   */
  public static final int DEFAULT_MAX_TOKEN_BYTES = 4096;

  /** Authentication off: every caller sees everything. */
  public static final ApiAuth NONE = new ApiAuth(null, DEFAULT_MAX_TOKEN_BYTES, false);

  private final Access access;
  private final int maxTokenBytes;
  private final boolean namesakeBinds;

  private ApiAuth(Access access, int maxTokenBytes, boolean namesakeBinds) {
    if (maxTokenBytes < 1) {
      throw new IllegalArgumentException("maxTokenBytes must be at least 1: " + maxTokenBytes);
    }
    this.access = access;
    this.maxTokenBytes = maxTokenBytes;
    this.namesakeBinds = namesakeBinds;
  }

  /**
   * Callers authenticated and authorised by {@code access}; the namespace named like a group grants
   * no view of it (issue 39), see {@link #withNamesakeBinds}.
   */
  public static ApiAuth with(Access access) {
    return with(access, DEFAULT_MAX_TOKEN_BYTES);
  }

  /**
   * Callers authenticated and authorised by {@code access}; a token longer than {@code
   * maxTokenBytes} is not valid, and never sent to the API server (issue 39).
   */
  public static ApiAuth with(Access access, int maxTokenBytes) {
    return new ApiAuth(access, maxTokenBytes, false);
  }

  /**
   * This gate, the namespace named like a group granting view of it when {@code value}: as the
   * engine's {@code quota.namespace.binding.namesake} binds it to the group's labels.
   */
  public ApiAuth withNamesakeBinds(boolean value) {
    return access == null ? this : new ApiAuth(access, maxTokenBytes, value);
  }

  /** Whether callers must present a token. */
  public boolean enabled() {
    return access != null;
  }

  /** The viewer of {@code token}; empty when authentication is on and the token is not valid. */
  public Optional<Viewer> viewer(Optional<String> token) {
    if (access == null) {
      return Optional.of(Viewer.EVERYONE);
    }
    return token
        .filter(this::shortEnough)
        .flatMap(access::authenticate)
        .map(user -> Viewer.of(user, access, namesakeBinds));
  }

  private boolean shortEnough(String token) {
    // Checked on the characters first: a huge token is never encoded.
    return token.length() <= maxTokenBytes
        && token.getBytes(StandardCharsets.UTF_8).length <= maxTokenBytes;
  }

  /** The bearer token of a request with these headers (either may be null). */
  public static Optional<String> token(String authorization, String cookies) {
    if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      final String token = authorization.substring(7).trim();
      return token.isEmpty() ? Optional.empty() : Optional.of(token);
    }
    if (cookies != null) {
      for (final String cookie : cookies.split(";")) {
        final String trimmed = cookie.trim();
        if (trimmed.startsWith(COOKIE + "=") && trimmed.length() > COOKIE.length() + 1) {
          return Optional.of(trimmed.substring(COOKIE.length() + 1));
        }
      }
    }
    return Optional.empty();
  }
}
