package io.quotaflow.status;

import static io.quotaflow.fixtures.KubeObjects.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.quotaflow.fixtures.KubeObjects.QuotaFixture;
import io.quotaflow.schemas.GroupReservation;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.ReservationPolicy;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuotaStatusTest {

  private final QuotaStatus status =
      QuotaStatus.of(
          GroupRuntime.newBuilder()
              .setRuntime(Map.of("memory", 3L << 30, "cpu", 1_500L, "nvidia.com/gpu", 2L))
              .setRequest(Map.of("cpu", 2_000L))
              .setUsed(Map.of("cpu", 1_000L, "memory", 1L << 30))
              .setNonPreemptibleRequest(Map.of("cpu", 500L))
              .setNonPreemptibleUsed(Map.of("cpu", 250L))
              .setComputedAt(Instant.EPOCH)
              .build());

  @Test
  void annotationsAreJsonResourceListsOfQuantitiesSortedByName() {
    assertThat(status.runtime())
        .isEqualTo("{\"cpu\":\"1500m\",\"memory\":\"3Gi\",\"nvidia.com/gpu\":\"2\"}");
    assertThat(status.request()).isEqualTo("{\"cpu\":\"2\"}");
    assertThat(status.used()).containsExactly(Map.entry("cpu", "1"), Map.entry("memory", "1Gi"));
  }

  @Test
  void theAnnotationsPatchSetsKoordinatorsAnnotationsAndNothingElse() {
    assertThat(status.annotationsPatch())
        .isEqualTo(
            "{\"metadata\":{\"annotations\":{"
                + "\"quota.scheduling.koordinator.sh/runtime\":"
                + "\"{\\\"cpu\\\":\\\"1500m\\\",\\\"memory\\\":\\\"3Gi\\\",\\\"nvidia.com/gpu\\\":\\\"2\\\"}\","
                + "\"quota.scheduling.koordinator.sh/request\":\"{\\\"cpu\\\":\\\"2\\\"}\","
                + "\"quota.scheduling.koordinator.sh/non-preemptible-request\":"
                + "\"{\\\"cpu\\\":\\\"500m\\\"}\","
                + "\"quota.scheduling.koordinator.sh/non-preemptible-used\":"
                + "\"{\\\"cpu\\\":\\\"250m\\\"}\"}}}");
  }

  @Test
  void anObjectShowingTheSameAnnotationsNeedsNoAnnotationWrite() {
    final GenericKubernetesResource shown = showingKoordinatorsAnnotations().build();
    final GenericKubernetesResource stale =
        quota("ns", "a")
            .annotation(QuotaStatus.RUNTIME_ANNOTATION, status.runtime())
            .annotation(QuotaStatus.REQUEST_ANNOTATION, "{\"cpu\":\"1\"}")
            .build();

    assertThat(status.annotationsShownBy(shown)).isTrue();
    assertThat(status.annotationsShownBy(stale)).isFalse();
    assertThat(status.annotationsShownBy(quota("ns", "a").build())).isFalse();
  }

  /** Quota "a" showing Koordinator's four annotations as {@link #status} has them. */
  private QuotaFixture showingKoordinatorsAnnotations() {
    return quota("ns", "a")
        .annotation(QuotaStatus.RUNTIME_ANNOTATION, status.runtime())
        .annotation(QuotaStatus.REQUEST_ANNOTATION, status.request())
        .annotation(QuotaStatus.NON_PREEMPTIBLE_REQUEST_ANNOTATION, status.nonPreemptibleRequest())
        .annotation(QuotaStatus.NON_PREEMPTIBLE_USED_ANNOTATION, status.nonPreemptibleUsed());
  }

  @Test
  void usedIsComparedIgnoringResourcesSetToNull() {
    final Map<String, Object> used = new LinkedHashMap<>();
    used.put("cpu", "1");
    used.put("memory", "1Gi");
    used.put("pods", null);

    assertThat(status.usedShownBy(withUsed(used))).isTrue();
    assertThat(status.usedShownBy(withUsed(Map.of("cpu", "1")))).isFalse();
    assertThat(status.usedShownBy(quota("ns", "a").build())).isFalse();
  }

  @Test
  void theUsedPatchRemovesResourcesNoLongerUsed() {
    final GenericKubernetesResource object =
        withUsed(Map.of("cpu", "9", "memory", "1Gi", "nvidia.com/gpu", "1"));

    assertThat(status.usedPatch(object))
        .isEqualTo(
            "{\"status\":{\"used\":{\"cpu\":\"1\",\"memory\":\"1Gi\",\"nvidia.com/gpu\":null}}}");
  }

  @Test
  void theObjectPatchCarriesTheAnnotationsAndStatusUsedInOneMergePatch() {
    final GenericKubernetesResource object = withUsed(Map.of("cpu", "9", "pods", "3"));

    assertThat(status.objectPatch(object, StatusMode.KOORDINATOR, false, true))
        .isEqualTo("{\"status\":{\"used\":{\"cpu\":\"1\",\"memory\":\"1Gi\",\"pods\":null}}}");
    assertThat(status.objectPatch(object, StatusMode.KOORDINATOR, true, true))
        .startsWith("{\"metadata\":{\"annotations\":{\"quota.scheduling.koordinator.sh/runtime\":")
        .endsWith(",\"status\":{\"used\":{\"cpu\":\"1\",\"memory\":\"1Gi\",\"pods\":null}}}");
  }

  private static GenericKubernetesResource withUsed(final Map<String, Object> used) {
    final GenericKubernetesResource object = quota("ns", "a").build();
    object.getAdditionalProperties().put("status", Map.of("used", used));
    return object;
  }

  @Test
  void inShadowModeThePatchSetsQuotaflowsAnnotationsAndLeavesKoordinatorsAlone() {
    final GenericKubernetesResource koordinatorOnly =
        quota("ns", "team-a")
            .annotation(QuotaStatus.RUNTIME_ANNOTATION, status.runtime())
            .annotation(QuotaStatus.REQUEST_ANNOTATION, status.request())
            .build();
    final GenericKubernetesResource shadowed =
        quota("ns", "team-a")
            .annotation("quotaflow.io/runtime", status.runtime())
            .annotation("quotaflow.io/request", status.request())
            .build();

    assertThat(status.annotationsPatch(StatusMode.SHADOW))
        .contains("\"quotaflow.io/runtime\":", "\"quotaflow.io/request\":")
        .doesNotContain("koordinator", "status");
    assertThat(status.annotationsShownBy(koordinatorOnly, StatusMode.SHADOW)).isFalse();
    assertThat(status.annotationsShownBy(shadowed, StatusMode.SHADOW)).isTrue();
    assertThat(status.annotationsShownBy(shadowed)).isFalse();
  }

  @Test
  void aReservingGroupShowsItsLockedNodesSatisfiedAndIdleInQuotaflowsAnnotationInEitherMode() {
    final QuotaStatus reserving = QuotaStatus.of(withReservation(List.of("n1", "n2")));

    final String expected =
        "{\"nodes\":[\"n1\",\"n2\"],\"satisfied\":true,\"idle\":{\"cpu\":3000},"
            + "\"policy\":\"Guaranteed\",\"valid\":true,\"reason\":null,"
            + "\"target\":{\"cpu\":16000},\"minNodes\":0}";
    assertThat(reserving.reservation()).contains(expected);
    assertThat(reserving.annotations(StatusMode.KOORDINATOR))
        .containsEntry(QuotaStatus.RESERVATION_STATUS_ANNOTATION, expected);
    assertThat(reserving.annotations(StatusMode.SHADOW))
        .containsEntry(QuotaStatus.RESERVATION_STATUS_ANNOTATION, expected);
    assertThat(status.reservation()).isEmpty();
    assertThat(status.annotations()).doesNotContainKey(QuotaStatus.RESERVATION_STATUS_ANNOTATION);
  }

  @Test
  void aGroupThatNoLongerReservesNodesHasTheAnnotationRemoved() {
    final GenericKubernetesResource stillShowing =
        showingKoordinatorsAnnotations()
            .annotation(QuotaStatus.RESERVATION_STATUS_ANNOTATION, "{\"nodes\":[\"n1\"]}")
            .build();

    assertThat(status.annotationsShownBy(stillShowing)).isFalse();
    assertThat(status.annotationsPatch(stillShowing, StatusMode.KOORDINATOR))
        .contains("\"quotaflow.io/reservation-status\":null");
    assertThat(status.annotationsPatch(quota("ns", "a").build(), StatusMode.KOORDINATOR))
        .doesNotContain("reservation-status");
  }

  @Test
  void withGuaranteedUsageKoordinatorsGuaranteedAnnotationIsWrittenInKoordinatorsModeOnly() {
    final QuotaStatus guaranteed =
        QuotaStatus.of(
            GroupRuntime.newBuilder()
                .setRuntime(Map.of("cpu", 5_000L))
                .setGuaranteed(Map.of("cpu", 3_500L, "memory", 2L << 30))
                .setComputedAt(Instant.EPOCH)
                .build());

    assertThat(guaranteed.annotations())
        .containsEntry(
            "quota.scheduling.koordinator.sh/guaranteed", "{\"cpu\":\"3500m\",\"memory\":\"2Gi\"}");
    assertThat(guaranteed.annotations(StatusMode.SHADOW))
        .doesNotContainKey("quota.scheduling.koordinator.sh/guaranteed");
    assertThat(status.annotations())
        .doesNotContainKey("quota.scheduling.koordinator.sh/guaranteed");
  }

  @Test
  void aGroupWithoutGuaranteedUsageHasKoordinatorsGuaranteedAnnotationRemoved() {
    // The gate was on, then turned off: the object still shows the guaranteed amount.
    final GenericKubernetesResource stillShowing =
        showingKoordinatorsAnnotations()
            .annotation("quota.scheduling.koordinator.sh/guaranteed", "{\"cpu\":\"3500m\"}")
            .build();

    assertThat(status.annotationsShownBy(stillShowing)).isFalse();
    assertThat(status.annotationsPatch(stillShowing, StatusMode.KOORDINATOR))
        .contains("\"quota.scheduling.koordinator.sh/guaranteed\":null");
    // Shadow mode never writes Koordinator's annotations, so it leaves this one alone too.
    assertThat(status.annotationsShownBy(stillShowing, StatusMode.SHADOW))
        .isEqualTo(status.annotationsShownBy(quota("ns", "a").build(), StatusMode.SHADOW));
    assertThat(status.annotationsPatch(stillShowing, StatusMode.SHADOW))
        .doesNotContain("guaranteed");
    assertThat(status.annotationsPatch(quota("ns", "a").build(), StatusMode.KOORDINATOR))
        .doesNotContain("guaranteed");
  }

  private static GroupRuntime withReservation(final List<String> nodes) {
    return GroupRuntime.newBuilder()
        .setRuntime(Map.of("cpu", 1_000L))
        .setReservation(
            GroupReservation.newBuilder()
                .setPolicy(ReservationPolicy.GUARANTEED)
                .setValid(true)
                .setReason(null)
                .setTarget(Map.of("cpu", 16_000L))
                .setMinNodes(0)
                .setNodes(nodes)
                .setSatisfied(true)
                .setIdle(Map.of("cpu", 3_000L))
                .setRequestedAt(Instant.EPOCH)
                .build())
        .setComputedAt(Instant.EPOCH)
        .build();
  }
}
