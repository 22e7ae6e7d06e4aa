package io.quotaflow.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gangs in a cluster with ElasticQuotaProfiles (docs/semantics.md 21.4): the node-pools example
 * with two of vision's pods made one Koordinator gang shows it under vision, in its tree, in the
 * JSON and the table.
 */
class SimulateGangTreesTest {

  private static final Path EXAMPLE = Path.of("../../deploy/local/examples/node-pools");
  private static final String GANG =
      """
        annotations:
          gang.scheduling.koordinator.sh/name: vjob
          gang.scheduling.koordinator.sh/min-available: "2"
      """;

  @TempDir Path dir;

  @Test
  void aGangInAProfilesTreeIsShownUnderItsGroupAfterItsTree() throws IOException {
    for (final String file : List.of("nodes.yaml", "profiles.yaml", "quotas.yaml")) {
      Files.copy(EXAMPLE.resolve(file), dir.resolve(file));
    }
    String pods = Files.readString(EXAMPLE.resolve("pods.yaml"));
    for (final String uid : List.of("  uid: vision-v-1\n", "  uid: vision-v-3\n")) {
      assertThat(pods).contains(uid);
      pods = pods.replace(uid, uid + GANG);
    }
    Files.writeString(dir.resolve("pods.yaml"), pods);

    final SimulateRun json = SimulateRun.of("-f", dir.toString(), "--output", "json");
    final SimulateRun table = SimulateRun.of("-f", dir.toString());

    assertThat(json.exitCode()).as(json.err()).isZero();
    assertThat(json.err()).isEmpty();
    final JsonNode vision = json.quota("vision");
    final List<String> fields = new ArrayList<>();
    vision.fieldNames().forEachRemaining(fields::add);
    assertThat(fields.subList(fields.size() - 2, fields.size())).containsExactly("tree", "gangs");
    assertThat(vision.get("gangs").toString())
        .isEqualTo(
            "[{\"namespace\":\"vision\",\"name\":\"vjob\",\"convention\":\"koordinator\","
                + "\"minMember\":2,\"members\":2,\"running\":1,\"pending\":1,\"terminating\":0,"
                + "\"state\":\"incomplete\"}]");
    assertThat(
            StreamSupport.stream(json.json().get("quotas").spliterator(), false)
                .filter(quota -> quota.has("gangs"))
                .count())
        .as("only vision has a gang")
        .isEqualTo(1);
    assertThat(table.out())
        .contains(
            "gang vision/vjob: incomplete (1 of 2 members running, 1 pending; minMember 2;"
                + " koordinator)");
  }
}
