package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;

import io.quotaflow.engine.reclaim.EvictionCommands;
import java.util.List;

/**
 * The reclaim scene of the crash tests, written to a broker for one cluster: dept "reclaim" (min =
 * max = 10 cpu, lending off) on a 100-cpu node holds team-a (min 5, max 10) and team-b (min 5, max
 * 10); team-a runs four 2-cpu pods a0..a3 (priority 0..3), borrowing team-b's idle min. When team-b
 * asks for its min, team-a's runtime drops to 5 while it uses 8, so after the revoke delay a0 and
 * a1 are evicted.
 */
final class DepartmentReclaimScene {
  static final String NS = "apps";

  private DepartmentReclaimScene() {}

  /** The node, the three groups and team-a's pods of {@code cluster}. */
  static void put(final KafkaInputs inputs, final String cluster) {
    inputs
        .putNode(cluster, "big", node(100_000))
        .putQuota(
            cluster,
            "reclaim",
            quota().isParent().min(cpu(10_000)).max(cpu(10_000)).allowLent(false).build())
        .putQuota(
            cluster, "team-a", quota().parent("reclaim").min(cpu(5_000)).max(cpu(10_000)).build())
        .putQuota(
            cluster, "team-b", quota().parent("reclaim").min(cpu(5_000)).max(cpu(10_000)).build());
    for (int i = 0; i < 4; i++) {
      inputs.putPod(
          cluster, NS, pod("a" + i).group("team-a").running("big").cpu(2_000).priority(i));
    }
  }

  /** team-b asks for its min with a pending 5-cpu pod, b0: team-a is over-used. */
  static void teamBClaimsItsMin(final KafkaInputs inputs, final String cluster) {
    inputs.putPod(cluster, NS, pod("b0").group("team-b").cpu(5_000));
  }

  /** The ids of the first commands for the victims of {@code cluster}: a0's, then a1's. */
  static List<String> victimCommandIds(final String cluster) {
    return List.of(
        EvictionCommands.commandId(cluster, NS, "a0", "a0-uid"),
        EvictionCommands.commandId(cluster, NS, "a1", "a1-uid"));
  }
}
