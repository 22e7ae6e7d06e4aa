package io.quotaflow.admission.http;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.List;
import java.util.Map;

/**
 * Reads a pod webhook's {@code AdmissionReview} (admission.k8s.io/v1) on the hot path: in one pass
 * into small records that hold only what the webhook and {@code PodAdapter} read (the review's uid,
 * kind, operation, dry-run flag, name and namespace; the pod's metadata, resources, node, priority,
 * phase and times), skipping everything else, instead of fabric8's full model, whose polymorphic
 * {@code request.object} is read into a tree and then converted. The pod it hands on is a fabric8
 * {@link Pod} holding those fields, so the pod is read exactly as everywhere else. The checks and
 * their messages are those of {@link AdmissionReviews#parse}.
 */
final class PodReviews {

  private PodReviews() {}

  /** The review's request, checked as {@link AdmissionReviews#parse} checks it. */
  static Request parse(byte[] body) throws BadRequestException {
    final Envelope review = Json.read(body, Envelope.class, "the AdmissionReview");
    if (!AdmissionReviews.API_VERSION.equals(review.apiVersion())) {
      throw new BadRequestException(
          "expected apiVersion "
              + AdmissionReviews.API_VERSION
              + ", found "
              + quoted(review.apiVersion()));
    }
    if (!AdmissionReviews.KIND.equals(review.kind())) {
      throw new BadRequestException(
          "expected kind " + AdmissionReviews.KIND + ", found " + quoted(review.kind()));
    }
    final Request request = review.request();
    if (request == null) {
      throw new BadRequestException("the AdmissionReview has no request object");
    }
    if (request.uid() == null || request.uid().isBlank()) {
      throw new BadRequestException("request.uid is missing");
    }
    if (request.operation() == null || !AdmissionReviews.OPERATIONS.contains(request.operation())) {
      throw new BadRequestException(
          "request.operation must be one of CREATE, UPDATE, DELETE, CONNECT, found "
              + quoted(request.operation()));
    }
    if (request.kind() == null || request.kind().kind() == null) {
      throw new BadRequestException("request.kind is missing");
    }
    return request;
  }

  private static String quoted(String value) {
    return value == null ? "nothing" : "\"" + value + "\"";
  }

  /** The review, as far as the pod webhook reads it. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Envelope(String apiVersion, String kind, Request request) {}

  /** The review's request. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Request(
      String uid,
      Kind kind,
      String name,
      String namespace,
      String operation,
      Boolean dryRun,
      PodObject object) {

    /** Whether the review is about objects of {@code group} and {@code kind}. */
    boolean isAbout(String group, String kindName) {
      final String requestGroup = kind.group() == null ? "" : kind.group();
      return group.equals(requestGroup) && kindName.equals(kind.kind());
    }

    /** {@code group/version Kind} of the request, for messages. */
    String describeKind() {
      final String group = kind.group() == null ? "" : kind.group();
      return (group.isEmpty() ? "" : group + "/") + kind.version() + " " + kind.kind();
    }
  }

  /** Group, version and kind of the request. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Kind(String group, String version, String kind) {}

  /** {@code request.object}, as far as a pod is read. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record PodObject(String apiVersion, String kind, Meta metadata, Spec spec, Status status) {

    /** Whether the object says it is a v1 Pod (fabric8 picks the class from these). */
    boolean isPod() {
      return "v1".equals(apiVersion) && "Pod".equals(kind);
    }

    /** The fields read, as a fabric8 pod (the others unset). */
    Pod toPod() {
      final Pod pod = new Pod();
      if (metadata != null) {
        final ObjectMeta meta = new ObjectMeta();
        meta.setName(metadata.name());
        meta.setNamespace(metadata.namespace());
        meta.setUid(metadata.uid());
        meta.setLabels(metadata.labels());
        meta.setCreationTimestamp(metadata.creationTimestamp());
        meta.setDeletionTimestamp(metadata.deletionTimestamp());
        pod.setMetadata(meta);
      } else {
        pod.setMetadata(null);
      }
      if (spec != null) {
        final PodSpec podSpec = new PodSpec();
        podSpec.setPriority(spec.priority());
        podSpec.setNodeName(spec.nodeName());
        podSpec.setContainers(containers(spec.containers()));
        podSpec.setInitContainers(containers(spec.initContainers()));
        podSpec.setResources(spec.resources());
        podSpec.setOverhead(spec.overhead());
        pod.setSpec(podSpec);
      } else {
        pod.setSpec(null);
      }
      if (status != null) {
        final PodStatus podStatus = new PodStatus();
        podStatus.setPhase(status.phase());
        podStatus.setStartTime(status.startTime());
        pod.setStatus(podStatus);
      } else {
        pod.setStatus(null);
      }
      return pod;
    }

    private static List<Container> containers(List<ContainerPart> parts) {
      if (parts == null) {
        return null;
      }
      return parts.stream()
          .map(
              part -> {
                final Container container = new Container();
                if (part != null) {
                  container.setResources(part.resources());
                  container.setRestartPolicy(part.restartPolicy());
                }
                return container;
              })
          .toList();
    }
  }

  /** The pod's metadata, as far as it is read. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Meta(
      String name,
      String namespace,
      String uid,
      Map<String, String> labels,
      String creationTimestamp,
      String deletionTimestamp) {}

  /** The pod's spec, as far as it is read. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Spec(
      Integer priority,
      String nodeName,
      List<ContainerPart> containers,
      List<ContainerPart> initContainers,
      ResourceRequirements resources,
      Map<String, Quantity> overhead) {}

  /** A container, as far as it is read. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record ContainerPart(String restartPolicy, ResourceRequirements resources) {}

  /** The pod's status, as far as it is read. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Status(String phase, String startTime) {}
}
