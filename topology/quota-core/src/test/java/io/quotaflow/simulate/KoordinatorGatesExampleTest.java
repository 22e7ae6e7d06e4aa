package io.quotaflow.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The example of {@code deploy/examples/koordinator-gates} (docs/semantics.md sections 17 and 18),
 * simulated with the gates on and with the defaults, against the numbers its comment works out.
 */
class KoordinatorGatesExampleTest {

  private static final String DIR = "../../deploy/examples/koordinator-gates/";

  private static Map<String, JsonNode> quotas(SimulateRun run) {
    assertThat(run.exitCode()).as(run.err()).isZero();
    final Map<String, JsonNode> byName = new HashMap<>();
    run.json().get("quotas").forEach(quota -> byName.put(quota.get("name").asText(), quota));
    return byName;
  }

  private static long cpu(Map<String, JsonNode> quotas, String group, String field) {
    return quotas.get(group).get(field).get("cpu").asLong();
  }

  @Test
  void withTheGatesOnGroupsKeepWhatTheyUseAndTheParentIsChargedForItsOwnPod() {
    final Map<String, JsonNode> quotas =
        quotas(
            SimulateRun.of(
                "-f",
                DIR + "cluster.yaml",
                "--config",
                DIR + "gates-on.properties",
                "--output",
                "json"));

    assertThat(cpu(quotas, "team-a", "guaranteed")).isEqualTo(50_000);
    assertThat(cpu(quotas, "dept-x", "guaranteed")).isEqualTo(20_000);
    assertThat(cpu(quotas, "dept", "guaranteed")).isEqualTo(40_000);
    assertThat(cpu(quotas, "dept", "used")).isEqualTo(30_000);
    assertThat(cpu(quotas, "team-a", "runtime")).isEqualTo(50_000);
    assertThat(cpu(quotas, "team-b", "runtime")).isEqualTo(60_000);
    assertThat(cpu(quotas, "dept", "runtime")).isEqualTo(40_000);
    assertThat(cpu(quotas, "dept-x", "runtime")).isEqualTo(20_000);
  }

  @Test
  void withTheDefaultsTheParentLendsAndItsOwnPodIsChargedAsIfUnlabelled() {
    final Map<String, JsonNode> quotas =
        quotas(SimulateRun.of("-f", DIR + "cluster.yaml", "--output", "json"));

    assertThat(quotas.get("team-a").has("guaranteed")).isFalse();
    assertThat(cpu(quotas, "dept", "used")).isEqualTo(20_000);
    assertThat(cpu(quotas, "team-a", "runtime")).isEqualTo(50_000);
    // Issue 39: the pod labelled dept goes to the default group, set aside first (it was charged
    // nowhere, and team-b got 80).
    assertThat(cpu(quotas, "koordinator-default-quota", "used")).isEqualTo(10_000);
    assertThat(cpu(quotas, "team-b", "runtime")).isEqualTo(70_000);
    assertThat(cpu(quotas, "dept", "runtime")).isEqualTo(20_000);
  }
}
