package io.quotaflow.admission.endpoint;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;

/**
 * One HTTP answer of the plugin, before it is written.
 *
 * @param status the HTTP status
 * @param contentType the content type of {@code body}
 * @param body the body
 * @param outcome what happened, for the request metrics (allowed, denied, bad-request, ...)
 * @param headers extra headers
 */
public record Answer(
    int status, String contentType, byte[] body, String outcome, Map<String, String> headers) {

  public static final String JSON = "application/json";
  static final String TEXT = "text/plain; charset=utf-8";

  /** Requires every part. */
  public Answer {
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(outcome, "outcome");
    headers = Map.copyOf(headers);
  }

  public static Answer json(int status, JsonNode body, String outcome) {
    return new Answer(status, JSON, Json.bytes(body), outcome, Map.of());
  }

  public static Answer json(int status, byte[] body, String outcome) {
    return new Answer(status, JSON, body, outcome, Map.of());
  }

  public static Answer text(int status, String body, String outcome) {
    return new Answer(status, TEXT, body.getBytes(StandardCharsets.UTF_8), outcome, Map.of());
  }

  /** A JSON error {@code {"error": message}}, with the status as outcome unless given. */
  public static Answer error(int status, String message, String outcome) {
    return json(status, Json.object().put("status", status).put("error", message), outcome);
  }

  public Answer withHeader(String name, String value) {
    final java.util.HashMap<String, String> all = new java.util.HashMap<>(headers);
    all.put(name, value);
    return new Answer(status, contentType, body, outcome, all);
  }

  public Answer withOutcome(String value) {
    return new Answer(status, contentType, body, value, headers);
  }
}
