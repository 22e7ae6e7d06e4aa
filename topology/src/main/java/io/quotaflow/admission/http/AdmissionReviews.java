package io.quotaflow.admission.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import java.util.List;
import java.util.Set;

/**
 * Reads the API server's {@code AdmissionReview} (admission.k8s.io/v1) and writes the answer, with
 * fabric8's admission model. Only v1 is spoken: configure the webhooks with {@code
 * admissionReviewVersions: ["v1"]}.
 */
final class AdmissionReviews {

  static final String API_VERSION = "admission.k8s.io/v1";
  static final String KIND = "AdmissionReview";
  static final Set<String> OPERATIONS = Set.of("CREATE", "UPDATE", "DELETE", "CONNECT");

  private AdmissionReviews() {}

  /** The request of a review, checked for what every webhook needs. */
  static AdmissionRequest parse(byte[] body) throws BadRequestException {
    final ObjectNode root = Json.parseObject(body);
    final String apiVersion = text(root, "apiVersion");
    if (!API_VERSION.equals(apiVersion)) {
      throw new BadRequestException(
          "expected apiVersion " + API_VERSION + ", found " + quoted(apiVersion));
    }
    final String kind = text(root, "kind");
    if (!KIND.equals(kind)) {
      throw new BadRequestException("expected kind " + KIND + ", found " + quoted(kind));
    }
    if (!root.path("request").isObject()) {
      throw new BadRequestException("the AdmissionReview has no request object");
    }
    final AdmissionRequest request =
        Json.convert(root, AdmissionReview.class, "the AdmissionReview").getRequest();
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
  static boolean isAbout(AdmissionRequest request, String group, String kind) {
    final GroupVersionKind gvk = request.getKind();
    final String requestGroup = gvk.getGroup() == null ? "" : gvk.getGroup();
    return group.equals(requestGroup) && kind.equals(gvk.getKind());
  }

  /** {@code group/version, Kind=kind} of the request, for messages. */
  static String describeKind(AdmissionRequest request) {
    final GroupVersionKind gvk = request.getKind();
    final String group = gvk.getGroup() == null || gvk.getGroup().isEmpty() ? "" : gvk.getGroup();
    return (group.isEmpty() ? "" : group + "/") + gvk.getVersion() + " " + gvk.getKind();
  }

  static byte[] allowed(String uid, List<String> warnings) {
    final AdmissionResponse response = new AdmissionResponse();
    response.setUid(uid);
    response.setAllowed(true);
    if (!warnings.isEmpty()) {
      response.setWarnings(List.copyOf(warnings));
    }
    return review(response);
  }

  static byte[] denied(String uid, int code, String reason, String message) {
    final AdmissionResponse response = new AdmissionResponse();
    response.setUid(uid);
    response.setAllowed(false);
    final Status status = new Status();
    status.setStatus("Failure");
    status.setCode(code);
    status.setReason(reason);
    status.setMessage(message);
    response.setStatus(status);
    return review(response);
  }

  private static byte[] review(AdmissionResponse response) {
    final AdmissionReview review = new AdmissionReview();
    review.setApiVersion(API_VERSION);
    review.setKind(KIND);
    review.setResponse(response);
    return Json.bytes(review);
  }

  private static String text(ObjectNode node, String field) {
    final JsonNode value = node.get(field);
    return value == null || !value.isTextual() ? null : value.asText();
  }

  private static String quoted(String value) {
    return value == null ? "nothing" : "\"" + value + "\"";
  }
}
