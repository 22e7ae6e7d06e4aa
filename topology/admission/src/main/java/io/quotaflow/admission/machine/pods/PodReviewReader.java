package io.quotaflow.admission.machine.pods;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.quotaflow.admission.endpoint.UniqueKeyParser;
import io.quotaflow.admission.machine.pods.PodReviews.ContainerPart;
import io.quotaflow.admission.machine.pods.PodReviews.Envelope;
import io.quotaflow.admission.machine.pods.PodReviews.Kind;
import io.quotaflow.admission.machine.pods.PodReviews.Meta;
import io.quotaflow.admission.machine.pods.PodReviews.PodObject;
import io.quotaflow.admission.machine.pods.PodReviews.Request;
import io.quotaflow.admission.machine.pods.PodReviews.Spec;
import io.quotaflow.admission.machine.pods.PodReviews.Status;
import io.quotaflow.kube.GangConventions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Walks the tokens of a pod review for {@link PodReviews}, keeping the fields its records hold and
 * skipping the others. Values are taken as Jackson's data binding takes them: strings from any
 * scalar, a quantity that is not a string through fabric8's own deserializer.
 */
final class PodReviewReader {
  private final JsonParser parser;
  private final boolean binds;

  /**
   * @param binds whether a value only data binding reads (a quantity or a flag of an unusual type)
   *     is read; when not, it is an {@link IOException}
   */
  PodReviewReader(JsonParser parser, boolean binds) {
    this.parser = parser;
    this.binds = binds;
  }

