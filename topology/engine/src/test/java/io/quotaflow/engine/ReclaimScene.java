package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.ResourceList;
import java.time.Duration;

/**
 * The reclaim scene of the topology tests, on an {@link EngineDriver}: a 10-cpu cluster; team-a
 * (min 5, max 10) runs four 2-cpu pods a0..a3 (priority 0..3, started a second apart), borrowing
 * from an idle team-b (min 5, max 10). When team-b asks for its min, team-a's runtime drops to 5
 * cpu while it uses 8: it is over-used, and a0 and a1 are its victims.
 */
final class ReclaimScene {
  static final String EAST = "east";
  static final String NS = "apps";

  /** The engine's default revoke check interval. */
  static final Duration CHECK = Duration.ofSeconds(1);

  /** The engine's default revoke delay. */
  static final Duration DELAY = Duration.ofSeconds(120);

  private ReclaimScene() {}

  /** team-a runs pods a0..a3 (2 cpu each, priority 0..3) on a 10-cpu cluster, all borrowed. */
  static void teamABorrowsTheWholeCluster(final EngineDriver engine, final boolean nonPreemptible) {
    engine
        .putNode(EAST, "n1", node(10_000))
        .putQuota(EAST, "team-a", quota().min(cpu(5_000)).max(cpu(10_000)).build())
        .putQuota(EAST, "team-b", quota().min(cpu(5_000)).max(cpu(10_000)).build());
    for (int i = 0; i < 4; i++) {
      final Inputs.PodBuilder pod =
          pod("a" + i)
              .group("team-a")
              .running("n1", Inputs.CREATED.plusSeconds(i))
              .cpu(2_000)
              .priority(i);
      engine.putPod(EAST, NS, nonPreemptible ? pod.nonPreemptible() : pod);
    }
    engine.recompute();
    // A borrower is capped at its request.
    assertThat(engine.group(EAST, "team-a").runtime()).isEqualTo(ResourceList.of("cpu", 8_000));
  }

  /** team-b asks for its min: team-a's runtime drops to 5 cpu while it uses 8. */
  static void teamBClaimsItsMin(final EngineDriver engine) {
    engine.putPod(EAST, NS, pod("b0").group("team-b").cpu(5_000)).recompute();
    assertThat(engine.group(EAST, "team-a").runtime()).isEqualTo(ResourceList.of("cpu", 5_000));
  }
}
