package io.quotaflow.admission.machine.pods;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.endpoint.UniqueKeyParser;
import io.quotaflow.admission.machine.AdmissionReviews;
import io.quotaflow.kube.GangConventions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a pod webhook's {@code AdmissionReview} (admission.k8s.io/v1) on the hot path: in one pass
 * into small records that hold only what the webhook and {@code PodAdapter} read (the review's uid,
 * kind, operation, dry-run flag, name and namespace; the pod's metadata (of its annotations, those
 * naming its gang), resources, node, priority, phase and times), skipping everything else, instead
 * of fabric8's full model, whose polymorphic {@code request.object} is read into a tree and then
 * converted. The pod it hands on is a fabric8 {@link Pod} holding those fields, so the pod is read
 * exactly as everywhere else. The checks and their messages are those of {@link
 * AdmissionReviews#parse}.
 */
public final class PodReviews {

  /** The annotations kept: those that name a pod's gang and its minMember. */
  public static final Set<String> GANG_ANNOTATIONS =
      Set.of(
          GangConventions.KOORDINATOR_NAME,
          GangConventions.KOORDINATOR_MIN_AVAILABLE,
          GangConventions.VOLCANO_GROUP_NAME);

  private PodReviews() {}

  /** The review's request, checked as {@link AdmissionReviews#parse} checks it. */
  public static Request parse(byte[] body) throws BadRequestException {
    final Envelope review = read(body);
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

  /**
   * The body, one JSON object and nothing after it, read as an {@link Envelope} with Jackson's
   * streaming parser (a 400 naming what is wrong otherwise, as {@link Json#read} words it).
   */
  public static Envelope read(byte[] body) throws BadRequestException {
    if (body.length == 0) {
      throw new BadRequestException("the request has no body; expected a JSON object");
    }
    final Envelope quick = readQuickly(body);
    return quick != null ? quick : readStrictly(body);
  }

  /**
   * The body read with repeated keys caught by a {@link UniqueKeyParser} rather than Jackson's
   * costlier check; null for any body it does not read cleanly (a repeated key, a value only data
   * binding reads, any error), which {@link #readStrictly} then reads and words the error of.
   */
  private static Envelope readQuickly(byte[] body) {
    try (JsonParser parser = new UniqueKeyParser(Json.quickParser(body))) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      final Envelope envelope = new PodReviewReader(parser, false).envelope();
      return parser.nextToken() == null ? envelope : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The body read with Jackson's own duplicate detection: the reference reading, and its errors.
   */
  public static Envelope readStrictly(byte[] body) throws BadRequestException {
    try (JsonParser parser = Json.parser(body)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new BadRequestException("expected a JSON object");
      }
      final Envelope envelope = new PodReviewReader(parser, true).envelope();
      if (parser.nextToken() != null) {
        throw new BadRequestException(
            "the body is not valid JSON: trailing content after the object");
      }
      return envelope;
    } catch (JsonParseException e) {
      throw new BadRequestException("the body is not valid JSON: " + Json.shortMessage(e));
    } catch (IOException | IllegalArgumentException e) {
      throw new BadRequestException("the AdmissionReview cannot be read: " + Json.shortMessage(e));
    }
  }

  private static String quoted(String value) {
    return value == null ? "nothing" : "\"" + value + "\"";
  }

  /** The review, as far as the pod webhook reads it. */
  record Envelope(String apiVersion, String kind, Request request) {}

  /** The review's request. */
  public record Request(
      String uid,
      Kind kind,
      String name,
      String namespace,
      String operation,
      Boolean dryRun,
      PodObject object,
      PodObject oldObject) {

    /** Whether the review is about objects of {@code group} and {@code kind}. */
    public boolean isAbout(String group, String kindName) {
      final String requestGroup = kind.group() == null ? "" : kind.group();
      return group.equals(requestGroup) && kindName.equals(kind.kind());
    }

    /** {@code group/version Kind} of the request, for messages. */
    public String describeKind() {
      final String group = kind.group() == null ? "" : kind.group();
      return (group.isEmpty() ? "" : group + "/") + kind.version() + " " + kind.kind();
    }
  }

  /** Group, version and kind of the request. */
  record Kind(String group, String version, String kind) {}

  /** {@code request.object}, as far as a pod is read. */
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
        meta.setAnnotations(metadata.annotations());
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
        podSpec.setResourceClaims(spec.resourceClaims());
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
      final List<Container> containers = new ArrayList<>(parts.size());
      for (final ContainerPart part : parts) {
        final Container container = new Container();
        if (part != null) {
          container.setResources(part.resources());
          container.setRestartPolicy(part.restartPolicy());
        }
        containers.add(container);
      }
      return Collections.unmodifiableList(containers);
    }
  }

  /** The pod's metadata, as far as it is read. */
  record Meta(
      String name,
      String namespace,
      String uid,
      Map<String, String> labels,
      Map<String, String> annotations,
      String creationTimestamp,
      String deletionTimestamp) {}

  /** The pod's spec, as far as it is read. */
  record Spec(
      Integer priority,
      String nodeName,
      List<ContainerPart> containers,
      List<ContainerPart> initContainers,
      ResourceRequirements resources,
      Map<String, Quantity> overhead,
      List<PodResourceClaim> resourceClaims) {}

  /** A container, as far as it is read. */
  record ContainerPart(String restartPolicy, ResourceRequirements resources) {}

  /** The pod's status, as far as it is read. */
  record Status(String phase, String startTime) {}
}
