package io.quotaflow.admission.people.view;

import java.util.Map;

/**
 * The headers of everything the web view serves. It sits on the admission port, so it allows only
 * its own scripts, styles and requests ({@code 'self'}, no inline code), may not be framed, and
 * tells browsers not to guess content types nor send the page's address elsewhere.
 */
public final class SecurityHeaders {

  /** The Content-Security-Policy. */
  public static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';"
          + " img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  /** Every header, by name. */
  public static final Map<String, String> ALL =
      Map.of(
          "Content-Security-Policy", CONTENT_SECURITY_POLICY,
          "X-Content-Type-Options", "nosniff",
          "X-Frame-Options", "DENY",
          "Referrer-Policy", "no-referrer",
          "Cross-Origin-Opener-Policy", "same-origin",
          "Cross-Origin-Resource-Policy", "same-origin");

  private SecurityHeaders() {}
}
