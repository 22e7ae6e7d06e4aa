package io.quotaflow.admission.machine;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.filter.TokenFilter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.endpoint.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the API server's {@code AdmissionReview} (admission.k8s.io/v1) and writes the answer, with
 * fabric8's admission model. Only v1 is spoken: configure the webhooks with {@code
 * admissionReviewVersions: ["v1"]}.
 */
public final class AdmissionReviews {

  public static final String API_VERSION = "admission.k8s.io/v1";
  public static final String KIND = "AdmissionReview";
  public static final Set<String> OPERATIONS = Set.of("CREATE", "UPDATE", "DELETE", "CONNECT");

  private AdmissionReviews() {}

  /** The request of a review, read whole, checked for what every webhook needs. */
  public static AdmissionRequest parse(byte[] body) throws BadRequestException {
    return parse(body, null);
  }

  /**
   * The request of a review without what {@code unread} leaves out ({@link UnreadFields}; null:
   * nothing), checked for what every webhook needs.
   */
  public static AdmissionRequest parse(byte[] body, TokenFilter unread) throws BadRequestException {
    // Read straight into fabric8's classes: a request is parsed once, on the hot path.
    final AdmissionReview review =
        Json.read(body, AdmissionReview.class, "the AdmissionReview", unread);
    if (!API_VERSION.equals(review.getApiVersion())) {
      throw new BadRequestException(
          "expected apiVersion " + API_VERSION + ", found " + quoted(review.getApiVersion()));
    }
    if (!KIND.equals(review.getKind())) {
      throw new BadRequestException(
          "expected kind " + KIND + ", found " + quoted(review.getKind()));
    }
    final AdmissionRequest request = review.getRequest();
    if (request == null) {
      throw new BadRequestException("the AdmissionReview has no request object");
    }
    if (request.getUid() == null || request.getUid().isBlank()) {
      throw new BadRequestException("request.uid is missing");
    }
    if (request.getOperation() == null || !OPERATIONS.contains(request.getOperation())) {
      throw new BadRequestException(
          "request.operation must be one of CREATE, UPDATE, DELETE, CONNECT, found "
              + quoted(request.getOperation()));
    }
    if (request.getKind() == null || request.getKind().getKind() == null) {
      throw new BadRequestException("request.kind is missing");
    }
    return request;
  }

  /** Whether the review is about objects of {@code group} and {@code kind}. */
  public static boolean isAbout(AdmissionRequest request, String group, String kind) {
    final GroupVersionKind gvk = request.getKind();
    final String requestGroup = gvk.getGroup() == null ? "" : gvk.getGroup();
    return group.equals(requestGroup) && kind.equals(gvk.getKind());
  }

  /** {@code group/version, Kind=kind} of the request, for messages. */
  public static String describeKind(AdmissionRequest request) {
    final GroupVersionKind gvk = request.getKind();
    final String group = gvk.getGroup() == null || gvk.getGroup().isEmpty() ? "" : gvk.getGroup();
    return (group.isEmpty() ? "" : group + "/") + gvk.getVersion() + " " + gvk.getKind();
  }

  private static final byte[] ALLOWED_HEAD =
      ("{\"apiVersion\":\""
              + API_VERSION
              + "\",\"kind\":\""
              + KIND
              + "\",\"response\":{\"allowed\":true,\"uid\":\"")
          .getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ALLOWED_TAIL = "\"}}".getBytes(StandardCharsets.US_ASCII);

