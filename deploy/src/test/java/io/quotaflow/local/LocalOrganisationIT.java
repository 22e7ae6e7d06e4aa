package io.quotaflow.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotaflow.simulate.SimulateCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code quotaflow local --examples DIR} with a generated organisation exported as a user exports
 * one, one manifest per kind (issue 32, at a tenth of its size): local says how long it took to be
 * ready, and the live tree it serves equals what {@code simulate} computes from the same files,
 * with nothing evicted. bench/run-local-bench.sh runs the full size.
 */
@Tag("system")
class LocalOrganisationIT {

  /** 10 departments of 20 teams: 210 ElasticQuotas, 2,067 pods, 20 nodes. */
  private static final OrganisationManifests ORGANISATION =
      new OrganisationManifests(10, 20, 10, 20);

  private static final Pattern READY =
      Pattern.compile("quotaflow local is ready \\((\\d+\\.\\d) s\\)");
  private static final Pattern QUERY_URL = Pattern.compile("curl (http://127\\.0\\.0\\.1:\\d+)");

  /** What a group's line in simulate's JSON and the query API's both hold, computed alike. */
  private static final List<String> COMPUTED =
      List.of(
          "parent",
          "isParent",
          "valid",
          "min",
          "scaledMin",
          "max",
          "sharedWeight",
          "request",
          "limitedRequest",
          "used",
          "runtime");

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void anOrganisationOfThousandsOfObjectsIsReadyInSecondsWithSimulatesTree() throws Exception {
    ORGANISATION.writeTo(dir);
    final Map<String, JsonNode> simulated = quotas(simulate(dir));
    assertThat(simulated).hasSize(ORGANISATION.quotas() + 3); // root, system, default groups

    final LocalCommand command = new LocalCommand();
    final CommandLine commandLine = new CommandLine(command);
    final StringWriter out = new StringWriter();
    commandLine.setOut(new PrintWriter(out, true));
    final CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () -> commandLine.execute("--examples", dir.toString(), "--http-port", "0"));
    try {
      await()
          .atMost(Duration.ofSeconds(90))
          .until(() -> READY.matcher(out.toString()).find() || exit.isDone());
      assertThat(exit).isNotDone();
      final Matcher ready = READY.matcher(out.toString());
      assertThat(ready.find()).isTrue();
      assertThat(Double.parseDouble(ready.group(1))).isPositive().isLessThan(60.0);

      final Matcher url = QUERY_URL.matcher(out.toString());
      assertThat(url.find()).isTrue();
      final URI quotas = URI.create(url.group(1) + "/api/v1/clusters/demo/quotas");
      // Ready once the engine has read everything the connectors wrote at their first sync: every
      // group is there at once; their numbers settle within the next trees.
      assertThat(quotas(get(quotas)).keySet()).isEqualTo(simulated.keySet());
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofSeconds(1))
          .untilAsserted(() -> assertThat(quotas(get(quotas))).isEqualTo(simulated));
      // Equal used means no pod was evicted: an eviction deletes a running pod.
    } finally {
      command.stop();
      exit.get();
    }
  }

  private static JsonNode simulate(final Path manifests) throws Exception {
    final StringWriter out = new StringWriter();
    final CommandLine simulate = new CommandLine(new SimulateCommand());
    simulate.setOut(new PrintWriter(out, true));
    assertThat(simulate.execute("-f", manifests.toString(), "--output", "json")).isZero();
    return JSON.readTree(out.toString());
  }

  private static JsonNode get(final URI uri) throws Exception {
    final HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  /** Each group's computed fields, by name. */
  private static Map<String, JsonNode> quotas(final JsonNode tree) {
    final Map<String, JsonNode> byName = new TreeMap<>();
    for (final JsonNode quota : tree.path("quotas")) {
      final var computed = JSON.createObjectNode();
      COMPUTED.forEach(field -> computed.set(field, quota.path(field)));
      byName.put(quota.path("name").asText(), computed);
    }
    return byName;
  }
}
