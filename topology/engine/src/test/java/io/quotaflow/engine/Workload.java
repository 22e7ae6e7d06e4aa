package io.quotaflow.engine;

import static io.quotaflow.engine.Inputs.cpu;
import static io.quotaflow.engine.Inputs.node;
import static io.quotaflow.engine.Inputs.pod;
import static io.quotaflow.engine.Inputs.quota;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A deterministic stream of input events over several clusters: nodes, a two-level tree of valid
 * groups, and pods created, updated (bound, resized), moved between groups by label, and deleted;
 * now and then a group's spec or a node's capacity changes.
 */
final class Workload {
  private static final String NS = "apps";

  private final Random random;
  private final List<String> clusters;

  Workload(final long seed, final List<String> clusters) {
    this.random = new Random(seed);
    this.clusters = List.copyOf(clusters);
  }

  /** Sends about {@code eventsPerCluster} events per cluster; returns the number sent. */
  int send(final KafkaInputs inputs, final int eventsPerCluster) {
    int sent = 0;
    final List<String> leaves = new ArrayList<>();
    for (final String cluster : clusters) {
      for (int n = 0; n < 3; n++) {
        inputs.putNode(cluster, "node-" + n, node(16_000 + 4_000L * n));
        sent++;
      }
      for (int d = 0; d < 2; d++) {
        final String dept = "dept-" + d;
        inputs.putQuota(
            cluster, dept, quota().isParent().min(cpu(12_000)).max(cpu(40_000)).build());
        sent++;
        for (int t = 0; t < 3; t++) {
          final String team = dept + "-team-" + t;
          inputs.putQuota(
              cluster,
              team,
              quota()
                  .parent(dept)
                  .min(cpu(2_000 + 1_000L * t))
                  .max(cpu(20_000))
                  .allowLent(t != 1)
                  .build());
          sent++;
          if (leaves.size() < 6) {
            leaves.add(team);
          }
        }
      }
    }
    final int pods = Math.max(10, eventsPerCluster / 4);
    for (int i = 0; i < eventsPerCluster; i++) {
      for (final String cluster : clusters) {
        final String name = "pod-" + random.nextInt(pods);
        final int action = random.nextInt(20);
        if (action < 3) {
          inputs.deletePod(cluster, NS, name);
        } else if (action == 3) {
          final String team = leaves.get(random.nextInt(leaves.size()));
          final String dept = team.substring(0, team.indexOf("-team-"));
          inputs.putQuota(
              cluster,
              team,
              quota()
                  .parent(dept)
                  .min(cpu(1_000L * (1 + random.nextInt(4))))
                  .max(cpu(5_000L * (1 + random.nextInt(4))))
                  .allowLent(random.nextBoolean())
                  .build());
        } else if (action == 4) {
          inputs.putNode(
              cluster, "node-" + random.nextInt(3), node(8_000L * (1 + random.nextInt(4))));
        } else {
          // Create, update, bind, resize or move (a new label) a pod; some match no group.
          final String group =
              random.nextInt(10) == 0 ? "nowhere" : leaves.get(random.nextInt(leaves.size()));
          final Inputs.PodBuilder builder =
              pod(name)
                  .group(group)
                  .cpu(100L * (1 + random.nextInt(30)))
                  .priority(random.nextInt(5));
          if (random.nextInt(3) > 0) {
            builder.running("node-" + random.nextInt(3));
          }
          inputs.putPod(cluster, NS, builder);
        }
        sent++;
      }
    }
    inputs.flush();
    return sent;
  }
}
