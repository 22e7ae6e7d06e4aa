package io.quotaflow.admission.people.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.http.TestClusters;
import io.quotaflow.admission.http.auth.Access;
import io.quotaflow.admission.http.auth.User;
import io.quotaflow.admission.http.auth.Viewer;
import io.quotaflow.admission.state.KeptWindows;
import io.quotaflow.admission.state.MutableClock;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.admission.state.VisibleClusterView;
import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryWindow;
import io.quotaflow.quota.ResourceList;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/v1/clusters/{cluster}/report} (docs/admission.md, Reports): every group's totals
 * over the period, in resource-hours computed from the exact integrals.
 */
class ReportQueryTest {

  private static final Duration MINUTE = Duration.ofMinutes(1);
  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  private static final String REPORT = "/api/v1/clusters/east/report";

  private final MutableClock clock = new MutableClock(NOW);
  private final SnapshotClusterState state = TestClusters.state();
  private final Plugin plugin = Plugin.start(PluginConfig.plainHttpOnLoopback(0), state, clock);

  /** min 4 cores; used 6 from 10:00 to 11:00 (2 borrowed), 1 from 11:00: evicted twice at 11:00. */
  private final KeptWindows kept =
      new KeptWindows(MINUTE)
          .keep(
              "team-a",
              HistoryWindow.opened(
                  Instant.parse("2026-11-27T10:00:00Z"),
                  MINUTE,
                  GroupLevels.NONE,
                  cpu(6_000, 6_000)))
          .keep(
              "team-a",
              HistoryWindow.opened(
                      Instant.parse("2026-11-27T11:00:00Z"),
                      MINUTE,
                      cpu(6_000, 6_000),
                      cpu(1_000, 4_000))
                  .withEviction("reclaimed-after-delay")
                  .withEviction("reclaimed-after-delay"))
          .keep(
              "gone",
              HistoryWindow.opened(
                  Instant.parse("2026-11-27T10:30:00Z"), MINUTE, GroupLevels.NONE, cpu(500, 500)))
          .keep(
              "gone",
              HistoryWindow.opened(
                  Instant.parse("2026-11-27T10:45:00Z"), MINUTE, cpu(500, 500), GroupLevels.NONE));

  private static GroupLevels cpu(long used, long runtime) {
    return new GroupLevels(
        ResourceList.of(ResourceList.CPU, used),
        ResourceList.of(ResourceList.CPU, used),
        ResourceList.of(ResourceList.CPU, runtime),
        ResourceList.of(ResourceList.CPU, 4_000));
  }

  @AfterEach
  void stop() {
    plugin.close();
  }

  @Test
  void everyGroupsResourceHoursOverThePeriod() {
    state.history("east", kept);

    final JsonNode body = plugin.get(REPORT + "?from=2026-11-27T10:00:00Z&to=now").json();

    assertThat(body.get("from").asText()).isEqualTo("2026-11-27T10:00:00Z");
    assertThat(body.get("to").asText()).isEqualTo("2026-11-27T12:00:00Z");
    final JsonNode teamA = row(body, "team-a");
    final JsonNode cpu = teamA.get("resources").get("cpu");
    assertThat(cpu.get("unit").asText()).isEqualTo("core-hours");
    // Two hours of a 4-core guarantee; 6 then 1 core used; 2 borrowed for the first hour.
    assertThat(cpu.get("guaranteed").asText()).isEqualTo("8.000");
    assertThat(cpu.get("used").asText()).isEqualTo("7.000");
    assertThat(cpu.get("borrowed").asText()).isEqualTo("2.000");
    // Runtime 4 from 11:00 with min 4: nothing lent; (4 + 1) of 8 guaranteed core-hours used.
    assertThat(cpu.get("lent").asText()).isEqualTo("0.000");
    assertThat(cpu.get("guaranteeUsedPercent").asText()).isEqualTo("62.5");
    assertThat(teamA.get("evictions").get("reclaimed-after-delay").asLong()).isEqualTo(2);
    assertThat(teamA.get("exists").asBoolean()).isTrue();
    // A group deleted during the period is reported for the time it existed.
    final JsonNode gone = row(body, "gone");
    assertThat(gone.get("exists").asBoolean()).isFalse();
    assertThat(gone.get("resources").get("cpu").get("used").asText()).isEqualTo("0.125");
    assertThat(body.get("groups").findValuesAsText("group"))
        .doesNotContain("koordinator-root-quota");
    // A group of the cluster with no history reads as zeros.
    assertThat(row(body, "team-b").get("resources").size()).isZero();
  }

  @Test
  void aPeriodThatEndsBeforeItStartsIsA400() {
    state.history("east", kept);

    final Plugin.Reply reply = plugin.get(REPORT + "?from=-1h&to=-2h");

    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.body()).contains("after");
    assertThat(plugin.get(REPORT + "?from=monday").status()).isEqualTo(400);
  }

  /** Issue 39, point 9: a tenant's report holds its groups only, no deleted or foreign one. */
  @Test
  void aTenantsReportHoldsNeitherAnothersNorADeletedGroup() throws Exception {
    state.history("east", kept);
    final Access bob =
        new Access() {
          @Override
          public Optional<User> authenticate(String token) {
            return Optional.empty();
          }

          @Override
          public boolean allowed(
              User user, String verb, String group, String resource, String namespace) {
            return namespace.equals("beta");
          }
        };
    final VisibleClusterView tenant =
        new VisibleClusterView(
            state.cluster("east").orElseThrow(), Viewer.of(new User("bob", List.of()), bob));

    final Answer answer = ReportQuery.of("from=-3h", clock).decide("east", null, tenant);

    final JsonNode body = io.quotaflow.admission.endpoint.Json.MAPPER.readTree(answer.body());
    assertThat(body.get("groups").findValuesAsText("group"))
        .contains("team-b")
        .doesNotContain("team-a", "gone");
  }

  private static JsonNode row(JsonNode body, String group) {
    for (final JsonNode row : body.get("groups")) {
      if (row.get("group").asText().equals(group)) {
        return row;
      }
    }
    throw new AssertionError("no row for " + group + " in " + body);
  }
}
