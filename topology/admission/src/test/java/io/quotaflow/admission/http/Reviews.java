package io.quotaflow.admission.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.endpoint.Json;
import java.util.List;
import java.util.Map;

/** Fixture builders of the JSON the API server and kube-scheduler send. */
public final class Reviews {

  private Reviews() {}

  /** A pod object: {@code pod("ns", "name").cpu("500m").label(k, v)}. */
  public static PodJson pod(String namespace, String name) {
    return new PodJson(namespace, name);
  }

  /** Builds a v1 Pod as JSON. */
  public static final class PodJson {
    private final ObjectNode pod = Json.object();
    private final ObjectNode requests;

    private PodJson(String namespace, String name) {
      pod.put("apiVersion", "v1").put("kind", "Pod");
      final ObjectNode meta = pod.putObject("metadata");
      meta.put("name", name).put("namespace", namespace);
      requests =
          pod.putObject("spec")
              .putArray("containers")
              .addObject()
              .put("name", "main")
              .put("image", "busybox")
              .putObject("resources")
              .putObject("requests");
    }

    public PodJson cpu(String quantity) {
      requests.put("cpu", quantity);
      return this;
    }

    PodJson memory(String quantity) {
      requests.put("memory", quantity);
      return this;
    }

    public PodJson label(String key, String value) {
      ((ObjectNode) pod.get("metadata")).withObjectProperty("labels").put(key, value);
      return this;
    }

    public PodJson annotation(String key, String value) {
      ((ObjectNode) pod.get("metadata")).withObjectProperty("annotations").put(key, value);
      return this;
    }

    public PodJson quota(String group) {
      return label("quota.scheduling.koordinator.sh/name", group);
    }

    /** A controller owner reference, e.g. {@code ownedBy("DaemonSet", "agent")}. */
    public PodJson ownedBy(String kind, String name) {
      ((ObjectNode) pod.get("metadata"))
          .withArrayProperty("ownerReferences")
          .addObject()
          .put("apiVersion", "apps/v1")
          .put("kind", kind)
          .put("name", name)
          .put("uid", name + "-uid")
          .put("controller", true);
      return this;
    }

    /** A spec.resourceClaims entry naming a ResourceClaimTemplate. */
    public PodJson claimTemplate(String entry, String template) {
      ((ObjectNode) pod.get("spec"))
          .withArrayProperty("resourceClaims")
          .addObject()
          .put("name", entry)
          .put("resourceClaimTemplateName", template);
      return this;
    }

    /** A spec.resourceClaims entry naming a ResourceClaim. */
    PodJson claim(String entry, String claim) {
      ((ObjectNode) pod.get("spec"))
          .withArrayProperty("resourceClaims")
          .addObject()
          .put("name", entry)
          .put("resourceClaimName", claim);
      return this;
    }

    PodJson nonPreemptible() {
      return label("quota.scheduling.koordinator.sh/preemptible", "false");
    }

    ObjectNode json() {
      return pod.deepCopy();
    }
  }

  /** An AdmissionReview asking to CREATE {@code pod}. */
  public static String createPod(String uid, PodJson pod) {
    return review(uid, "CREATE", "", "v1", "Pod", pod.json(), null, false);
  }

  /**
   * The AdmissionReview the API server sends for an in-place resize ({@code pods/resize},
   * Kubernetes 1.33+): an UPDATE of the pod with subResource {@code resize}.
   */
  public static String resizePod(String uid, PodJson resized, PodJson old) {
    final ObjectNode review =
        reviewNode(uid, "UPDATE", "", "v1", "Pod", resized.json(), old.json(), false);
    final ObjectNode request = (ObjectNode) review.get("request");
    request.put("subResource", "resize");
    request.putObject("requestSubResource").put("value", "resize");
    return review.toString();
  }

  /** An AdmissionReview for pods with any operation and objects. */
  public static String podReview(String uid, String operation, PodJson object, PodJson old) {
    return review(
        uid,
        operation,
        "",
        "v1",
        "Pod",
        object == null ? null : object.json(),
        old == null ? null : old.json(),
        false);
  }

  public static String dryRunCreatePod(String uid, PodJson pod) {
    return review(uid, "CREATE", "", "v1", "Pod", pod.json(), null, true);
  }

  /** An ElasticQuota object. */
  public static QuotaJson quota(String name) {
    return new QuotaJson(name);
  }

  /** Builds a scheduling.sigs.k8s.io/v1alpha1 ElasticQuota as JSON. */
  public static final class QuotaJson {
    private final ObjectNode quota = Json.object();

    private QuotaJson(String name) {
      quota.put("apiVersion", "scheduling.sigs.k8s.io/v1alpha1").put("kind", "ElasticQuota");
      quota.putObject("metadata").put("name", name).put("namespace", "quotas");
      quota.putObject("spec").putObject("min");
      ((ObjectNode) quota.get("spec")).putObject("max");
    }

    public QuotaJson min(String resource, String quantity) {
      ((ObjectNode) quota.get("spec").get("min")).put(resource, quantity);
      return this;
    }

    public QuotaJson max(String resource, String quantity) {
      ((ObjectNode) quota.get("spec").get("max")).put(resource, quantity);
      return this;
    }

    public QuotaJson parent(String parent) {
      return label("quota.scheduling.koordinator.sh/parent", parent);
    }

