package io.quotaflow.admission.machine;

import static io.quotaflow.admission.http.Reviews.pod;
import static io.quotaflow.admission.http.Reviews.quota;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.http.Reviews;
import io.quotaflow.admission.machine.pods.PodReviews;
import io.quotaflow.kube.ElasticQuotaAdapter;
import io.quotaflow.kube.GangConventions;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.kube.QuotaLabels;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What {@link UnreadFields} leaves out of a review is what no check reads (issue 40.14): the
 * objects read without it and with it are the same to the checks.
 */
class UnreadFieldsTest {

  /** Every key quotaflow names (labels and annotations alike), as an annotation. */
  private static List<String> everyKey() throws IllegalAccessException {
    final List<String> keys = new ArrayList<>();
    for (final Class<?> names : List.of(QuotaLabels.class, GangConventions.class)) {
      for (final Field field : names.getDeclaredFields()) {
        if (Modifier.isStatic(field.getModifiers())
            && Modifier.isPublic(field.getModifiers())
            && field.getType() == String.class) {
          final String key = (String) field.get(null);
          if (key.contains("/") && !key.endsWith("/")) {
            keys.add(key);
          }
        }
      }
    }
    return keys;
  }

  private static void addUnread(ObjectNode object) {
    final ObjectNode meta = (ObjectNode) object.get("metadata");
    meta.withObjectProperty("annotations")
        .put("kubectl.kubernetes.io/last-applied-configuration", "y".repeat(100_000));
    meta.putArray("managedFields").addObject().put("manager", "kubectl").put("operation", "Apply");
  }

  @ParameterizedTest
  @ValueSource(strings = {"true", "x", "{\"cpu\": \"1\"}", "a,b", "2"})
  void anElasticQuotaReadsTheSameWithoutWhatIsLeftOut(String value) throws Exception {
    final Reviews.QuotaJson quota =
        quota("team").parent("research").min("cpu", "1").used("cpu", "1");
    for (final String key : everyKey()) {
      quota.annotation(key, value).label(key, value);
    }
    final ObjectNode review =
        (ObjectNode) Json.MAPPER.readTree(Reviews.quotaReview("u", "UPDATE", quota, quota));
    addUnread((ObjectNode) review.get("request").get("object"));
    addUnread((ObjectNode) review.get("request").get("oldObject"));
    final byte[] body = review.toString().getBytes(StandardCharsets.UTF_8);

    final AdmissionRequest whole = AdmissionReviews.parse(body);
    final AdmissionRequest read = AdmissionReviews.parse(body, UnreadFields.QUOTA_REVIEW);

    for (final AdmissionRequest request : List.of(whole, read)) {
      assertThat(request.getUserInfo()).isEqualTo(whole.getUserInfo());
      assertThat(request.getUid()).isEqualTo("u");
    }
    assertThat(ElasticQuotaAdapter.toQuotaGroup((GenericKubernetesResource) read.getObject()))
        .isEqualTo(ElasticQuotaAdapter.toQuotaGroup((GenericKubernetesResource) whole.getObject()));
    assertThat(ElasticQuotaAdapter.toQuotaGroup((GenericKubernetesResource) read.getOldObject()))
        .isEqualTo(
            ElasticQuotaAdapter.toQuotaGroup((GenericKubernetesResource) whole.getOldObject()));
    final GenericKubernetesResource object = (GenericKubernetesResource) read.getObject();
    assertThat(object.getMetadata().getAnnotations().keySet())
        .isSubsetOf(UnreadFields.QUOTA_ANNOTATIONS);
    assertThat(object.getMetadata().getManagedFields()).isNullOrEmpty();
    assertThat(object.getAdditionalProperties()).doesNotContainKey("status");
  }

  @ParameterizedTest
  @ValueSource(strings = {"true", "x", "2"})
  void theFiltersPodReadsTheSameWithoutWhatIsLeftOut(String value) throws Exception {
    final Reviews.PodJson pod = pod("beta", "p").quota("team-b").cpu("1").ownedBy("Job", "j");
    for (final String key : everyKey()) {
      pod.annotation(key, value).label(key, value);
    }
    pod.claimTemplate("gpu", "one-gpu");
    final ObjectNode args =
        (ObjectNode) Json.MAPPER.readTree(Reviews.filterArgsWithNames(pod, "n1"));
    final ObjectNode podNode = (ObjectNode) args.get("Pod");
    addUnread(podNode);
    podNode
        .putObject("status")
        .put("phase", "Pending")
        .putArray("resourceClaimStatuses")
        .addObject()
        .put("name", "gpu")
        .put("resourceClaimName", "p-gpu-x");
    final byte[] body = args.toString().getBytes(StandardCharsets.UTF_8);

    final ObjectNode whole = Json.parseObject(body);
    final ObjectNode read = Json.parseObject(body, UnreadFields.EXTENDER_ARGS);

    final Pod wholePod = Json.convert(whole.get("Pod"), Pod.class, "pod");
    final Pod readPod = Json.convert(read.get("Pod"), Pod.class, "pod");
    assertThat(PodAdapter.toQuotaPod(readPod)).isEqualTo(PodAdapter.toQuotaPod(wholePod));
    assertThat(readPod.getSpec()).isEqualTo(wholePod.getSpec());
    assertThat(readPod.getStatus()).isEqualTo(wholePod.getStatus());
    assertThat(readPod.getMetadata().getLabels()).isEqualTo(wholePod.getMetadata().getLabels());
    assertThat(readPod.getMetadata().getOwnerReferences())
        .isEqualTo(wholePod.getMetadata().getOwnerReferences());
    assertThat(readPod.getMetadata().getManagedFields()).isNullOrEmpty();
    assertThat(readPod.getMetadata().getAnnotations().keySet())
        .isSubsetOf(PodReviews.GANG_ANNOTATIONS)
        .isNotEmpty();
    assertThat(read.get("NodeNames")).isEqualTo(whole.get("NodeNames"));
  }
}
