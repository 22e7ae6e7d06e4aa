package io.quotaflow.simulate;

import static io.quotaflow.simulate.Manifests.documents;
import static io.quotaflow.simulate.Manifests.node;
import static io.quotaflow.simulate.Manifests.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.quota.SpecialGroups;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 42: {@code simulate --config} reads the engine's namespace binding settings, so that a
 * Koordinator export whose ElasticQuotas all live in one namespace gives the numbers the engine in
 * shadow mode ({@code quota.namespace.binding.open=true}) gives (docs/migration.md).
 */
class SimulateNamespaceBindingTest {

  @TempDir Path dir;

  /**
   * Koordinator's layout: every ElasticQuota in koordinator-quotas, the teams' pods in their own
   * namespaces labelled with their group, and a monitoring agent labelled for the system group.
   */
  private Path export;

  @BeforeEach
  void writeExport() {
    export =
        write(
            dir.resolve("export.yaml"),
            documents(
                node("n1", "{cpu: \"100\"}"),
                quota("team-a", "{cpu: 10}", "{cpu: 100}"),
                quota("team-b", "{cpu: 30}", "{cpu: 100}"),
                pod("ml", "a-1", "team-a", 60),
                pod("web", "b-1", "team-b", 20),
                pod("monitoring", "agent", SpecialGroups.SYSTEM, 5)));
  }

  @Test
  void bindingOpenChargesEachPodToTheGroupItsLabelNames() {
    final SimulateRun open = run("namespace-binding-open=true\n");

    assertThat(open.exitCode()).as(open.err()).isZero();
    assertThat(open.pod("ml", "a-1").get("group").asText()).isEqualTo("team-a");
    assertThat(open.value("team-a", "used", "cpu")).isEqualTo(60_000);
    assertThat(open.value("team-b", "used", "cpu")).isEqualTo(20_000);
  }

  @Test
  void withTheDefaultStrictBindingTheLabelsOfOtherNamespacesAreNotHonoured() {
    final SimulateRun strict = run("namespace-binding-open=false\n");

    assertThat(strict.exitCode()).as(strict.err()).isZero();
    assertThat(strict.pod("ml", "a-1").get("group").asText()).isEqualTo(SpecialGroups.DEFAULT);
    assertThat(strict.value("team-a", "used", "cpu")).isZero();
    assertThat(strict.value(SpecialGroups.DEFAULT, "used", "cpu")).isEqualTo(85_000);
  }

  @Test
  void specialGroupNamespacesSayWhosePodsMayNameTheSystemGroup() {
    final SimulateRun byDefault = run("namespace-binding-open=false\n");
    final SimulateRun monitoring =
        run("special-group-namespaces=kube-system,quotaflow,monitoring\n");

    assertThat(byDefault.pod("monitoring", "agent").get("group").asText())
        .isEqualTo(SpecialGroups.DEFAULT);
    assertThat(monitoring.exitCode()).as(monitoring.err()).isZero();
    assertThat(monitoring.pod("monitoring", "agent").get("group").asText())
        .isEqualTo(SpecialGroups.SYSTEM);
  }

  private SimulateRun run(String properties) {
    final Path config = write(dir.resolve("simulate.properties"), properties);
    return SimulateRun.of(
        "-f", export.toString(), "--output", "json", "--config", config.toString());
  }

  private static String quota(String name, String min, String max) {
    return """
        apiVersion: scheduling.sigs.k8s.io/v1alpha1
        kind: ElasticQuota
        metadata: {name: %s, namespace: koordinator-quotas}
        spec: {min: %s, max: %s}
        """
        .formatted(name, min, max);
  }

  private static String pod(String namespace, String name, String group, int cpu) {
    return """
        apiVersion: v1
        kind: Pod
        metadata:
          name: %s
          namespace: %s
          labels: {quota.scheduling.koordinator.sh/name: %s}
        spec:
          nodeName: n1
          containers: [{name: app, resources: {requests: {cpu: %d}}}]
        status: {phase: Running}
        """
        .formatted(name, namespace, group, cpu);
  }
}
