package io.quotaflow.evict;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.quotaflow.schemas.PodKey;
import org.junit.jupiter.api.Test;

class EvictionBodyTest {

  @Test
  void theEvictionIsPolicyV1AndOnlyAppliesToTheCommandsUid() {
    final PodKey key =
        PodKey.newBuilder().setCluster("east").setNamespace("team-a").setName("web-1").build();

    final Eviction eviction = PodEvictor.eviction(key, "uid-1");

    assertThat(eviction.getApiVersion()).isEqualTo("policy/v1");
    assertThat(eviction.getKind()).isEqualTo("Eviction");
    assertThat(eviction.getMetadata().getNamespace()).isEqualTo("team-a");
    assertThat(eviction.getMetadata().getName()).isEqualTo("web-1");
    assertThat(eviction.getDeleteOptions().getPreconditions().getUid()).isEqualTo("uid-1");
  }
}