  /** At the review's START_OBJECT. */
  Envelope envelope() throws IOException {
    String apiVersion = null;
    String kind = null;
    Request request = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      final String field = parser.currentName();
      final JsonToken value = parser.nextToken();
      switch (field) {
        case "apiVersion" -> apiVersion = text(value);
        case "kind" -> kind = text(value);
        case "request" -> request = object(value) ? request() : null;
        default -> parser.skipChildren();
      }
    }
    return new Envelope(apiVersion, kind, request);
  }

  private Request request() throws IOException {
    String uid = null;
    Kind kind = null;
    String name = null;
    String namespace = null;
    String operation = null;
    Boolean dryRun = null;
    PodObject object = null;
    PodObject oldObject = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      final String field = parser.currentName();
      final JsonToken value = parser.nextToken();
      switch (field) {
        case "uid" -> uid = text(value);
        case "kind" -> kind = object(value) ? kind() : null;
        case "name" -> name = text(value);
        case "namespace" -> namespace = text(value);
        case "operation" -> operation = text(value);
        case "dryRun" -> dryRun = bool(value);
        case "object" -> object = object(value) ? podObject() : null;
        case "oldObject" -> oldObject = object(value) ? podObject() : null;
        default -> parser.skipChildren();
      }
    }
    return new Request(uid, kind, name, namespace, operation, dryRun, object, oldObject);
  }

  private Kind kind() throws IOException {
    String group = null;
    String version = null;
    String kind = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      final String field = parser.currentName();
      final JsonToken value = parser.nextToken();
      switch (field) {
        case "group" -> group = text(value);
        case "version" -> version = text(value);
        case "kind" -> kind = text(value);
        default -> parser.skipChildren();
      }
    }
    return new Kind(group, version, kind);
  }

  private PodObject podObject() throws IOException {
    String apiVersion = null;
    String kind = null;
    Meta metadata = null;
    Spec spec = null;
    Status status = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      final String field = parser.currentName();
      final JsonToken value = parser.nextToken();
      switch (field) {
        case "apiVersion" -> apiVersion = text(value);
        case "kind" -> kind = text(value);
        case "metadata" -> metadata = object(value) ? meta() : null;
        case "spec" -> spec = object(value) ? spec() : null;
        case "status" -> status = object(value) ? status() : null;
        default -> parser.skipChildren();
      }
    }
    return new PodObject(apiVersion, kind, metadata, spec, status);
  }

  private Meta meta() throws IOException {
    String name = null;
    String namespace = null;
    String uid = null;
    Map<String, String> labels = null;
    Map<String, String> annotations = null;
    String created = null;
    String deleted = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      final String field = parser.currentName();
      final JsonToken value = parser.nextToken();
      switch (field) {
        case "name" -> name = text(value);
        case "namespace" -> namespace = text(value);
        case "uid" -> uid = text(value);
        case "labels" -> labels = object(value) ? texts() : null;
        case "annotations" -> annotations = object(value) ? gangAnnotations() : null;
        case "creationTimestamp" -> created = text(value);
        case "deletionTimestamp" -> deleted = text(value);
        default -> parser.skipChildren();
      }
    }
    return new Meta(name, namespace, uid, labels, annotations, created, deleted);
  }

  private Spec spec() throws IOException {
    Integer priority = null;
    String nodeName = null;
    List<ContainerPart> containers = null;
    List<ContainerPart> initContainers = null;
    ResourceRequirements resources = null;
    Map<String, Quantity> overhead = null;
    List<PodResourceClaim> resourceClaims = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      final String field = parser.currentName();
      final JsonToken value = parser.nextToken();
      switch (field) {
        case "priority" -> priority = integer(value);
        case "nodeName" -> nodeName = text(value);
        case "containers" -> containers = containers(value);
        case "initContainers" -> initContainers = containers(value);
        case "resources" -> resources = object(value) ? resources() : null;
        case "overhead" -> overhead = object(value) ? quantities() : null;
        case "resourceClaims" -> resourceClaims = resourceClaims(value);
        default -> parser.skipChildren();
      }
    }
    return new Spec(
        priority, nodeName, containers, initContainers, resources, overhead, resourceClaims);
  }

  /** spec.resourceClaims: the claims whose devices the pod is charged. */
  private List<PodResourceClaim> resourceClaims(JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_NULL) {
      return null;
    }
    if (value != JsonToken.START_ARRAY) {
      throw mismatch("an array of resource claims");
    }
    final List<PodResourceClaim> claims = new ArrayList<>();
    JsonToken item;
    while ((item = parser.nextToken()) != JsonToken.END_ARRAY) {
      final PodResourceClaim claim = new PodResourceClaim();
      if (object(item)) {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          final String field = parser.currentName();
          final JsonToken part = parser.nextToken();
          switch (field) {
            case "name" -> claim.setName(text(part));
            case "resourceClaimName" -> claim.setResourceClaimName(text(part));
            case "resourceClaimTemplateName" -> claim.setResourceClaimTemplateName(text(part));
            default -> parser.skipChildren();
          }
        }
      }
      claims.add(claim);
    }
    return claims;
  }

  private List<ContainerPart> containers(JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_NULL) {
      return null;
    }
    if (value != JsonToken.START_ARRAY) {
      throw mismatch("an array of containers");
    }
    final List<ContainerPart> containers = new ArrayList<>();
    JsonToken item;
    while ((item = parser.nextToken()) != JsonToken.END_ARRAY) {
      containers.add(object(item) ? container() : null);
    }
    return containers;
  }

  private ContainerPart container() throws IOException {
    String restartPolicy = null;
    ResourceRequirements resources = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      final String field = parser.currentName();
      final JsonToken value = parser.nextToken();
      switch (field) {
        case "restartPolicy" -> restartPolicy = text(value);
        case "resources" -> resources = object(value) ? resources() : null;
        default -> parser.skipChildren();
      }
    }
    return new ContainerPart(restartPolicy, resources);
  }

  private ResourceRequirements resources() throws IOException {
    final ResourceRequirements resources = new ResourceRequirements();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      final String field = parser.currentName();
      final JsonToken value = parser.nextToken();
      switch (field) {
        case "requests" -> resources.setRequests(object(value) ? quantities() : null);
        case "limits" -> resources.setLimits(object(value) ? quantities() : null);
        default -> parser.skipChildren();
      }
    }
    return resources;
  }

  private Status status() throws IOException {
    String phase = null;
    String startTime = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      final String field = parser.currentName();
      final JsonToken value = parser.nextToken();
      switch (field) {
        case "phase" -> phase = text(value);
        case "startTime" -> startTime = text(value);
        default -> parser.skipChildren();
      }
    }
    return new Status(phase, startTime);
  }

  /** At START_OBJECT: a map of strings, in document order. */
  private Map<String, String> texts() throws IOException {
    final Map<String, String> map = new LinkedHashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      final String key = parser.currentName();
      map.put(key, text(parser.nextToken()));
    }
    return map;
  }

  /**
   * At START_OBJECT: the annotations that name a pod's gang ({@link GangConventions}), the only
   * ones the core reads; every other value is checked as a string, as data binding would, but not
   * kept (a pod's annotations may be large: kubectl's last applied configuration).
   */
  private Map<String, String> gangAnnotations() throws IOException {
    final Map<String, String> map = new LinkedHashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      final String key = parser.currentName();
      final JsonToken value = parser.nextToken();
      if (PodReviews.GANG_ANNOTATIONS.contains(key)) {
        map.put(key, text(value));
      } else if (value != JsonToken.VALUE_NULL && !value.isScalarValue()) {
        throw mismatch("a string");
      }
    }
    return map;
  }

  /** At START_OBJECT: quantities by resource name, in document order. */
  private Map<String, Quantity> quantities() throws IOException {
    final Map<String, Quantity> map = new LinkedHashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      final String key = parser.currentName();
      final JsonToken value = parser.nextToken();
      map.put(
          key,
          value == JsonToken.VALUE_STRING
              ? new Quantity(parser.getText())
              : value == JsonToken.VALUE_NULL ? null : bind(Quantity.class));
    }
    return map;
  }

  /** Whether the value is an object (to read), null (no value); else it cannot be read. */
  private boolean object(JsonToken value) throws IOException {
    if (value == JsonToken.START_OBJECT) {
      return true;
    }
    if (value == JsonToken.VALUE_NULL) {
      return false;
    }
    throw mismatch("an object");
  }

  /** A string from any scalar, as Jackson binds a String; null for null. */
  private String text(JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_NULL) {
      return null;
    }
    if (value.isScalarValue()) {
      return parser.getText();
    }
    throw mismatch("a string");
  }

  private Boolean bool(JsonToken value) throws IOException {
    return switch (value) {
      case VALUE_NULL -> null;
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      default -> bind(Boolean.class);
    };
  }

  private Integer integer(JsonToken value) throws IOException {
    return switch (value) {
      case VALUE_NULL -> null;
      case VALUE_NUMBER_INT -> parser.getIntValue();
      default -> bind(Integer.class);
    };
  }

  /** The value read by data binding, which reads past the {@link UniqueKeyParser}'s checks. */
  private <T> T bind(Class<T> type) throws IOException {
    if (!binds) {
      throw new IOException("left to the strict reading");
    }
    return parser.readValueAs(type);
  }

  private IOException mismatch(String expected) {
    return MismatchedInputException.from(
        parser,
        (Class<?>) null,
        "expected " + expected + " at " + parser.getParsingContext().pathAsPointer());
  }
}
