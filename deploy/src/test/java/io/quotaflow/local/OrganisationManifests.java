package io.quotaflow.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An organisation exported as a user would export it, one manifest file per kind: departments
 * (parent ElasticQuotas) of teams (leaf ElasticQuotas whose pods run in the namespace named like
 * them), each team with running pods inside its min and, every third team, one more pod, pending,
 * that asks for more, on nodes with room for every min. Nothing is over its runtime, so nothing is
 * evicted: the tree stays as {@code simulate} computes it from the files.
 *
 * <p>{@code main} writes the organisation of issue 32's size (20 departments of 100 teams, 2,020
 * ElasticQuotas, 20,000 running pods and 667 pending, 200 nodes) for bench/run-local-bench.sh.
 *
 * @param departments parent groups under the root
 * @param teamsPerDepartment leaf groups under each department
 * @param podsPerTeam running pods of each team
 * @param nodes nodes of 64 cores and 256Gi each
 */
record OrganisationManifests(int departments, int teamsPerDepartment, int podsPerTeam, int nodes) {

  /** The size issue 32 reported. */
  static final OrganisationManifests ISSUE_32 = new OrganisationManifests(20, 100, 10, 200);

  private static final int TEAM_MIN_CPU = 4;
  private static final int TEAM_MIN_GI = 16;

  OrganisationManifests {
    if (departments < 1 || teamsPerDepartment < 1 || podsPerTeam < 1 || nodes < 1) {
      throw new IllegalArgumentException(
          "an organisation needs a department, a team, a pod, a node");
    }
    final long teams = (long) departments * teamsPerDepartment;
    if (teams * TEAM_MIN_CPU > nodes * 64L) {
      throw new IllegalArgumentException("the nodes do not hold every team's min: add nodes");
    }
  }

  /** ElasticQuotas, departments and teams. */
  int quotas() {
    return departments + departments * teamsPerDepartment;
  }

  /** Pods, running and pending. */
  int pods() {
    final int teams = departments * teamsPerDepartment;
    return teams * podsPerTeam + (teams + 2) / 3;
  }

  /** Every object the files hold. */
  int objects() {
    return quotas() + pods() + nodes;
  }

  /** Writes quotas.yaml, pods.yaml and nodes.yaml into {@code dir} (created when missing). */
  Path writeTo(final Path dir) {
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("quotas.yaml"), quotasYaml());
      Files.writeString(dir.resolve("pods.yaml"), podsYaml());
      Files.writeString(dir.resolve("nodes.yaml"), nodesYaml());
      return dir;
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String quotasYaml() {
    final StringBuilder yaml = new StringBuilder();
    for (int d = 0; d < departments; d++) {
      final String department = department(d);
      final int cpu = TEAM_MIN_CPU * teamsPerDepartment;
      final int memory = TEAM_MIN_GI * teamsPerDepartment;
      yaml.append(
          """
          apiVersion: scheduling.sigs.k8s.io/v1alpha1
          kind: ElasticQuota
          metadata:
            name: %s
            namespace: quotas
            labels:
              quota.scheduling.koordinator.sh/is-parent: "true"
          spec:
            min: {cpu: "%d", memory: %dGi}
            max: {cpu: "%d", memory: %dGi}
          ---
          """
              .formatted(department, cpu, memory, 2 * cpu, 2 * memory));
      for (int t = 0; t < teamsPerDepartment; t++) {
        yaml.append(
            """
            apiVersion: scheduling.sigs.k8s.io/v1alpha1
            kind: ElasticQuota
            metadata:
              name: %s
              namespace: quotas
              labels:
                quota.scheduling.koordinator.sh/parent: %s
            spec:
              min: {cpu: "%d", memory: %dGi}
              max: {cpu: "%d", memory: %dGi}
            ---
            """
                .formatted(
                    team(d, t),
                    department,
                    TEAM_MIN_CPU,
                    TEAM_MIN_GI,
                    3 * TEAM_MIN_CPU,
                    3 * TEAM_MIN_GI));
      }
    }
    return yaml.toString();
  }

  private String podsYaml() {
    final StringBuilder yaml = new StringBuilder();
    // Running pods take 90% of the team's min between them.
    final long runningMilliCpu = TEAM_MIN_CPU * 900L / podsPerTeam;
    final long runningMi = TEAM_MIN_GI * 1024L * 9 / 10 / podsPerTeam;
    int serial = 0;
    for (int d = 0; d < departments; d++) {
      for (int t = 0; t < teamsPerDepartment; t++) {
        final String team = team(d, t);
        final boolean asksForMore = (d * teamsPerDepartment + t) % 3 == 0;
        for (int p = 0; p < podsPerTeam + (asksForMore ? 1 : 0); p++) {
          final boolean pending = p == podsPerTeam;
          final String name = "worker-" + p;
          yaml.append(
              """
              apiVersion: v1
              kind: Pod
              metadata:
                name: %s
                namespace: %s
                uid: %s-%s
                creationTimestamp: "2024-06-01T00:00:00Z"
              spec:
              %s  priority: %d
                containers:
                - name: main
                  image: example/worker
                  resources:
                    requests: {cpu: %dm, memory: %dMi}
              status:
                phase: %s
              ---
              """
                  .formatted(
                      name,
                      team,
                      team,
                      name,
                      pending ? "" : "  nodeName: " + node(serial++ % nodes) + "\n",
                      p * 10,
                      pending ? 2000 : runningMilliCpu,
                      pending ? 4096 : runningMi,
                      pending ? "Pending" : "Running"));
        }
      }
    }
    return yaml.toString();
  }

  private String nodesYaml() {
    final StringBuilder yaml = new StringBuilder();
    for (int n = 0; n < nodes; n++) {
      yaml.append(
          """
          apiVersion: v1
          kind: Node
          metadata:
            name: %s
          status:
            capacity: {cpu: "64", memory: 256Gi, pods: "250"}
            allocatable: {cpu: "64", memory: 256Gi, pods: "250"}
            conditions:
            - {type: Ready, status: "True"}
          ---
          """
              .formatted(node(n)));
    }
    return yaml.toString();
  }

  static String department(final int index) {
    return "dept-%02d".formatted(index);
  }

  static String team(final int department, final int team) {
    return "dept-%02d-team-%03d".formatted(department, team);
  }

  private static String node(final int index) {
    return "node-%03d".formatted(index);
  }

  /** Writes the organisation of issue 32's size into the directory given. */
  public static void main(final String[] args) {
    if (args.length != 1) {
      System.err.println("usage: OrganisationManifests DIR");
      System.exit(2);
    }
    final Path dir = ISSUE_32.writeTo(Path.of(args[0]));
    System.out.printf(
        "%d ElasticQuotas, %d pods, %d nodes in %s%n",
        ISSUE_32.quotas(), ISSUE_32.pods(), ISSUE_32.nodes(), dir);
  }
}