  /**
   * An allowing answer. Nearly every answer allows without warnings, for a uid the API server makes
   * of letters, digits and dashes: that one is the generator's bytes put together directly (a
   * generator and its buffers were 4 % of a request's allocation).
   */
  public static byte[] allowed(String uid, List<String> warnings) {
    if (!warnings.isEmpty()) {
      return written(uid, warnings);
    }
    final byte[] answer = new byte[ALLOWED_HEAD.length + uid.length() + ALLOWED_TAIL.length];
    System.arraycopy(ALLOWED_HEAD, 0, answer, 0, ALLOWED_HEAD.length);
    for (int i = 0; i < uid.length(); i++) {
      final char c = uid.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        // Escaped or more than one byte in UTF-8: left to the generator.
        return written(uid, warnings);
      }
      answer[ALLOWED_HEAD.length + i] = (byte) c;
    }
    System.arraycopy(
        ALLOWED_TAIL, 0, answer, ALLOWED_HEAD.length + uid.length(), ALLOWED_TAIL.length);
    return answer;
  }

  /**
   * An allowing answer with warnings for people and, for the audit log, {@code auditAnnotations}
   * (the API server records each as {@code <webhook name>/<key>}).
   */
  public static byte[] allowed(
      String uid, List<String> warnings, Map<String, String> auditAnnotations) {
    return auditAnnotations.isEmpty()
        ? allowed(uid, warnings)
        : written(uid, warnings, auditAnnotations);
  }

  public static byte[] written(String uid, List<String> warnings) {
    return written(uid, warnings, Map.of());
  }

  // The answer is written with Jackson's generator rather than through fabric8's AdmissionReview
  // (or a tree): the same JSON (pinned by golden tests), at a fraction of the cost on the hot path.
  private static byte[] written(
      String uid, List<String> warnings, Map<String, String> auditAnnotations) {
    final ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    try (JsonGenerator json = Json.MAPPER.getFactory().createGenerator(out)) {
      json.writeStartObject();
      json.writeStringField("apiVersion", API_VERSION);
      json.writeStringField("kind", KIND);
      json.writeObjectFieldStart("response");
      json.writeBooleanField("allowed", true);
      json.writeStringField("uid", uid);
      if (!warnings.isEmpty()) {
        json.writeArrayFieldStart("warnings");
        for (final String warning : warnings) {
          json.writeString(warning);
        }
        json.writeEndArray();
      }
      if (!auditAnnotations.isEmpty()) {
        json.writeObjectFieldStart("auditAnnotations");
        for (final Map.Entry<String, String> annotation : auditAnnotations.entrySet()) {
          json.writeStringField(annotation.getKey(), annotation.getValue());
        }
        json.writeEndObject();
      }
      json.writeEndObject();
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /**
   * One cause of a denial, in {@code status.details.causes}: Kubernetes' {@code StatusCause}, whose
   * {@code reason} is a machine-readable code.
   */
  public record Cause(String reason, String message) {}

  public static byte[] denied(String uid, int code, String reason, String message) {
    return denied(uid, code, reason, message, List.of(), Map.of());
  }

  /**
   * A denying answer; {@code causes}, when any, go to {@code status.details.causes}, which the API
   * server passes on to the client with the status, and {@code auditAnnotations} to the audit log.
   */
  public static byte[] denied(
      String uid,
      int code,
      String reason,
      String message,
      List<Cause> causes,
      Map<String, String> auditAnnotations) {
    final ObjectNode response = Json.object();
    response.put("allowed", false);
    final ObjectNode status = response.putObject("status");
    status.put("apiVersion", "v1");
    status.put("kind", "Status");
    status.put("code", code);
    status.put("message", message);
    status.put("reason", reason);
    status.put("status", "Failure");
    if (!causes.isEmpty()) {
      final ArrayNode list = status.putObject("details").putArray("causes");
      for (final Cause cause : causes) {
        list.addObject().put("reason", cause.reason()).put("message", cause.message());
      }
    }
    response.put("uid", uid);
    if (!auditAnnotations.isEmpty()) {
      final ObjectNode annotations = response.putObject("auditAnnotations");
      auditAnnotations.forEach(annotations::put);
    }
    return review(response);
  }

  private static byte[] review(ObjectNode response) {
    final ObjectNode review = Json.object();
    review.put("apiVersion", API_VERSION);
    review.put("kind", KIND);
    review.set("response", response);
    return Json.bytes(review);
  }

  private static String quoted(String value) {
    return value == null ? "nothing" : "\"" + value + "\"";
  }
}
