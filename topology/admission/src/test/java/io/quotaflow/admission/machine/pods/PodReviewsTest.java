package io.quotaflow.admission.machine.pods;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.machine.AdmissionReviews;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.quota.QuotaPod;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pod webhook reads reviews into a few records rather than fabric8's whole admission model: the
 * pod it reads is the one fabric8's model gives, field for field as the core sees it, for every
 * shape of pod the adapter reads.
 */
class PodReviewsTest {

  static List<String> pods() {
    return List.of(
        // A ReplicaSet's pod, with fields the webhook never reads.
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\","
            + "\"uid\":\"u-1\",\"labels\":{\"app\":\"x\"},\"ownerReferences\":[{\"apiVersion\":"
            + "\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"rs\",\"uid\":\"r\"}],"
            + "\"managedFields\":[{\"manager\":\"m\",\"fieldsV1\":{\"f:spec\":{}}}]},"
            + "\"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"i\",\"resources\":"
            + "{\"requests\":{\"cpu\":\"10m\",\"memory\":\"16Mi\"},\"limits\":{\"memory\":"
            + "\"32Mi\"}}},{\"name\":\"b\",\"resources\":{\"limits\":{\"cpu\":\"1\"}}}],"
            + "\"tolerations\":[{\"key\":\"k\",\"operator\":\"Exists\"}],\"priority\":7},"
            + "\"status\":{\"phase\":\"Pending\",\"qosClass\":\"Burstable\"}}",
        // Quota labels, sidecars and init containers, pod overhead, pod-level resources, times.
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"q\",\"labels\":"
            + "{\"quota.scheduling.koordinator.sh/name\":\"team-a\","
            + "\"quota.scheduling.koordinator.sh/preemptible\":\"false\"},"
            + "\"creationTimestamp\":\"2026-01-02T03:04:05Z\","
            + "\"deletionTimestamp\":\"2026-01-02T04:00:00Z\"},"
            + "\"spec\":{\"nodeName\":\"n1\",\"initContainers\":[{\"name\":\"s\",\"restartPolicy\":"
            + "\"Always\",\"resources\":{\"requests\":{\"cpu\":\"200m\"}}},{\"name\":\"i\","
            + "\"resources\":{\"requests\":{\"cpu\":\"2\",\"nvidia.com/gpu\":1}}}],"
            + "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"500m\"}}}],"
            + "\"overhead\":{\"cpu\":\"50m\",\"memory\":\"1Gi\"},\"resources\":{\"requests\":"
            + "{\"memory\":\"2Gi\"}}},\"status\":{\"phase\":\"Running\",\"startTime\":"
            + "\"2026-01-02T03:05:00Z\"}}",
        // Unreadable quantities and times, no status, no namespace.
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"r\","
            + "\"creationTimestamp\":\"yesterday\"},\"spec\":{\"containers\":[{\"resources\":"
            + "{\"requests\":{\"cpu\":\"lots\",\"memory\":\"1Gi\"},\"limits\":{\"memory\":"
            + "\"much\"}}}]}}",
        // Numbers where strings usually are, nulls, a container without resources.
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"n\",\"labels\":"
            + "{\"x\":1,\"quota.scheduling.koordinator.sh/name\":null}},\"spec\":{\"priority\":"
            + "null,\"containers\":[{\"resources\":{\"requests\":{\"cpu\":1,\"memory\":0.5}}},"
            + "{\"resources\":null},{}],\"initContainers\":null,\"overhead\":null,\"resources\":"
            + "{\"limits\":{\"cpu\":\"2\"},\"claims\":[{\"name\":\"c\"}]}},\"status\":null}",
        // A Koordinator gang's member, beside an annotation that is not kept.
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"g-0\",\"namespace\":"
            + "\"alpha\",\"annotations\":{\"kubectl.kubernetes.io/last-applied-configuration\":"
            + "\"{\\\"kind\\\":\\\"Pod\\\"}\",\"gang.scheduling.koordinator.sh/name\":\"train\","
            + "\"gang.scheduling.koordinator.sh/min-available\":\"4\"}},\"spec\":{\"containers\":"
            + "[{\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}}",
        // Nothing but the kind.
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}");
  }