    public QuotaJson namespace(String namespace) {
      ((ObjectNode) quota.get("metadata")).put("namespace", namespace);
      return this;
    }

    public QuotaJson isParent() {
      return label("quota.scheduling.koordinator.sh/is-parent", "true");
    }

    public QuotaJson label(String key, String value) {
      ((ObjectNode) quota.get("metadata")).withObjectProperty("labels").put(key, value);
      return this;
    }

    public QuotaJson annotation(String key, String value) {
      ((ObjectNode) quota.get("metadata")).withObjectProperty("annotations").put(key, value);
      return this;
    }

    public QuotaJson used(String resource, String quantity) {
      quota.withObjectProperty("status").withObjectProperty("used").put(resource, quantity);
      return this;
    }

    ObjectNode json() {
      return quota.deepCopy();
    }
  }

  /** An AdmissionReview asking to CREATE {@code quota}. */
  public static String createQuota(String uid, QuotaJson quota) {
    return quotaReview(uid, "CREATE", quota, null);
  }

  /** An AdmissionReview asking to DELETE {@code quota}. */
  public static String deleteQuota(String uid, QuotaJson quota) {
    return quotaReview(uid, "DELETE", null, quota);
  }

  /** A quota admin as the API server names it: a member of {@code system:masters}. */
  public static final String ADMIN = "kubernetes-admin";

  /** An AdmissionReview for ElasticQuotas, from a quota admin, with any operation and objects. */
  public static String quotaReview(String uid, String operation, QuotaJson object, QuotaJson old) {
    return quotaReview(uid, operation, object, old, ADMIN, List.of("system:masters"));
  }

  /** An AdmissionReview for ElasticQuotas sent for {@code user} of {@code groups}. */
  public static String quotaReview(
      String uid,
      String operation,
      QuotaJson object,
      QuotaJson old,
      String user,
      List<String> groups) {
    final String name = (object != null ? object : old).json().get("metadata").get("name").asText();
    final ObjectNode review =
        Json.MAPPER.valueToTree(
            Map.of(
                "apiVersion", "admission.k8s.io/v1",
                "kind", "AdmissionReview"));
    final ObjectNode request = review.putObject("request");
    request.put("uid", uid);
    request
        .putObject("kind")
        .put("group", "scheduling.sigs.k8s.io")
        .put("version", "v1alpha1")
        .put("kind", "ElasticQuota");
    request
        .putObject("resource")
        .put("group", "scheduling.sigs.k8s.io")
        .put("version", "v1alpha1")
        .put("resource", "elasticquotas");
    request.put("name", name).put("namespace", "quotas").put("operation", operation);
    if (object != null) {
      request.set("object", object.json());
    }
    if (old != null) {
      request.set("oldObject", old.json());
    }
    if (user != null) {
      final ObjectNode userInfo = request.putObject("userInfo").put("username", user);
      groups.forEach(userInfo.putArray("groups")::add);
    }
    return review.toString();
  }

  private static String review(
      String uid,
      String operation,
      String group,
      String version,
      String kind,
      ObjectNode object,
      ObjectNode old,
      boolean dryRun) {
    return reviewNode(uid, operation, group, version, kind, object, old, dryRun).toString();
  }

  private static ObjectNode reviewNode(
      String uid,
      String operation,
      String group,
      String version,
      String kind,
      ObjectNode object,
      ObjectNode old,
      boolean dryRun) {
    final ObjectNode review = Json.object();
    review.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
    final ObjectNode request = review.putObject("request");
    request.put("uid", uid);
    request.putObject("kind").put("group", group).put("version", version).put("kind", kind);
    request
        .putObject("resource")
        .put("group", group)
        .put("version", version)
        .put("resource", "pods");
    final ObjectNode source = object != null ? object : old;
    if (source != null) {
      request.put("name", source.get("metadata").get("name").asText());
      request.put("namespace", source.get("metadata").get("namespace").asText());
    }
    request.put("operation", operation);
    request.putObject("userInfo").put("username", "system:serviceaccount:apps:deployer");
    if (object != null) {
      request.set("object", object);
    }
    if (old != null) {
      request.set("oldObject", old);
    }
    request.put("dryRun", dryRun);
    return review;
  }

  /** kube-scheduler's ExtenderArgs with node names (nodeCacheCapable: true). */
  public static String filterArgsWithNames(PodJson pod, String... nodes) {
    final ObjectNode args = Json.object();
    args.set("Pod", pod.json());
    args.putNull("Nodes");
    final var names = args.putArray("NodeNames");
    for (final String node : nodes) {
      names.add(node);
    }
    return args.toString();
  }

  /** kube-scheduler's ExtenderArgs with node objects (nodeCacheCapable: false). */
  public static String filterArgsWithNodes(PodJson pod, String... nodes) {
    final ObjectNode args = Json.object();
    args.set("Pod", pod.json());
    final ObjectNode list = args.putObject("Nodes");
    list.putObject("metadata");
    final var items = list.putArray("items");
    for (final String node : nodes) {
      final ObjectNode item = items.addObject();
      item.putObject("metadata").put("name", node);
      item.putObject("status").putObject("allocatable").put("cpu", "8").put("memory", "32Gi");
    }
    args.putNull("NodeNames");
    return args.toString();
  }
}
