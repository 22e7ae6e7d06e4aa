package io.quotaflow.admission.machine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.machine.pods.PodReviews;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What parsing one large review costs (issue 40.14): bytes allocated per parse and bytes each
 * parsed review keeps while 64 are held at once (the server's threads), for a pod UPDATE, an
 * ElasticQuota UPDATE (each object carrying a 1.4 MB annotation and managedFields, about 2.9 MB in
 * all) and an ExtenderArgs whose pod does; each read whole (fabric8's model or a full tree) and as
 * the plugin reads it. In this package to call the package-private readers. Run with
 * bench/run-review-footprint.sh.
 */
public final class ReviewFootprint {

  private static final int HELD = 64;

  private interface Reading {
    Object parse(byte[] body) throws Exception;
  }

  private ReviewFootprint() {}

  public static void main(String[] args) throws Exception {
    final byte[] pods = review("", "v1", "Pod", pod());
    final byte[] quotas =
        review("scheduling.sigs.k8s.io", "v1alpha1", "ElasticQuota", elasticQuota());
    final ObjectNode extender = Json.object();
    extender.set("Pod", pod());
    extender.putArray("NodeNames").add("n1").add("n2");
    final byte[] filter = extender.toString().getBytes(StandardCharsets.UTF_8);

    System.out.printf(
        Locale.ROOT,
        "%-44s %10s %14s %16s%n",
        "review / reading",
        "body MB",
        "alloc MB/parse",
        "kept MB/review");
    row("pod UPDATE, fabric8 AdmissionReview (whole)", pods, AdmissionReviews::parse);
    row("pod UPDATE, PodReviews (the pod webhook)", pods, PodReviews::parse);
    row("quota UPDATE, fabric8 AdmissionReview (whole)", quotas, AdmissionReviews::parse);
    row(
        "quota UPDATE, without UnreadFields (webhook)",
        quotas,
        body -> AdmissionReviews.parse(body, UnreadFields.QUOTA_REVIEW));
    row(
        "ExtenderArgs, tree + Pod (whole)",
        filter,
        body -> Json.convert(Json.parseObject(body).get("Pod"), Pod.class, "pod"));
    row(
        "ExtenderArgs, without UnreadFields (filter)",
        filter,
        body ->
            Json.convert(
                Json.parseObject(body, UnreadFields.EXTENDER_ARGS).get("Pod"), Pod.class, "pod"));
  }

  private static void row(String name, byte[] body, Reading reading) throws Exception {
    final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    for (int i = 0; i < 50; i++) {
      reading.parse(body);
    }
    final int runs = 50;
    final long before = threads.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < runs; i++) {
      reading.parse(body);
    }
    final double allocated = (threads.getCurrentThreadAllocatedBytes() - before) / (double) runs;
    final long empty = usedAfterGc();
    final List<Object> held = new ArrayList<>();
    for (int i = 0; i < HELD; i++) {
      held.add(reading.parse(body));
    }
    final double kept = (usedAfterGc() - empty) / (double) held.size();
    System.out.printf(
        Locale.ROOT,
        "%-44s %10.2f %14.2f %16.3f%n",
        name,
        body.length / 1e6,
        allocated / 1e6,
        kept / 1e6);
    held.clear();
  }

  private static long usedAfterGc() throws InterruptedException {
    final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(50);
    }
    return memory.getHeapMemoryUsage().getUsed();
  }

  private static byte[] review(String group, String version, String kind, ObjectNode object) {
    final ObjectNode review = Json.object();
    review.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
    final ObjectNode request = review.putObject("request");
    request.put("uid", "u-1");
    request.putObject("kind").put("group", group).put("version", version).put("kind", kind);
    request.put("name", "worker").put("namespace", "beta").put("operation", "UPDATE");
    request.putObject("userInfo").put("username", "kubernetes-admin");
    request.set("object", object);
    request.set("oldObject", object.deepCopy());
    return review.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void padded(ObjectNode meta) {
    meta.putObject("annotations")
        .put("kubectl.kubernetes.io/last-applied-configuration", "x".repeat(1_400_000));
    final var fields = meta.putArray("managedFields");
    for (int i = 0; i < 200; i++) {
      fields
          .addObject()
          .put("manager", "kubectl-" + i)
          .put("operation", "Apply")
          .putObject("fieldsV1")
          .putObject("f:metadata")
          .putObject("f:labels")
          .putObject("f:example.com/label-" + i);
    }
  }

  private static ObjectNode pod() {
    final ObjectNode pod = Json.object();
    pod.put("apiVersion", "v1").put("kind", "Pod");
    final ObjectNode meta = pod.putObject("metadata");
    meta.put("name", "worker").put("namespace", "beta");
    meta.putObject("labels").put("quota.scheduling.koordinator.sh/name", "team-b");
    padded(meta);
    pod.putObject("spec")
        .putArray("containers")
        .addObject()
        .put("name", "main")
        .put("image", "busybox")
        .putObject("resources")
        .putObject("requests")
        .put("cpu", "1");
    return pod;
  }

  private static ObjectNode elasticQuota() {
    final ObjectNode quota = Json.object();
    quota.put("apiVersion", "scheduling.sigs.k8s.io/v1alpha1").put("kind", "ElasticQuota");
    final ObjectNode meta = quota.putObject("metadata");
    meta.put("name", "team-b").put("namespace", "quotas");
    padded(meta);
    final ObjectNode spec = quota.putObject("spec");
    spec.putObject("min").put("cpu", "2");
    spec.putObject("max").put("cpu", "8");
    quota.putObject("status").putObject("used").put("cpu", "1");
    return quota;
  }
}
