package io.quotaflow.admission.people.whatif;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.people.view.SecurityHeaders;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.kube.ElasticQuotaAdapter;
import io.quotaflow.kube.NodeAdapter;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.simulate.Manifest;
import io.quotaflow.simulate.ManifestReader;
import io.quotaflow.simulate.SimulateCommand;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.QuotaOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * {@code POST /api/v1/clusters/{cluster}/what-if} on a cluster loaded from manifests: its answer is
 * what {@code simulate} computes for the edited manifests, and bad input is a 400 naming it.
 */
class WhatIfApiTest {

  private static final String ORG = "what-if/org.yaml";
  private static final String PATH = "/api/v1/clusters/demo/what-if";

  @TempDir static Path dir;
  private static String manifests;
  private static Plugin plugin;

  @BeforeAll
  static void start() throws Exception {
    manifests = resource(ORG);
    final Path file = dir.resolve("org.yaml");
    Files.writeString(file, manifests);
    final List<Object> objects =
        new ManifestReader(warning -> {})
            .read(List.of(file)).stream().map(Manifest::object).map(Object.class::cast).toList();
    // Read as the connectors read the cluster's objects.
    final ClusterInputs inputs =
        new ClusterInputs(
            objects.stream()
                .filter(GenericKubernetesResource.class::isInstance)
                .map(o -> ElasticQuotaAdapter.toQuotaGroup((GenericKubernetesResource) o))
                .toList(),
            objects.stream()
                .filter(Pod.class::isInstance)
                .map(o -> PodAdapter.toQuotaPod((Pod) o))
                .toList(),
            objects.stream()
                .filter(Node.class::isInstance)
                .map(o -> NodeAdapter.toQuotaNode((Node) o))
                .toList());
    plugin = Plugin.start(new SnapshotClusterState().put("demo", inputs, QuotaOptions.DEFAULTS));
  }

  @AfterAll
  static void stop() {
    plugin.close();
  }

  @Test
  void editsOfMinMaxAndWeightAndAddedPodsGiveTheRuntimesSimulateComputesForTheEditedManifests()
      throws Exception {
    final Plugin.Reply reply =
        plugin.post(
            PATH,
            """
            {"groups": [
               {"name": "team-b", "min": {"nvidia.com/gpu": "5"}, "sharedWeight": {"cpu": "3"}},
               {"name": "solo", "max": {"cpu": "10"}}],
             "pods": [{"group": "team-b", "requests": {"cpu": "1500m", "nvidia.com/gpu": "1"},
                       "count": 3}]}
            """);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);

    String edited =
        manifests
            .replace(
                "min: {cpu: \"8\", nvidia.com/gpu: \"4\"}",
                "min: {cpu: \"8\", nvidia.com/gpu: \"5\"}")
            .replace(
                "labels: {quota.scheduling.koordinator.sh/parent: dept}\nspec:\n  min: {cpu: \"8\","
                    + " nvidia.com/gpu: \"5\"}",
                "labels: {quota.scheduling.koordinator.sh/parent: dept}\n  annotations:"
                    + " {quota.scheduling.koordinator.sh/shared-weight: '{\"cpu\": \"3\"}'}\nspec:\n"
                    + "  min: {cpu: \"8\", nvidia.com/gpu: \"5\"}")
            .replace(
                "max: {cpu: \"16\", nvidia.com/gpu: \"2\"}",
                "max: {cpu: \"10\", nvidia.com/gpu: \"2\"}");
    for (int i = 1; i <= 3; i++) {
      edited += pendingPod("extra-" + i, "team-b", "1500m", "1");
    }
    assertThat(edited).contains("shared-weight").contains("cpu: \"10\"").contains("gpu: \"5\"");

    final Map<String, Map<String, Long>> before = simulate(manifests);
    final Map<String, Map<String, Long>> after = simulate(edited);
    final Map<String, Map<String, Long>> expected = new TreeMap<>();
    after.forEach(
        (group, runtime) -> {
          if (!runtime.equals(before.get(group))) {
            expected.put(group, runtime);
          }
        });
    assertThat(expected).as("the edits change something").isNotEmpty();

