package io.quotaflow.dra;

import static io.quotaflow.dra.Dra.GPU;
import static io.quotaflow.dra.Dra.GPU_CLASS;
import static io.quotaflow.dra.Dra.claim;
import static io.quotaflow.dra.Dra.deviceClass;
import static io.quotaflow.dra.Dra.exact;
import static io.quotaflow.dra.Dra.fromClaim;
import static io.quotaflow.dra.Dra.fromTemplate;
import static io.quotaflow.dra.Dra.objects;
import static io.quotaflow.dra.Dra.pod;
import static io.quotaflow.dra.Dra.template;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.kube.QuotaLabels;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 39, point 3: devices quotaflow cannot count are never free (semantics.md section 22.9). A
 * pod whose claim, template or class is not read yet, or whose class no mapping names, is charged
 * nothing for them, so its {@code quota.scheduling.koordinator.sh/preemptible: "false"} is not
 * honoured until they can be counted; {@code quota.device.unmapped.class} may charge unmapped
 * classes by a fallback instead.
 */
class UnknownDevicesTest {

  private static final String NIC_CLASS = "nic.example.com";
  private static final ClaimedDevices DEFAULTS = new ClaimedDevices(DeviceClassMappings.defaults());

  private static Pod nonPreemptible(Pod pod) {
    return new PodBuilder(pod)
        .editMetadata()
        .withLabels(Map.of(QuotaLabels.PREEMPTIBLE, "false"))
        .endMetadata()
        .build();
  }

  private static QuotaPod charged(ClaimedDevices claimed, Pod pod, DraObjects objects) {
    return claimed.apply(pod, PodAdapter.toQuotaPod(pod), objects);
  }

  @Test
  void aNonPreemptiblePodWhoseClaimIsNotKnownCountsAsPreemptible() {
    final Pod pod = nonPreemptible(pod("hold", fromClaim("gpus", "eight-gpus")));
    final DraObjects none = objects(List.of(), List.of(), List.of(), List.of());

    final DeviceCharge charge = DEFAULTS.charge(pod, none);

    assertThat(charge.resolved()).isFalse();
    assertThat(charge.unresolved())
        .singleElement()
        .satisfies(
            unresolved -> {
              assertThat(unresolved.kind()).isEqualTo(Unresolved.Kind.NOT_KNOWN);
              assertThat(unresolved.object())
                  .isEqualTo("ResourceClaim " + Dra.NAMESPACE + "/eight-gpus");
            });
    assertThat(PodAdapter.toQuotaPod(pod).preemptible()).isFalse();
    assertThat(charged(DEFAULTS, pod, none).preemptible()).isTrue();
  }

  @Test
  void onceTheClaimIsKnownThePodIsChargedAndItsLabelHonoured() {
    final Pod pod = nonPreemptible(pod("hold", fromClaim("gpus", "eight-gpus")));
    final DraObjects known =
        objects(
            List.of(),
            List.of(claim("eight-gpus", exact("gpu", GPU_CLASS, 8L))),
            List.of(),
            List.of());

    final QuotaPod read = charged(DEFAULTS, pod, known);

    assertThat(read.preemptible()).isFalse();
    assertThat(read.request().get(GPU)).isEqualTo(8);
  }

  @Test
  void aTemplateOrAClassNotKnownIsNotKnownAndAKnownUnmappedClassIsUnmapped() {
    final Pod fromMissingTemplate = pod("t", fromTemplate("gpus", "missing"));
    final Pod unknownClass = pod("c", fromTemplate("nics", "nics"));
    final DraObjects templateOnly =
        objects(
            List.of(),
            List.of(),
            List.of(template("nics", exact("nic", NIC_CLASS, 2L))),
            List.of());
    final DraObjects withClass =
        objects(
            List.of(deviceClass(NIC_CLASS, null)),
            List.of(),
            List.of(template("nics", exact("nic", NIC_CLASS, 2L))),
            List.of());

    assertThat(DEFAULTS.charge(fromMissingTemplate, templateOnly).unresolved())
        .extracting(Unresolved::kind)
        .containsExactly(Unresolved.Kind.NOT_KNOWN);
    assertThat(DEFAULTS.charge(unknownClass, templateOnly).unresolved())
        .extracting(Unresolved::kind, Unresolved::object)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                Unresolved.Kind.NOT_KNOWN, "DeviceClass " + NIC_CLASS));
    assertThat(DEFAULTS.charge(unknownClass, withClass).unresolved())
        .extracting(Unresolved::kind)
        .containsExactly(Unresolved.Kind.UNMAPPED);
  }

  @Test
  void aFallbackChargesTheDevicesOfEveryUnmappedClass() {
    final ClaimedDevices fallback =
        new ClaimedDevices(
            DeviceClassMappings.defaults()
                .withUnmapped(UnmappedClasses.parse("nvidia.com/gpu x 2")));
    final Pod pod = nonPreemptible(pod("c", fromTemplate("nics", "nics")));
    final DraObjects templateOnly =
        objects(
            List.of(),
            List.of(),
            List.of(template("nics", exact("nic", NIC_CLASS, 3L))),
            List.of());

    final DeviceCharge charge = fallback.charge(pod, templateOnly);

    assertThat(charge.resolved()).isTrue();
    assertThat(charge.devices()).isEqualTo(ResourceList.of(GPU, 6));
    assertThat(charged(fallback, pod, templateOnly).preemptible()).isFalse();
    // The fallback is no mapping: the cluster total does not count devices by it.
    assertThat(fallback.supply(templateOnly).problems()).isEmpty();
  }

  @Test
  void theSettingIsDenyOrAResourceWithACount() {
    assertThat(UnmappedClasses.parse("deny")).isEqualTo(UnmappedClasses.DENY);
    assertThat(UnmappedClasses.parse("")).isEqualTo(UnmappedClasses.DENY);
    assertThat(UnmappedClasses.parse("quotaflow.io/device"))
        .isEqualTo(new UnmappedClasses(Optional.of("quotaflow.io/device"), 1));
    assertThat(UnmappedClasses.parse(" nvidia.com/gpu * 4 "))
        .isEqualTo(new UnmappedClasses(Optional.of("nvidia.com/gpu"), 4));
    assertThatThrownBy(() -> UnmappedClasses.parse("a -> b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("neither deny nor a fallback");
    assertThatThrownBy(() -> UnmappedClasses.parse("nvidia.com/gpu x 0"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
