package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoGenerationTest {

  @TempDir Path dataDir;

  @Test
  void aNewDataDirectoryHoldsGenerationZeroAndAnEvictionMovesTheNextRunOnByOne() {
    final DemoGeneration first = DemoGeneration.in(dataDir);

    first.podEvicted();
    first.podEvicted();

    assertThat(first.generation()).isZero();
    assertThat(DemoGeneration.in(dataDir).generation()).isEqualTo(1);
  }

  @Test
  void aRunWithoutEvictionLeavesTheGenerationAsItWasSoACrashRestartSeesTheSamePods() {
    DemoGeneration.in(dataDir).podEvicted();

    DemoGeneration.in(dataDir);

    assertThat(DemoGeneration.in(dataDir).generation()).isEqualTo(1);
  }

  @Test
  void podsOfALaterGenerationGetUidsFromItsOwnRange() throws Exception {
    Files.writeString(dataDir.resolve("demo-cluster-generation"), "3\n");
    final DemoGeneration third = DemoGeneration.in(dataDir);
    third.startUids();

    try (DemoCluster demo = DemoCluster.start()) {
      final Pod created =
          demo.client()
              .resource(
                  new PodBuilder()
                      .withNewMetadata()
                      .withNamespace("default")
                      .withName("p")
                      .endMetadata()
                      .build())
              .create();

      assertThat(UUID.fromString(created.getMetadata().getUid()).getLeastSignificantBits())
          .isGreaterThan(3L << 40);
    }
  }

  @Test
  void anEvictionTheDemoClusterAcceptsMovesTheGenerationOn() {
    final DemoGeneration generation = DemoGeneration.in(dataDir);
    try (DemoCluster demo = DemoCluster.start(generation::podEvicted)) {
      demo.create(
          new PodBuilder()
              .withNewMetadata()
              .withNamespace("default")
              .withName("victim")
              .endMetadata()
              .build());

      demo.client()
          .pods()
          .inNamespace("default")
          .withName("victim")
          .evict(
              new EvictionBuilder()
                  .withNewMetadata()
                  .withNamespace("default")
                  .withName("victim")
                  .endMetadata()
                  .build());
    }

    assertThat(DemoGeneration.in(dataDir).generation()).isEqualTo(1);
  }

  @Test
  void aDamagedGenerationFileStartsFromZero() throws Exception {
    Files.writeString(dataDir.resolve("demo-cluster-generation"), "not a number");

    assertThat(DemoGeneration.in(dataDir).generation()).isZero();
  }
}