  @ParameterizedTest
  @MethodSource("pods")
  void aPodReadsAsFabric8sModelReadsIt(String object) throws BadRequestException {
    final byte[] body = review("CREATE", object, false);

    final PodReviews.Request fast = PodReviews.parse(body);
    final AdmissionRequest full = AdmissionReviews.parse(body);

    assertThat(fast.uid()).isEqualTo(full.getUid());
    assertThat(fast.operation()).isEqualTo(full.getOperation());
    assertThat(fast.dryRun()).isEqualTo(full.getDryRun());
    assertThat(fast.isAbout("", "Pod")).isEqualTo(AdmissionReviews.isAbout(full, "", "Pod"));
    assertThat(fast.describeKind()).isEqualTo(AdmissionReviews.describeKind(full));
    assertThat(fast.object().isPod()).isTrue();
    assertThat(asCore(fast.object().toPod())).isEqualTo(asCore((Pod) full.getObject()));
  }

  @Test
  void aPodsResourceClaimsAreReadAsFabric8ReadsThem() throws BadRequestException {
    final String object =
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"t\","
            + "\"namespace\":\"ml\"},\"spec\":{\"containers\":[{\"resources\":{\"claims\":"
            + "[{\"name\":\"gpu\"}]}}],\"resourceClaims\":[{\"name\":\"gpu\","
            + "\"resourceClaimTemplateName\":\"two-gpus\"},{\"name\":\"shared\","
            + "\"resourceClaimName\":\"pool\",\"unknown\":{\"x\":1}},{}]}}";
    final byte[] body = review("CREATE", object, false);

    final Pod fast = PodReviews.parse(body).object().toPod();
    final Pod full = (Pod) AdmissionReviews.parse(body).getObject();

    assertThat(fast.getSpec().getResourceClaims())
        .hasSize(3)
        .usingRecursiveFieldByFieldElementComparatorIgnoringFields("additionalProperties")
        .isEqualTo(full.getSpec().getResourceClaims());
    assertThat(fast.getSpec().getResourceClaims().get(0).getResourceClaimTemplateName())
        .isEqualTo("two-gpus");
  }

  @Test
  void theReviewIsCheckedAsTheFullModelChecksIt() throws BadRequestException {
    final String pod = pods().get(0);
    assertThat(message("{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}")).contains("apiVersion");
    assertThat(message("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}"))
        .contains("request");
    assertThat(message(new String(review("PATCH", pod, false), StandardCharsets.UTF_8)))
        .contains("operation");
    assertThat(message("{\"apiVersion\": ")).contains("not valid JSON");
    assertThat(message(new String(review("CREATE", pod, false), StandardCharsets.UTF_8) + "{}"))
        .contains("trailing");
    assertThat(
            PodReviews.parse(review("CREATE", pod.replace("\"Pod\"", "\"Deployment\""), true))
                .object()
                .isPod())
        .isFalse();
  }

  @Test
  void aFieldOfTheWrongTypeIsA400() {
    final String review =
        new String(review("CREATE", pods().get(0), false), StandardCharsets.UTF_8)
            .replace("\"uid\":\"r-1\"", "\"uid\":{}");

    assertThatThrownBy(() -> PodReviews.parse(review.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(BadRequestException.class)
        .hasMessageStartingWith("the AdmissionReview cannot be read");
    assertThatThrownBy(() -> AdmissionReviews.parse(review.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(BadRequestException.class)
        .hasMessageStartingWith("the AdmissionReview cannot be read");
  }

  private static String message(String body) {
    final Throwable thrown =
        org.assertj.core.api.Assertions.catchThrowable(
            () -> PodReviews.parse(body.getBytes(StandardCharsets.UTF_8)));
    assertThat(thrown).isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> AdmissionReviews.parse(body.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(BadRequestException.class)
        .hasMessage(thrown.getMessage());
    return thrown.getMessage();
  }

  private static QuotaPod asCore(Pod pod) {
    return PodAdapter.toQuotaPod(pod);
  }

  private static byte[] review(String operation, String object, boolean dryRun) {
    return ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
            + "\"uid\":\"r-1\",\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
            + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},"
            + "\"name\":\"p\",\"namespace\":\"ns\",\"operation\":\""
            + operation
            + "\",\"userInfo\":{\"username\":\"u\",\"groups\":[\"g\"]},\"object\":"
            + object
            + ",\"oldObject\":null,\"dryRun\":"
            + dryRun
            + ",\"options\":{\"kind\":\"CreateOptions\",\"apiVersion\":\"meta.k8s.io/v1\"}}}")
        .getBytes(StandardCharsets.UTF_8);
  }
}
