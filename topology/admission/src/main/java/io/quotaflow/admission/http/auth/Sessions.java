package io.quotaflow.admission.http.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.endpoint.Json;
import java.util.Optional;

/**
 * {@code /api/v1/session}: the web view's sign-in (issue 25). A browser cannot put a bearer token
 * on its event stream, so the page posts the token once; it is checked with the API server and kept
 * in an HttpOnly, SameSite=Strict cookie that the browser sends with every request of the page.
 * {@code GET} says who is signed in, {@code DELETE} signs out.
 */
public final class Sessions {

  public static final String PATH = "/api/v1/session";

  /** How long the cookie lives; the token is checked again with every request anyway. */
  private static final int MAX_AGE_SECONDS = 8 * 3600;

  private Sessions() {}

  public static Answer answer(
      String method, byte[] body, Optional<String> token, ApiAuth auth, boolean secure) {
    switch (method) {
      case "GET":
        return who(auth.viewer(token));
      case "DELETE":
        return Answer.json(200, Json.object(), "ok")
            .withHeader("Set-Cookie", cookie("", 0, secure));
      case "POST":
        final Optional<String> posted = posted(body);
        if (posted.isEmpty()) {
          return Answer.error(400, "expected {\"token\": \"...\"}", "bad-request");
        }
        final Answer answer = who(auth.viewer(posted));
        return answer.status() == 200
            ? answer.withHeader("Set-Cookie", cookie(posted.get(), MAX_AGE_SECONDS, secure))
            : answer;
      default:
        return Answer.error(405, method + " is not allowed here", "bad-method")
            .withHeader("Allow", "GET, POST, DELETE");
    }
  }

  private static Answer who(Optional<Viewer> viewer) {
    if (viewer.isEmpty()) {
      return Answer.error(
          401, "the token is not valid: the API server did not authenticate it", "unauthenticated");
    }
    final ObjectNode body = Json.object();
    body.put("auth", viewer.get().user().isPresent());
    body.put("user", viewer.get().user().map(user -> user.name()).orElse(""));
    body.put("seesAll", viewer.get().seesAll());
    body.put("mayEditQuotas", viewer.get().mayEditQuotas());
    return Answer.json(200, body, "ok");
  }

  private static Optional<String> posted(byte[] body) {
    try {
      final JsonNode json = Json.MAPPER.readTree(body);
      final String token = json == null ? "" : json.path("token").asText("").trim();
      // A token travels in a cookie: only the characters tokens are made of.
      return token.isEmpty() || !token.matches("[A-Za-z0-9._~+/=-]+")
          ? Optional.empty()
          : Optional.of(token);
    } catch (java.io.IOException e) {
      return Optional.empty();
    }
  }

  private static String cookie(String value, int maxAge, boolean secure) {
    return ApiAuth.COOKIE
        + "="
        + value
        + "; Path=/; HttpOnly; SameSite=Strict; Max-Age="
        + maxAge
        + (secure ? "; Secure" : "");
  }
}
