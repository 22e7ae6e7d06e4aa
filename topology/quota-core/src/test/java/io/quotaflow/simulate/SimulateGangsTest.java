package io.quotaflow.simulate;

import static io.quotaflow.simulate.Manifests.documents;
import static io.quotaflow.simulate.Manifests.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.quota.SpecialGroups;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code simulate} shows each group's gangs (docs/semantics.md 21.4): a scheduler-plugins gang
 * running whole, a Koordinator gang short of its min-available, a Volcano gang waiting, and a
 * Volcano gang whose PodGroup is not among the manifests; a group without gangs as before.
 */
class SimulateGangsTest {

  private static final String SCHEDULER_PLUGINS = "scheduling.x-k8s.io/v1alpha1";
  private static final String VOLCANO = "scheduling.volcano.sh/v1beta1";

  @TempDir Path dir;
  private Path withGangs;
  private Path withoutGangs;

  @BeforeEach
  void manifests() {
    final List<String> gangPods = new ArrayList<>();
    final List<String> plainPods = new ArrayList<>();
    final String plugins = "{scheduling.x-k8s.io/pod-group: train}";
    final String koord =
        "{gang.scheduling.koordinator.sh/name: mpi,"
            + " gang.scheduling.koordinator.sh/min-available: \"4\"}";
    final String volcano = "{scheduling.k8s.io/group-name: job}";
    final String loose = "{scheduling.k8s.io/group-name: loose}";
    for (int i = 1; i <= 3; i++) {
      add(gangPods, plainPods, "train-" + i, "n1", plugins, "{}");
    }
    add(gangPods, plainPods, "mpi-1", "n1", "{}", koord);
    add(gangPods, plainPods, "mpi-2", "n1", "{}", koord);
    add(gangPods, plainPods, "mpi-3", null, "{}", koord);
    add(gangPods, plainPods, "job-1", null, "{}", volcano);
    add(gangPods, plainPods, "job-2", null, "{}", volcano);
    add(gangPods, plainPods, "loose-1", "n1", "{}", loose);
    final List<String> common =
        List.of(
            Manifests.node("n1", "{cpu: \"64\", memory: 256Gi}"),
            Manifests.quota("team-a", null, "{cpu: \"8\"}", "{cpu: \"32\"}"),
            Manifests.quota("team-b", null, "{cpu: \"8\"}", "{cpu: \"32\"}"),
            Manifests.pod("solo", "team-b", "n1", "{cpu: \"1\"}"),
            podGroup(SCHEDULER_PLUGINS, "train", 3),
            podGroup(VOLCANO, "job", 2));
    final List<String> gangDocs = new ArrayList<>(common);
    gangDocs.addAll(gangPods);
    final List<String> plainDocs = new ArrayList<>(common);
    plainDocs.addAll(plainPods);
    withGangs =
        write(dir.resolve("gangs/cluster.yaml"), documents(gangDocs.toArray(String[]::new)));
    withoutGangs =
        write(dir.resolve("plain/cluster.yaml"), documents(plainDocs.toArray(String[]::new)));
  }

  @Test
  void eachGroupWithGangsListsThemByNameWithTheirCountsAndState() {
    final SimulateRun run = SimulateRun.of("-f", withGangs.toString(), "--output", "json");

    assertThat(run.exitCode()).isZero();
    final JsonNode gangs = run.quota("team-a").get("gangs");
    assertThat(gangs.toString())
        .isEqualTo(
            "["
                + gang("job", "volcano", "2", 2, 0, 2, "waiting")
                + ","
                + gang("loose", "volcano", "null", 1, 1, 0, "running")
                + ","
                + gang("mpi", "koordinator", "4", 3, 2, 1, "incomplete")
                + ","
                + gang("train", "scheduler-plugins", "3", 3, 3, 0, "running")
                + "]");
    assertThat(run.quota("team-b").has("gangs")).as("a group without gangs").isFalse();
    assertThat(run.quota(SpecialGroups.ROOT).has("gangs")).isFalse();
  }

