package io.quotaflow.simulate;

import static io.quotaflow.simulate.Manifests.documents;
import static io.quotaflow.simulate.Manifests.node;
import static io.quotaflow.simulate.Manifests.parentQuota;
import static io.quotaflow.simulate.Manifests.pod;
import static io.quotaflow.simulate.Manifests.quota;
import static io.quotaflow.simulate.Manifests.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.quotaflow.quota.SpecialGroups;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SimulateCommandTest {

  @TempDir Path dir;

  /**
   * 100 cores; team-a (min 10) and team-b (min 30) both ask for 100 and may use all of it. The 60
   * cores beyond the mins go by weight: with the default weight (max, 100 each) 30 and 30, so a
   * gets 40 and b 60; with weight = min (10 : 30) 15 and 45, so a gets 25 and b 75.
   */
  private Path twoTeams;

  @BeforeEach
  void writeTwoTeams() {
    twoTeams =
        write(
            dir.resolve("two-teams.yaml"),
            documents(
                node("n1", "{cpu: \"100\"}"),
                quota("team-a", null, "{cpu: 10}", "{cpu: 100}"),
                quota("team-b", null, "{cpu: 30}", "{cpu: 100}"),
                pod("a-1", "team-a", "n1", "{cpu: 60}"),
                pod("a-2", "team-a", null, "{cpu: 40}"),
                pod("b-1", "team-b", null, "{cpu: 100}")));
  }

  /**
   * Issue 24: simulate resolves a group's quotaflow.io/namespace-selector against the Namespace
   * manifests, as the connectors do against the cluster's namespaces.
   */
  @Test
  void aNamespaceSelectorBindsTheLabelledNamespacesOfTheManifests() {
    final Path file =
        write(
            dir.resolve("selector.yaml"),
            documents(
                node("n1", "{cpu: \"100\"}"),
                """
                apiVersion: scheduling.sigs.k8s.io/v1alpha1
                kind: ElasticQuota
                metadata:
                  name: nlp
                  namespace: quotas
                  annotations:
                    quotaflow.io/namespace-selector: '{"matchLabels": {"team": "nlp"}}'
                spec: {min: {cpu: 10}, max: {cpu: 100}}
                """,
                namespace("nlp-dev", "nlp"),
                namespace("playground", "games"),
                podIn("nlp-dev", "bound", "nlp"),
                podIn("playground", "unbound", "nlp")));

    final SimulateRun run = SimulateRun.of("-f", file.toString(), "--output", "json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.pod("nlp-dev", "bound").get("group").asText()).isEqualTo("nlp");
    assertThat(run.pod("playground", "unbound").get("group").asText())
        .isEqualTo(SpecialGroups.DEFAULT);
  }

  private static String namespace(String name, String team) {
    return """
        apiVersion: v1
        kind: Namespace
        metadata: {name: %s, labels: {team: %s}}
        """
        .formatted(name, team);
  }

  private static String podIn(String namespace, String name, String group) {
    return """
        apiVersion: v1
        kind: Pod
        metadata:
          name: %s
          namespace: %s
          labels: {quota.scheduling.koordinator.sh/name: %s}
        spec:
          nodeName: n1
          containers: [{name: app, resources: {requests: {cpu: 1}}}]
        status: {phase: Running}
        """
        .formatted(name, namespace, group);
  }

  @Test
  void jsonOutputIsExactlyOneObjectWithTheDocumentedFieldsInOrder() {
    final SimulateRun run = SimulateRun.of("-f", twoTeams.toString(), "--output", "json");

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    final JsonNode json = run.json();
    assertThat(fieldNames(json)).containsExactlyElementsOf(SimulateJsonFields.TOP);
    assertThat(json.get("total").get("cpu").asLong()).isEqualTo(100_000);
    for (final JsonNode quota : json.get("quotas")) {
      assertThat(fieldNames(quota)).containsExactlyElementsOf(SimulateJsonFields.QUOTA);
    }
    for (final JsonNode pod : json.get("pods")) {
      assertThat(fieldNames(pod)).containsExactlyElementsOf(SimulateJsonFields.POD);
    }
  }

  @Test
  void jsonListsTheRootAndTheSpecialGroupsWithFirstLevelGroupsUnderTheRoot() {
    final SimulateRun run = SimulateRun.of("-f", twoTeams.toString(), "--output", "json");

    assertThat(run.json().get("quotas"))
        .extracting(quota -> quota.get("name").asText())
        .contains(SpecialGroups.ROOT, SpecialGroups.SYSTEM, SpecialGroups.DEFAULT, "team-a");
    assertThat(run.quota(SpecialGroups.ROOT).get("parent").isNull()).isTrue();
    assertThat(run.quota(SpecialGroups.ROOT).get("isParent").asBoolean()).isTrue();
    assertThat(run.quota("team-a").get("parent").asText()).isEqualTo(SpecialGroups.ROOT);
    assertThat(run.quota("team-a").get("valid").asBoolean()).isTrue();
    assertThat(run.quota("team-a").get("reason").isNull()).isTrue();
  }

  @Test
  void jsonCarriesEveryNumberInCanonicalUnits() {
    final SimulateRun run = SimulateRun.of("-f", twoTeams.toString(), "--output", "json");

    assertThat(run.value("team-a", "min", "cpu")).isEqualTo(10_000);
    assertThat(run.value("team-a", "max", "cpu")).isEqualTo(100_000);
    assertThat(run.value("team-a", "request", "cpu")).isEqualTo(100_000);
    assertThat(run.value("team-a", "used", "cpu")).isEqualTo(60_000);
    assertThat(run.value("team-a", "sharedWeight", "cpu")).isEqualTo(100_000);
    assertThat(run.value("team-a", "runtime", "cpu")).isEqualTo(40_000);
    assertThat(run.value("team-b", "runtime", "cpu")).isEqualTo(60_000);
  }

  @Test
  void jsonClassesBoundPodsAndLeavesPendingPodsUnclassed() {
    final SimulateRun run = SimulateRun.of("-f", twoTeams.toString(), "--output", "json");

    // a-1 holds 60 cores of a 10-core min.
    assertThat(run.pod("team", "a-1").get("group").asText()).isEqualTo("team-a");
    assertThat(run.pod("team", "a-1").get("class").asText()).isEqualTo("over-quota");
    assertThat(run.pod("team", "a-2").get("class").isNull()).isTrue();
  }

  /**
   * The manifests the option table runs on: the two teams above; "tight", 10 cores and two teams
   * with min 8 each asking for 10 (scaled, floor(10 * 8 / 16) = 5 each); "starting", a team with
   * one running pod of 1 core and one bound but still pending pod of 3.
   */
  private Path manifest(String name) {
    return switch (name) {
      case "two-teams" -> twoTeams;
      case "tight" ->
          write(
              dir.resolve("tight.yaml"),
              documents(
                  node("n1", "{cpu: \"10\"}"),
                  quota("a", null, "{cpu: 8}", "{cpu: 10}"),
                  quota("b", null, "{cpu: 8}", "{cpu: 10}"),
                  pod("a-1", "a", null, "{cpu: 10}"),
                  pod("b-1", "b", null, "{cpu: 10}")));
      case "starting" ->
          write(
              dir.resolve("starting.yaml"),
              documents(
                  node("n1", "{cpu: \"10\"}"),
                  quota("a", null, "{cpu: 2}", "{cpu: 10}"),
                  pod("a-1", "a", "n1", "{cpu: 1}"),
                  pod("a-2", "a", "n1", "{cpu: 3}").replace("phase: Running", "phase: Pending")));
      default -> throw new IllegalArgumentException("no manifest " + name);
    };
  }

  /**
   * What the flags do to the numbers: a manifest, the arguments after {@code -f FILE}, and the
   * numbers the JSON report must carry, as {@code group.field.resource=milli}.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # behaviour                                                        | manifest  | arguments                                 | numbers
          default shared weight min shares the surplus in proportion to mins | two-teams | --output=json --default-shared-weight=min | team-a.runtime.cpu=25000 team-b.runtime.cpu=75000
          min scaling scales mins that do not fit                            | tight     | --output json                             | a.scaledMin.cpu=5000 a.runtime.cpu=5000 b.runtime.cpu=5000
          min scaling can be switched off                                    | tight     | --output json --min-scale=false           | a.scaledMin.cpu=8000 a.runtime.cpu=8000
          used policy bound counts bound pods that are not running yet       | starting  | --output json                             | a.used.cpu=4000
          used policy running counts only running pods                       | starting  | --output json --used-policy=running       | a.used.cpu=1000
          """)
  void flagsChangeTheNumbersAsSpecified(
      String behaviour, String manifest, String arguments, String numbers) {
    final List<String> args = new ArrayList<>(List.of("-f", manifest(manifest).toString()));
    args.addAll(List.of(arguments.split(" ")));

    final SimulateRun run = SimulateRun.of(args.toArray(String[]::new));

    for (final String number : numbers.split(" ")) {
      final String[] path = number.substring(0, number.indexOf('=')).split("\\.");
      final long expected = Long.parseLong(number.substring(number.indexOf('=') + 1));
      assertThat(run.value(path[0], path[1], path[2]))
          .as(behaviour + ": " + number)
          .isEqualTo(expected);
    }
  }

  /**
   * Issue 42.3: fair share's memory is a setting of quota semantics, so simulate accepts it; with
   * no history the numbers are the memoryless ones, and a warning says so.
   */
  @Test
  void fairShareMemoryIsAcceptedAndWarnsThatManifestsHaveNoPast() {
    final Path config =
        write(
            dir.resolve("memory.properties"),
            "fairshare-memory-enabled=true\nfairshare-memory-half-life=1d\n");

    final SimulateRun run =
        SimulateRun.of(
            "-f", twoTeams.toString(), "--output", "json", "--config", config.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).contains("warning: " + SimulateCommand.NO_HISTORY);
    assertThat(run.value("team-a", "runtime", "cpu")).isEqualTo(40_000);
  }

  @Test
  void theConfigFileSetsOptionsAndFlagsOverrideIt() {
    final Path config =
        write(dir.resolve("simulate.properties"), "default-shared-weight=min\nmin-scale=true\n");

    final SimulateRun fromFile =
        SimulateRun.of(
            "-f", twoTeams.toString(), "--output", "json", "--config", config.toString());
    final SimulateRun overridden =
        SimulateRun.of(
            "-f",
            twoTeams.toString(),
            "--output",
            "json",
            "--config",
            config.toString(),
            "--default-shared-weight",
            "max");

    assertThat(fromFile.value("team-a", "runtime", "cpu")).isEqualTo(25_000);
    assertThat(overridden.value("team-a", "runtime", "cpu")).isEqualTo(40_000);
  }

  @Test
  void derivedResourceRulesFromTheConfigFileAddToPodRequests() {
    final Path file =
        write(
            dir.resolve("gpus.yaml"),
            documents(
                node("n1", "{cpu: \"10\", nvidia.com/gpu: \"4\"}"),
                quota(
                    "a",
                    null,
                    "{nvidia.com/gpu: 1, quotaflow.io/gpu-memory: 32}",
                    "{nvidia.com/gpu: 4, quotaflow.io/gpu-memory: 128}"),
                pod("a-1", "a", null, "{nvidia.com/gpu: 2}")));
    final Path config =
        write(
            dir.resolve("gpu.properties"),
            "derived-resources=nvidia.com/gpu -> quotaflow.io/gpu-memory * 32\n");

    final SimulateRun run =
        SimulateRun.of("-f", file.toString(), "--output", "json", "--config", config.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.value("a", "request", "quotaflow.io/gpu-memory")).isEqualTo(64);
  }

  @Test
  void anInvalidTreeIsComputedAndReportedWithExitZero() {
    final Path file =
        write(
            dir.resolve("invalid.yaml"),
            documents(
                node("n1", "{cpu: \"10\"}"),
                quota("upside-down", null, "{cpu: 5}", "{cpu: 2}"),
                quota("orphan", "no-such-parent", "{cpu: 1}", "{cpu: 2}"),
                quota("fine", null, "{cpu: 1}", "{cpu: 10}"),
                pod("f-1", "fine", null, "{cpu: 4}")));

    final SimulateRun json = SimulateRun.of("-f", file.toString(), "--output", "json");
    final SimulateRun table = SimulateRun.of("-f", file.toString());

    assertThat(json.exitCode()).isZero();
    assertThat(json.quota("upside-down").get("valid").asBoolean()).isFalse();
    assertThat(json.quota("upside-down").get("reason").asText()).contains("min");
    assertThat(json.quota("orphan").get("valid").asBoolean()).isFalse();
    assertThat(json.quota("orphan").get("reason").asText()).contains("no-such-parent");
    assertThat(json.quota("fine").get("valid").asBoolean()).isTrue();
    assertThat(json.value("fine", "runtime", "cpu")).isEqualTo(4_000);
    assertThat(table.exitCode()).isZero();
    assertThat(table.out()).contains("upside-down  INVALID: ").contains("orphan  INVALID: ");
  }

  @Test
  void anUnreadableAnnotationIsAWarningAndTheTreeIsStillComputed() {
    final Path file =
        write(
            dir.resolve("weights.yaml"),
            documents(
                node("n1", "{cpu: \"10\"}"),
                quota("a", null, "{cpu: 1}", "{cpu: 10}")
                    .replace(
                        "  labels:",
                        "  annotations: {quota.scheduling.koordinator.sh/shared-weight: 'cpu=4'}\n"
                            + "  labels:")));

    final SimulateRun run = SimulateRun.of("-f", file.toString(), "--output", "json");

    assertThat(run.exitCode()).isZero();
    assertThat(run.quota("a").get("name").asText()).isEqualTo("a");
    assertThat(run.err())
        .startsWith("warning: " + file + ", document 2 (ElasticQuota team/a): ")
        .contains("metadata.annotations[quota.scheduling.koordinator.sh/shared-weight]");
  }

  @Test
  void aBadQuantityIsBadInputWithOneMessageNamingFileDocumentAndField() {
    final Path file =
        write(
            dir.resolve("bad.yaml"),
            documents(
                node("n1", "{cpu: \"10\"}"),
                quota("a", null, "{cpu: 1}", "{cpu: 10}"),
                pod("a-1", "a", null, "{cpu: 2, memory: lots}")));

    final SimulateRun run = SimulateRun.of("-f", file.toString(), "--output", "json");

    assertThat(run.exitCode()).isEqualTo(SimulateCommand.BAD_INPUT);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "error: "
                + file
                + ", document 3 (Pod team/a-1): spec.containers[0].resources.requests[memory]:"
                + " \"lots\" is not a valid quantity: it does not start with a decimal number"
                + System.lineSeparator());
  }

  @Test
  void aBadQuantityInAQuotaSpecIsBadInput() {
    final Path file =
        write(
            dir.resolve("bad-quota.yaml"),
            quota("a", null, "{cpu: 1}", "{cpu: 99999999999999999}"));

    final SimulateRun run = SimulateRun.of("-f", file.toString());

    assertThat(run.exitCode()).isEqualTo(SimulateCommand.BAD_INPUT);
    assertThat(run.err())
        .startsWith("error: " + file + ", document 1 (ElasticQuota team/a): spec.max[cpu]: ")
        .contains("does not fit");
  }

  @Test
  void unparsableYamlIsBadInputWithoutAStackTrace() {
    final Path file = write(dir.resolve("broken.yaml"), node("n1", "{cpu: 1}") + "---\nkind: [\n");

    final SimulateRun run = SimulateRun.of("-f", file.toString());

    assertThat(run.exitCode()).isEqualTo(SimulateCommand.BAD_INPUT);
    assertThat(run.err()).startsWith("error: " + file + ", document 2: not valid YAML: ");
    assertThat(run.err().lines()).hasSize(1);
    assertThat(run.err()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void aDuplicateObjectIsBadInput() {
    final Path file =
        write(
            dir.resolve("twice.yaml"),
            documents(
                quota("a", null, "{cpu: 1}", "{cpu: 10}"),
                quota("a", null, "{cpu: 2}", "{cpu: 10}")));

    final SimulateRun run = SimulateRun.of("-f", file.toString());

    assertThat(run.exitCode()).isEqualTo(SimulateCommand.BAD_INPUT);
    assertThat(run.err())
        .contains(
            "document 2 (ElasticQuota team/a): metadata.name: ElasticQuota a is defined twice")
        .contains("first at " + file + ", document 1");
  }

  @Test
  void aMissingFileIsBadInput() {
    final SimulateRun run = SimulateRun.of("-f", dir.resolve("nope").toString());

    assertThat(run.exitCode()).isEqualTo(SimulateCommand.BAD_INPUT);
    assertThat(run.err())
        .isEqualTo(
            "error: "
                + dir.resolve("nope")
                + ": no such file or directory"
                + System.lineSeparator());
  }

  @Test
  void aBadConfigFileIsBadInputNamingTheSetting() {
    final Path config = write(dir.resolve("bad.properties"), "used-policy=sometimes\n");
    final Path typo = write(dir.resolve("typo.properties"), "min-scaling=false\n");

    final SimulateRun badValue =
        SimulateRun.of("-f", twoTeams.toString(), "--config", config.toString());
    final SimulateRun unknownKey =
        SimulateRun.of("-f", twoTeams.toString(), "--config", typo.toString());

    assertThat(badValue.exitCode()).isEqualTo(SimulateCommand.BAD_INPUT);
    assertThat(badValue.err())
        .startsWith(
            "error: " + config + ": used-policy: expected bound or running, found \"sometimes\"");
    assertThat(unknownKey.exitCode()).isEqualTo(SimulateCommand.BAD_INPUT);
    assertThat(unknownKey.err()).contains("unknown setting \"min-scaling\"");
  }

  @Test
  void usageErrorsExitWithTwo() {
    assertThat(SimulateRun.of().exitCode()).isEqualTo(SimulateCommand.BAD_INPUT);
    assertThat(SimulateRun.of().err()).contains("Missing required option: '--filename=PATH'");
    final SimulateRun badOutput = SimulateRun.of("-f", twoTeams.toString(), "--output", "xml");
    assertThat(badOutput.exitCode()).isEqualTo(SimulateCommand.BAD_INPUT);
    assertThat(badOutput.err()).contains("expected table or json, found 'xml'");
    assertThat(SimulateRun.of("-f", twoTeams.toString(), "--min-scale=maybe").exitCode())
        .isEqualTo(SimulateCommand.BAD_INPUT);
    assertThat(SimulateRun.of("-f", twoTeams.toString(), "--used-policy=all").exitCode())
        .isEqualTo(SimulateCommand.BAD_INPUT);
  }

  @Test
  void skippedKindsAreWarningsOnStderrAndStdoutStaysPureJson() {
    final Path file =
        write(
            dir.resolve("with-service.yaml"),
            documents(
                node("n1", "{cpu: \"10\"}"),
                "apiVersion: v1\nkind: Service\nmetadata: {name: web}\n"));

    final SimulateRun run = SimulateRun.of("-f", file.toString(), "--output", "json");

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).startsWith("warning: " + file + ", document 2: skipped Service (v1)");
    assertThat(run.json().get("total").get("cpu").asLong()).isEqualTo(10_000);
  }

  @Test
  void theTableShowsTheTreeIndentedInHumanUnits() {
    final Path file =
        write(
            dir.resolve("tree.yaml"),
            documents(
                node("n1", "{cpu: \"8\", memory: 32Gi}"),
                parentQuota("dept", "{cpu: 4, memory: 16Gi}", "{cpu: 8, memory: 32Gi}"),
                quota("team", "dept", "{cpu: 2, memory: 8Gi}", "{cpu: 8, memory: 32Gi}"),
                pod("t-1", "team", "n1", "{cpu: 1500m, memory: 1536Mi}")));

    final SimulateRun run = SimulateRun.of("-f", file.toString());

    assertThat(run.exitCode()).isZero();
    final List<String> lines = run.out().lines().toList();
    assertThat(lines).contains("  dept  [parent]", "    team");
    assertThat(lines)
        .anySatisfy(line -> assertThat(line).matches("      cpu +2 +8 +1\\.5 +1\\.5 +\\S+"))
        .anySatisfy(
            line -> assertThat(line).matches("      memory +8Gi +32Gi +1\\.5Gi +1\\.5Gi +\\S+"));
    assertThat(lines).contains("team/t-1  team   in-quota");
  }

  @ParameterizedTest
  @CsvSource({"yaml", "json"})
  void aKubectlListOnStandardInputComputesAsTheSameManifestsInAFile(String format)
      throws Exception {
    final String list = kubectlList(format, Files.readString(twoTeams));

    final SimulateRun piped = SimulateRun.withInput(list, "-f", "-", "--output", "json");
    final SimulateRun fromFile = SimulateRun.of("-f", twoTeams.toString(), "--output", "json");

    assertThat(piped.exitCode()).as(piped.err()).isZero();
    assertThat(piped.err()).isEmpty();
    assertThat(piped.json()).isEqualTo(fromFile.json());
  }

  @Test
  void standardInputNamedTwiceIsBadInput() {
    final SimulateRun run = SimulateRun.withInput("", "-f", "-", "-f", "-");

    assertThat(run.exitCode()).isEqualTo(SimulateCommand.BAD_INPUT);
    assertThat(run.err()).contains("<stdin>").contains("standard input is named twice");
  }

  @Test
  void brokenYamlOnStandardInputNamesStandardInput() {
    final SimulateRun run = SimulateRun.withInput("kind: [List\n", "-f", "-");

    assertThat(run.exitCode()).isEqualTo(SimulateCommand.BAD_INPUT);
    assertThat(run.err()).startsWith("error: <stdin>, document 1");
  }

  @Test
  void twoManifestsPipedWithoutASeparatorAreBadInputNamingTheLineAndTheKey() {
    final String node =
        """
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        status: {allocatable: {cpu: "8"}}
        """;
    final String pod =
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p1, namespace: team}
        spec: {containers: [{name: app, resources: {requests: {cpu: "1"}}}]}
        """;

    final SimulateRun run = SimulateRun.withInput(node + pod, "-f", "-");
    final SimulateRun separated = SimulateRun.withInput(node + "---\n" + pod, "-f", "-");

    assertThat(run.exitCode()).isEqualTo(SimulateCommand.BAD_INPUT);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .startsWith("error: <stdin>, document 1: repeated key apiVersion at line 5;")
        .contains("---");
    assertThat(separated.exitCode()).as(separated.err()).isZero();
  }

  /**
   * The documents of {@code yaml} as {@code kubectl get ... -o yaml} (or {@code -o json}) prints
   * them: one {@code kind: List} object holding every object in {@code items}.
   */
  private static String kubectlList(String format, String yaml) throws Exception {
    final YAMLMapper yamlMapper = new YAMLMapper();
    final ObjectNode list = yamlMapper.createObjectNode();
    list.put("apiVersion", "v1");
    final ArrayNode items = list.putArray("items");
    try (MappingIterator<JsonNode> documents =
        yamlMapper.readerFor(JsonNode.class).readValues(yaml)) {
      documents.forEachRemaining(items::add);
    }
    list.put("kind", "List");
    list.putObject("metadata").put("resourceVersion", "");
    return format.equals("json")
        ? new JsonMapper().writerWithDefaultPrettyPrinter().writeValueAsString(list)
        : yamlMapper.writeValueAsString(list);
  }

  private static List<String> fieldNames(JsonNode node) {
    final List<String> names = new ArrayList<>();
    node.properties().forEach(entry -> names.add(entry.getKey()));
    return names;
  }
}
