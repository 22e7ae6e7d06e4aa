package io.quotaflow.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.tree.ClusterInputs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Manifests whose pods claim no devices are read as before DRA, DRA objects or not. */
class ManifestDraProperties {

  @Property(tries = 200)
  void podsWithoutClaimsAreReadBitForBitAsPodAdapterReadsThem(
      @ForAll @Size(min = 1, max = 6) List<@IntRange(max = 16) Integer> gpus,
      @ForAll @IntRange(max = 4) int draObjects)
      throws BadInputException {
    final List<Manifest> manifests = new ArrayList<>();
    final List<QuotaPod> expected = new ArrayList<>();
    for (int i = 0; i < gpus.size(); i++) {
      final Pod pod =
          new PodBuilder()
              .withNewMetadata()
              .withNamespace("team")
              .withName("p" + i)
              .endMetadata()
              .withNewSpec()
              .addNewContainer()
              .withName("c")
              .withNewResources()
              .withRequests(
                  Map.of(
                      "cpu", new Quantity("1"), "nvidia.com/gpu", new Quantity(gpus.get(i) + "")))
              .endResources()
              .endContainer()
              .endSpec()
              .build();
      manifests.add(manifest(manifests.size(), pod));
      expected.add(PodAdapter.toQuotaPod(pod));
    }
    for (int i = 0; i < draObjects; i++) {
      manifests.add(
          manifest(
              manifests.size(),
              new ResourceClaimTemplateBuilder()
                  .withNewMetadata()
                  .withNamespace("team")
                  .withName("t" + i)
                  .endMetadata()
                  .withNewSpec()
                  .withNewSpec()
                  .withNewDevices()
                  .addNewRequest()
                  .withName("g")
                  .withNewExactly()
                  .withDeviceClassName("gpu.nvidia.com")
                  .withCount(2L)
                  .endExactly()
                  .endRequest()
                  .endDevices()
                  .endSpec()
                  .endSpec()
                  .build()));
      manifests.add(
          manifest(
              manifests.size(),
              new ResourceClaimBuilder()
                  .withNewMetadata()
                  .withNamespace("team")
                  .withName("c" + i)
                  .endMetadata()
                  .withNewSpec()
                  .endSpec()
                  .build()));
    }
    final List<String> warnings = new ArrayList<>();

    final ClusterInputs inputs = ManifestInputs.toClusterInputs(manifests, warnings::add);

    assertThat(inputs.pods()).isEqualTo(expected);
    assertThat(warnings).isEmpty();
  }

  private static Manifest manifest(int index, HasMetadata object) {
    return new Manifest("m.yaml", index + 1, OptionalInt.empty(), object);
  }
}