    final Map<String, Map<String, Long>> answered = new TreeMap<>();
    final Map<String, Map<String, Long>> answeredBefore = new TreeMap<>();
    for (final JsonNode change : reply.json().path("changed")) {
      answered.put(change.path("name").asText(), amounts(change.path("after").path("runtime")));
      answeredBefore.put(
          change.path("name").asText(), amounts(change.path("before").path("runtime")));
    }
    assertThat(answered).isEqualTo(expected);
    answeredBefore.forEach((group, runtime) -> assertThat(runtime).isEqualTo(before.get(group)));
    assertThat(reply.json().path("groups").asInt()).isEqualTo(after.size());
  }

  @Test
  void aMinAboveTheMaxMakesTheGroupInvalidInTheAnswerAsSimulateDoes() throws Exception {
    final Plugin.Reply reply =
        plugin.post(PATH, "{\"groups\": [{\"name\": \"solo\", \"min\": {\"cpu\": \"20\"}}]}");

    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    final JsonNode solo = reply.json().path("changed").get(0);
    assertThat(solo.path("name").asText()).isEqualTo("solo");
    assertThat(solo.path("before").path("valid").asBoolean()).isTrue();
    assertThat(solo.path("after").path("valid").asBoolean()).isFalse();
    assertThat(solo.path("after").path("reason").asText()).contains("min");
  }

  @Test
  void theLiveStateIsNotChangedByAWhatIf() {
    final String tree = plugin.get("/api/v1/clusters/demo/quotas").body();

    plugin.post(PATH, "{\"pods\": [{\"group\": \"team-a\", \"requests\": {\"cpu\": \"8\"}}]}");

    assertThat(plugin.get("/api/v1/clusters/demo/quotas").body()).isEqualTo(tree);
  }

  @Test
  void answersCarryTheViewsSecurityHeaders() {
    final Plugin.Reply reply =
        plugin.post(PATH, "{\"groups\": [{\"name\": \"solo\", \"max\": {\"cpu\": \"9\"}}]}");

    assertThat(reply.status()).isEqualTo(200);
    SecurityHeaders.ALL.forEach(
        (name, value) -> assertThat(reply.headers().firstValue(name)).contains(value));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "malformed JSON|{\"groups\": [|end-of-input",
        "an unknown field|{\"groups\": [{\"name\": \"solo\", \"mni\": {\"cpu\": \"1\"}}]}|mni",
        "an unknown group|{\"groups\": [{\"name\": \"nobody\", \"min\": {\"cpu\": \"1\"}}]}|no quota"
            + " group nobody",
        "a negative quantity|{\"groups\": [{\"name\": \"solo\", \"min\": {\"cpu\": \"-1\"}}]}|negative",
        "an unparsable quantity|{\"groups\": [{\"name\": \"solo\", \"max\": {\"cpu\": \"lots\"}}]}|lots",
        "an empty quantity|{\"groups\": [{\"name\": \"solo\", \"max\": {\"cpu\": \"\"}}]}|no quantity",
        "no edit|{}|names no edit",
        "an edit without a field|{\"groups\": [{\"name\": \"solo\"}]}|changes nothing",
        "pods for a parent group|{\"pods\": [{\"group\": \"dept\", \"requests\": {\"cpu\": \"1\"}}]}|parent"
            + " group",
        "pods without requests|{\"pods\": [{\"group\": \"solo\"}]}|requests",
        "a count of zero|{\"pods\": [{\"group\": \"solo\", \"requests\": {\"cpu\": \"1\"}, \"count\":"
            + " 0}]}|count",
        "a special group|{\"groups\": [{\"name\": \"koordinator-root-quota\", \"max\": {\"cpu\":"
            + " \"1\"}}]}|special",
        "a group edited twice|{\"groups\": [{\"name\": \"solo\", \"max\": {\"cpu\": \"1\"}},"
            + " {\"name\": \"solo\", \"min\": {\"cpu\": \"1\"}}]}|twice",
        "an array|[]|JSON object",
      })
  void badInputIsA400NamingWhatIsWrong(String what, String body, String named) {
    final Plugin.Reply reply = plugin.post(PATH, body);

    assertThat(reply.status()).as(reply.body()).isEqualTo(400);
    assertThat(reply.json().path("error").asText()).contains(named);
  }

  /** Issue 25: a what-if's size is bounded before anything is computed. */
  @Test
  void aWhatIfAddingMorePodsThanTheLimitIs413() {
    final Plugin.Reply reply =
        plugin.post(
            PATH,
            "{\"pods\": [{\"group\": \"team-b\", \"requests\": {\"cpu\": \"1m\"}, \"count\": 6000},"
                + " {\"group\": \"team-b\", \"requests\": {\"cpu\": \"1m\"}, \"count\": 6000}]}");

    assertThat(reply.status()).as(reply.body()).isEqualTo(413);
    assertThat(reply.json().path("error").asText())
        .contains("at most 10000 pods")
        .contains("admission.whatif.max.pods")
        .contains("adds 12000");
  }

  @Test
  void aWhatIfEditingMoreGroupsThanTheLimitIs413() {
    final StringBuilder edits = new StringBuilder("{\"groups\": [");
    for (int i = 0; i < 101; i++) {
      edits.append(i == 0 ? "" : ",").append("{\"name\": \"team-b\", \"max\": {\"cpu\": \"1\"}}");
    }
    final Plugin.Reply reply = plugin.post(PATH, edits.append("]}").toString());

    assertThat(reply.status()).as(reply.body()).isEqualTo(413);
    assertThat(reply.json().path("error").asText()).contains("admission.whatif.max.edits");
  }

  @Test
  void anEmptyBodyIsA400() {
    final Plugin.Reply reply = plugin.post(PATH, new byte[0]);

    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.json().path("error").asText()).contains("no body");
  }

  @Test
  void aBodyOverTheLimitIsRefusedWithAMessage() {
    final byte[] body = new byte[PluginConfig.MAX_BODY_BYTES + 10];
    java.util.Arrays.fill(body, (byte) ' ');

    final Plugin.Reply reply = plugin.post(PATH, body);

    assertThat(reply.status()).isEqualTo(413);
    assertThat(reply.json().path("error").asText()).contains("larger than");
  }

  @Test
  void anUnknownClusterIs404AndAGetIs405() {
    assertThat(plugin.post("/api/v1/clusters/nowhere/what-if", "{\"groups\": []}").status())
        .isEqualTo(404);
    assertThat(plugin.get(PATH).status()).isEqualTo(405);
  }

  private static String pendingPod(String name, String group, String cpu, String gpus) {
    return "\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: "
        + name
        + "\n  namespace: quotas\n  uid: "
        + name
        + "\n  labels: {quota.scheduling.koordinator.sh/name: "
        + group
        + "}\nspec:\n  containers:\n    - name: main\n      resources: {requests: {cpu: \""
        + cpu
        + "\", nvidia.com/gpu: \""
        + gpus
        + "\"}}\nstatus: {phase: Pending}\n";
  }

  /** Every group's runtime as {@code quotaflow simulate --output json} prints it. */
  private static Map<String, Map<String, Long>> simulate(String yaml) throws IOException {
    final Path file = Files.createTempFile(dir, "simulate-", ".yaml");
    Files.writeString(file, yaml);
    final StringWriter out = new StringWriter();
    final CommandLine command = new CommandLine(new SimulateCommand());
    command.setOut(new PrintWriter(out));
    command.setErr(new PrintWriter(new StringWriter()));
    assertThat(command.execute("-f", file.toString(), "--output", "json")).isZero();
    final Map<String, Map<String, Long>> runtimes = new HashMap<>();
    for (final JsonNode quota : Json.MAPPER.readTree(out.toString()).path("quotas")) {
      runtimes.put(quota.path("name").asText(), amounts(quota.path("runtime")));
    }
    return runtimes;
  }

  private static Map<String, Long> amounts(JsonNode resources) {
    final Map<String, Long> amounts = new TreeMap<>();
    resources.fields().forEachRemaining(e -> amounts.put(e.getKey(), e.getValue().asLong()));
    return amounts;
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = WhatIfApiTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
