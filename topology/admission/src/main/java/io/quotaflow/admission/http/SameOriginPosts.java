package io.quotaflow.admission.http;

import io.quotaflow.admission.endpoint.Answer;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * The guard against cross-site requests on people's POSTs (the sign-in, the what-if; issue 39): a
 * page of another site can make a browser POST a form ({@code text/plain}, {@code
 * application/x-www-form-urlencoded}) without asking, and sign its user in as the attacker. So a
 * POST to {@code /api/} must say {@code Content-Type: application/json}, which a cross-site page
 * cannot send without a CORS preflight this server never grants (415 otherwise), and an {@code
 * Origin} a browser sends must be this server's own (403 otherwise). A POST without {@code Origin}
 * is a program's (curl, kubectl, another instance), and passes unless the session cookie is all
 * that signs it in: browsers send {@code Origin} with every POST.
 */
final class SameOriginPosts {

  private SameOriginPosts() {}

  /**
   * Why the request may not be answered; empty when it may.
   *
   * @param host the request's {@code Host} (its authority), null when absent
   * @param byCookie whether the session cookie, not an {@code Authorization} header, signs it in
   */
  static Optional<Answer> refusal(
      String method,
      String path,
      String contentType,
      String origin,
      String host,
      boolean byCookie) {
    if (!"POST".equals(method) || !path.startsWith("/api/")) {
      return Optional.empty();
    }
    if (!json(contentType)) {
      return Optional.of(
          Answer.error(
              415,
              "a POST to /api/ must send Content-Type: application/json (got "
                  + (contentType == null ? "none" : contentType)
                  + ")",
              "bad-content-type"));
    }
    if (origin == null) {
      return byCookie
          ? Optional.of(
              Answer.error(
                  403,
                  "a POST signed in by the session cookie must carry its page's Origin",
                  "cross-origin"))
          : Optional.empty();
    }
    if (host == null || !host.equalsIgnoreCase(authority(origin))) {
      return Optional.of(
          Answer.error(
              403,
              "a POST from a page of another origin ("
                  + origin
                  + ") is refused: the web view posts from its own",
              "cross-origin"));
    }
    return Optional.empty();
  }

  private static boolean json(String contentType) {
    if (contentType == null) {
      return false;
    }
    final int semicolon = contentType.indexOf(';');
    final String type = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
    return type.trim().toLowerCase(Locale.ROOT).equals("application/json");
  }

  /** The host and port of an origin; empty for {@code null} or anything that does not parse. */
  private static String authority(String origin) {
    try {
      final String authority = URI.create(origin.trim()).getRawAuthority();
      return authority == null ? "" : authority;
    } catch (IllegalArgumentException e) {
      return "";
    }
  }
}