  @Test
  void gangsOnlyAddTheirFieldTheRestOfTheJsonIsWhatTheSamePodsWithoutGangsGive() {
    final SimulateRun gangs = SimulateRun.of("-f", withGangs.toString(), "--output", "json");
    final SimulateRun plain = SimulateRun.of("-f", withoutGangs.toString(), "--output", "json");

    final JsonNode stripped = gangs.json();
    stripped.get("quotas").forEach(quota -> ((ObjectNode) quota).remove("gangs"));
    assertThat(stripped).isEqualTo(plain.json());
    assertThat(plain.out()).doesNotContain("gangs");
  }

  @Test
  void theTableShowsALinePerGangUnderItsGroupAndNoneWithoutGangs() {
    final SimulateRun gangs = SimulateRun.of("-f", withGangs.toString());
    final SimulateRun plain = SimulateRun.of("-f", withoutGangs.toString());

    assertThat(gangs.exitCode()).isZero();
    final List<String> lines = gangs.out().lines().filter(l -> l.contains("gang ")).toList();
    assertThat(lines)
        .containsExactly(
            "    gang team/job: waiting (0 of 2 members running, 2 pending; minMember 2; volcano)",
            "    gang team/loose: running (1 of 1 member running, 0 pending; minMember unknown;"
                + " volcano)",
            "    gang team/mpi: incomplete (2 of 3 members running, 1 pending; minMember 4;"
                + " koordinator)",
            "    gang team/train: running (3 of 3 members running, 0 pending; minMember 3;"
                + " scheduler-plugins)");
    final String tableWithoutGangLines =
        String.join("\n", gangs.out().lines().filter(l -> !l.startsWith("    gang ")).toList());
    assertThat(tableWithoutGangLines)
        .as("the rest of the table is the table of the same pods without gangs")
        .isEqualTo(String.join("\n", plain.out().lines().toList()));
    final int teamA = gangs.out().indexOf("\n  team-a");
    final int teamB = gangs.out().indexOf("\n  team-b");
    assertThat(gangs.out().indexOf("gang team/job")).isBetween(teamA, teamB);
  }

  private static String gang(
      String name,
      String convention,
      String minMember,
      int members,
      int running,
      int pending,
      String state) {
    return "{\"namespace\":\"team\",\"name\":\""
        + name
        + "\",\"convention\":\""
        + convention
        + "\",\"minMember\":"
        + minMember
        + ",\"members\":"
        + members
        + ",\"running\":"
        + running
        + ",\"pending\":"
        + pending
        + ",\"terminating\":0,\"state\":\""
        + state
        + "\"}";
  }

  /** A pod of team-a, with its gang's labels and annotations in one list, without in the other. */
  private static void add(
      List<String> gangPods,
      List<String> plainPods,
      String name,
      String node,
      String labels,
      String annotations) {
    gangPods.add(pod(name, node, labels, annotations));
    plainPods.add(pod(name, node, "{}", "{}"));
  }

  private static String pod(String name, String node, String labels, String annotations) {
    final String quotaLabel = "quota.scheduling.koordinator.sh/name: team-a";
    final String allLabels =
        labels.equals("{}") ? "{" + quotaLabel + "}" : labels.replace("}", ", " + quotaLabel + "}");
    return """
        apiVersion: v1
        kind: Pod
        metadata:
          name: %s
          namespace: team
          labels: %s
          annotations: %s
        spec:
          %s
          containers: [{name: app, resources: {requests: {cpu: "1"}}}]
        status: {phase: %s}
        """
        .formatted(
            name,
            allLabels,
            annotations,
            node == null ? "priority: 0" : "nodeName: " + node,
            node == null ? "Pending" : "Running");
  }

  private static String podGroup(String apiVersion, String name, int minMember) {
    return """
        apiVersion: %s
        kind: PodGroup
        metadata: {name: %s, namespace: team}
        spec: {minMember: %d}
        """
        .formatted(apiVersion, name, minMember);
  }
}
