package io.quotaflow.simulate;

import static io.quotaflow.simulate.Manifests.documents;
import static io.quotaflow.simulate.Manifests.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.quota.Gang;
import io.quotaflow.quota.QuotaPod;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Gangs in manifests (issue 28): PodGroup objects of both APIs give their gangs' minMember. */
class ManifestGangsTest {

  private static final String SCHEDULER_PLUGINS = "scheduling.x-k8s.io/v1alpha1";
  private static final String VOLCANO = "scheduling.volcano.sh/v1beta1";

  @TempDir Path dir;
  private final List<String> warnings = new ArrayList<>();

  @Test
  void aSchedulerPluginsGangTakesItsPodGroupsMinMember() throws Exception {
    final Map<String, QuotaPod> pods =
        pods(
            podGroup(SCHEDULER_PLUGINS, "team", "train", "3"),
            pod("train-0", "team", "{scheduling.x-k8s.io/pod-group: train}", "{}"));

    assertThat(pods.get("train-0").gang())
        .contains(new Gang("train", OptionalInt.of(3), "scheduler-plugins"));
    assertThat(warnings).isEmpty();
  }

  @Test
  void aVolcanoGangTakesItsPodGroupsMinMember() throws Exception {
    final Map<String, QuotaPod> pods =
        pods(
            pod("w-0", "team", "{}", "{scheduling.k8s.io/group-name: job}"),
            podGroup(VOLCANO, "team", "job", "4"));

    assertThat(pods.get("w-0").gang()).contains(new Gang("job", OptionalInt.of(4), "volcano"));
  }

  @Test
  void aPodGroupOfAnotherNamespaceOrAnotherApiGivesNothing() throws Exception {
    final Map<String, QuotaPod> pods =
        pods(
            podGroup(SCHEDULER_PLUGINS, "other", "train", "3"),
            podGroup(VOLCANO, "team", "train", "5"),
            pod("train-0", "team", "{scheduling.x-k8s.io/pod-group: train}", "{}"));

    assertThat(pods.get("train-0").gang())
        .contains(new Gang("train", OptionalInt.empty(), "scheduler-plugins"));
  }

  @Test
  void koordinatorsMinAvailableOnThePodIsKept() throws Exception {
    final Map<String, QuotaPod> pods =
        pods(
            podGroup(SCHEDULER_PLUGINS, "team", "mpi", "8"),
            pod(
                "mpi-0",
                "team",
                "{scheduling.x-k8s.io/pod-group: mpi}",
                "{gang.scheduling.koordinator.sh/name: mpi,"
                    + " gang.scheduling.koordinator.sh/min-available: \"2\"}"));

    assertThat(pods.get("mpi-0").gang())
        .contains(new Gang("mpi", OptionalInt.of(2), "scheduler-plugins"));
  }

  @Test
  void aPodGroupWithoutMinMemberOrWithZeroGivesNothing() throws Exception {
    final Map<String, QuotaPod> pods =
        pods(
            podGroup(VOLCANO, "team", "a", "0"),
            podGroup(VOLCANO, "team", "b", null),
            pod("a-0", "team", "{}", "{scheduling.k8s.io/group-name: a}"),
            pod("b-0", "team", "{}", "{scheduling.k8s.io/group-name: b}"));

    assertThat(pods.get("a-0").gang()).contains(new Gang("a", OptionalInt.empty(), "volcano"));
    assertThat(pods.get("b-0").gang()).contains(new Gang("b", OptionalInt.empty(), "volcano"));
  }

  @Test
  void aPodGroupsMinMemberThatIsNotAWholeNumberIsBadInput() {
    final Path file =
        write(
            dir.resolve("pg.yaml"),
            documents(podGroup(SCHEDULER_PLUGINS, "team", "train", "\"three\"")));

    assertThatThrownBy(() -> read(file))
        .isInstanceOfSatisfying(
            BadInputException.class,
            e -> {
              assertThat(e.getMessage()).contains("spec.minMember").contains("three");
            });
  }

  @Test
  void theSamePodGroupTwiceIsBadInputButOneOfEachApiIsNot() throws Exception {
    pods(podGroup(SCHEDULER_PLUGINS, "team", "g", "2"), podGroup(VOLCANO, "team", "g", "2"));

    final Path twice =
        write(
            dir.resolve("twice.yaml"),
            documents(podGroup(VOLCANO, "team", "g", "2"), podGroup(VOLCANO, "team", "g", "3")));
    assertThatThrownBy(() -> read(twice))
        .isInstanceOfSatisfying(
            BadInputException.class, e -> assertThat(e.getMessage()).contains("defined twice"));
  }

  @Test
  void aPodGroupIsNotMistakenForAnElasticQuota() throws Exception {
    final ManifestCluster cluster =
        read(write(dir.resolve("pg.yaml"), podGroup(SCHEDULER_PLUGINS, "team", "g", "2")));

    assertThat(cluster.inputs().groups()).isEmpty();
    assertThat(warnings).isEmpty();
  }

  @Test
  void aPodsGangProblemIsAWarningAndThePodIsStillSimulated() throws Exception {
    final Map<String, QuotaPod> pods =
        pods(
            pod(
                "mpi-0",
                "team",
                "{scheduling.x-k8s.io/pod-group: a}",
                "{gang.scheduling.koordinator.sh/name: b}"));

    assertThat(pods.get("mpi-0").gang())
        .contains(new Gang("a", OptionalInt.empty(), "scheduler-plugins"));
    assertThat(warnings)
        .singleElement()
        .asString()
        .contains("Pod team/mpi-0", "gang.scheduling.koordinator.sh/name", "\"b\"");
  }

  private Map<String, QuotaPod> pods(String... manifests) throws Exception {
    final ManifestCluster cluster = read(write(dir.resolve("cluster.yaml"), documents(manifests)));
    return cluster.inputs().pods().stream()
        .collect(Collectors.toMap(pod -> pod.ref().name(), Function.identity()));
  }

  private ManifestCluster read(Path file) throws BadInputException {
    return ManifestCluster.read(
        List.of(file), new ByteArrayInputStream(new byte[0]), warnings::add);
  }

  private static String podGroup(
      String apiVersion, String namespace, String name, String minMember) {
    return """
        apiVersion: %s
        kind: PodGroup
        metadata: {name: %s, namespace: %s}
        spec: {%s}
        """
        .formatted(apiVersion, name, namespace, minMember == null ? "" : "minMember: " + minMember);
  }

  private static String pod(String name, String namespace, String labels, String annotations) {
    return """
        apiVersion: v1
        kind: Pod
        metadata:
          name: %s
          namespace: %s
          labels: %s
          annotations: %s
        spec:
          containers: [{name: app, resources: {requests: {cpu: "1"}}}]
        status: {phase: Pending}
        """
        .formatted(name, namespace, labels, annotations);
  }
}
