package io.quotaflow.admission.people.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.http.Plugin;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.http.TestClusters;
import io.quotaflow.admission.http.auth.Access;
import io.quotaflow.admission.http.auth.User;
import io.quotaflow.admission.http.auth.Viewer;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.GroupHistories;
import io.quotaflow.admission.state.KeptWindows;
import io.quotaflow.admission.state.MutableClock;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.admission.state.TieredWindows;
import io.quotaflow.admission.state.VisibleClusterView;
import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryTiers;
import io.quotaflow.history.HistoryWindow;
import io.quotaflow.quota.ResourceList;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET .../quotas/{group}/history} (docs/admission.md, History): the steps of the kept
 * history as the query asks them, and a clear 4xx for every question it cannot answer.
 */
class HistoryQueryTest {

  private static final Duration MINUTE = Duration.ofMinutes(1);
  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  private static final String HISTORY = "/api/v1/clusters/east/quotas/team-a/history";

  private final MutableClock clock = new MutableClock(NOW);
  private final SnapshotClusterState state = TestClusters.state();
  private final Plugin plugin = start();

  /** team-a: 4 cores used from 11:00, 6 cores (2 borrowed beyond its min of 4) from 11:30. */
  private final KeptWindows kept =
      new KeptWindows(MINUTE)
          .keep(
              "team-a",
              HistoryWindow.opened(
                  Instant.parse("2026-11-27T11:00:00Z"), MINUTE, GroupLevels.NONE, cpu(4_000)))
          .keep(
              "team-a",
              HistoryWindow.opened(
                      Instant.parse("2026-11-27T11:30:00Z"), MINUTE, cpu(4_000), cpu(6_000))
                  .withEviction("reclaimed-after-delay"));

  private static GroupLevels cpu(long used) {
    final ResourceList amount = ResourceList.of(ResourceList.CPU, used);
    return new GroupLevels(amount, amount, amount, ResourceList.of(ResourceList.CPU, 4_000));
  }

  private Plugin start() {
    return Plugin.start(PluginConfig.plainHttpOnLoopback(0), state, clock);
  }

  @AfterEach
  void stop() {
    plugin.close();
  }

  @Test
  void theLastHourByDefaultAtTheKeptStep() {
    state.history("east", histories());

    final JsonNode body = plugin.get(HISTORY).json();

    assertThat(body.get("from").asText()).isEqualTo("2026-11-27T11:00:00Z");
    assertThat(body.get("to").asText()).isEqualTo("2026-11-27T12:00:00Z");
    assertThat(body.get("step").asText()).isEqualTo("PT1M");
    assertThat(body.get("steps")).hasSize(60);
    final JsonNode borrowed = body.get("resources").get("cpu").get("borrowed");
    assertThat(borrowed.get("average").get(29).asLong()).isZero();
    assertThat(borrowed.get("average").get(30).asLong()).isEqualTo(2_000);
    // 2,000 milli-cores for 60,000 ms, as a decimal string.
    assertThat(borrowed.get("integral").get(30).asText()).isEqualTo("120000000");
    assertThat(body.get("steps").get(30).get("evictions").toString())
        .isEqualTo("{\"reclaimed-after-delay\":1}");
    assertThat(body.get("steps").get(29).get("evictions").toString()).isEqualTo("{}");
  }

  @Test
  void aLargerStepAggregatesExactlyAndThePeriodIsWidenedToWholeSteps() {
    state.history("east", histories());

    final JsonNode body =
        plugin.get(HISTORY + "?from=2026-11-27T11:10:00Z&to=2026-11-27T11:50:00Z&step=30m").json();

    assertThat(body.get("from").asText()).isEqualTo("2026-11-27T11:00:00Z");
    assertThat(body.get("to").asText()).isEqualTo("2026-11-27T12:00:00Z");
    final JsonNode used = body.get("resources").get("cpu").get("used");
    assertThat(used.get("average").get(0).asLong()).isEqualTo(4_000);
    assertThat(used.get("average").get(1).asLong()).isEqualTo(6_000);
    assertThat(used.get("integral").get(1).asText()).isEqualTo(String.valueOf(6_000L * 1_800_000));
  }

  @Test
  void relativeTimesCountBackFromNow() {
    state.history("east", histories());

    final JsonNode body = plugin.get(HISTORY + "?from=-2h&to=-1h&step=1h").json();

    assertThat(body.get("from").asText()).isEqualTo("2026-11-27T10:00:00Z");
    assertThat(body.get("resources").get("cpu").get("used").get("average").get(0).asLong())
        .isZero();
  }

  @Test
  void everyQuestionItCannotAnswerIsA4xxThatSaysWhy() {
    state.history("east", histories());

    assertThat(plugin.get(HISTORY + "?from=yesterday"))
        .satisfies(reply -> assertThat(reply.status()).isEqualTo(400))
        .satisfies(reply -> assertThat(reply.body()).contains("ISO-8601", "yesterday"));
    assertThat(plugin.get(HISTORY + "?step=90s"))
        .satisfies(reply -> assertThat(reply.status()).isEqualTo(400))
        .satisfies(reply -> assertThat(reply.body()).contains("not a multiple", "PT1M"));
    assertThat(plugin.get(HISTORY + "?step=fast").status()).isEqualTo(400);
    assertThat(plugin.get(HISTORY + "?from=-1h&to=-2h"))
        .satisfies(reply -> assertThat(reply.status()).isEqualTo(400))
        .satisfies(reply -> assertThat(reply.body()).contains("after"));
    assertThat(plugin.get(HISTORY + "?from=-365d"))
        .satisfies(reply -> assertThat(reply.status()).isEqualTo(400))
        .satisfies(reply -> assertThat(reply.body()).contains("larger step"));
    assertThat(plugin.get("/api/v1/clusters/east/quotas/nobody/history"))
        .satisfies(reply -> assertThat(reply.status()).isEqualTo(404))
        .satisfies(reply -> assertThat(reply.body()).contains("no quota group nobody"));
    assertThat(plugin.post(HISTORY, "{}").status()).isEqualTo(405);
  }

  @Test
  void anEngineThatKeepsNoHistorySaysSo() {
    final Plugin.Reply reply = plugin.get(HISTORY);

    assertThat(reply.status()).isEqualTo(404);
    assertThat(reply.body()).contains("history.enabled");
  }

  @Test
  void aStepOfNothingIsA400() {
    state.history("east", histories());

    // PT0.0001S is positive, yet rounds to no milliseconds: the period would be divided by zero.
    for (final String step : List.of("0", "0s", "0m", "-1m", "PT0.0001S", "PT0S")) {
      assertThat(plugin.get(HISTORY + "?step=" + step))
          .satisfies(reply -> assertThat(reply.status()).as(step).isEqualTo(400))
          .satisfies(reply -> assertThat(reply.body()).as(step).contains("step \\\"" + step));
    }
  }

  /**
   * Issue 39, point 9: a tenant gets the 404 of a group that never existed for another's group and
   * for a deleted group's history alike (whose namespaces, and so whose readers, are not known).
   */
  @Test
  void aTenantGetsA404ForTheHistoryOfAnotherOrADeletedGroup() {
    state.history(
        "east",
        kept.keep(
            "gone",
            HistoryWindow.opened(
                Instant.parse("2026-11-27T11:10:00Z"), MINUTE, GroupLevels.NONE, cpu(1_000))));
    final VisibleClusterView tenant = tenant();

    final Answer deleted = history("gone", tenant);
    final Answer another = history("team-a", tenant);
    final Answer missing = history("no-such", tenant);

    assertThat(deleted.status()).isEqualTo(404);
    assertThat(another.status()).isEqualTo(404);
    assertThat(new String(another.body()).replace("team-a", "no-such"))
        .isEqualTo(new String(missing.body()));
    assertThat(history("team-b", tenant).status()).isEqualTo(200);
    // Who sees the whole cluster still reads a deleted group's history.
    assertThat(plugin.get("/api/v1/clusters/east/quotas/gone/history").status()).isEqualTo(200);
  }

  private Answer history(String group, ClusterView view) {
    try {
      return HistoryQuery.of(group, "", clock).decide("east", null, view);
    } catch (BadRequestException e) {
      throw new AssertionError(e);
    }
  }

  private VisibleClusterView tenant() {
    final ClusterView live = state.cluster("east").orElseThrow();
    final Access access =
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
    return new VisibleClusterView(live, Viewer.of(new User("bob", List.of()), access));
  }

  @Test
  void aTenantMayNotReadTheHistoryOfAGroupItMayNotSee() {
    state.history("east", histories());
    final ClusterView live = state.cluster("east").orElseThrow();
    final Access access =
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
        new VisibleClusterView(live, Viewer.of(new User("bob", List.of()), access));

    final Answer answer;
    try {
      answer = HistoryQuery.of("team-a", "", clock).decide("east", null, tenant);
    } catch (BadRequestException e) {
      throw new AssertionError(e);
    }

    assertThat(answer.status()).isEqualTo(404);
  }

  /**
   * Issue 40: with two tiers, a period older than a day and an hour is answered from the hourly
   * tier, by default in hours; finer steps there are a 400 naming the coarse step; the last day in
   * quarters is still answered from the minutes.
   */
  @Test
  void anOlderPeriodIsAnsweredFromTheCoarseTierInItsSteps() {
    final Duration hour = Duration.ofHours(1);
    final KeptWindows coarse =
        new KeptWindows(hour)
            .keep(
                "team-a",
                HistoryWindow.opened(
                        Instant.parse("2026-11-27T11:00:00Z"), hour, GroupLevels.NONE, cpu(4_000))
                    .changed(Instant.parse("2026-11-27T11:30:00Z"), cpu(6_000))
                    .withEviction("reclaimed-after-delay"));
    final KeptWindows fine =
        new KeptWindows(MINUTE, coarse)
            .keep(
                "team-a",
                HistoryWindow.opened(
                    Instant.parse("2026-11-27T11:00:00Z"), MINUTE, GroupLevels.NONE, cpu(4_000)))
            .keep(
                "team-a",
                HistoryWindow.opened(
                        Instant.parse("2026-11-27T11:30:00Z"), MINUTE, cpu(4_000), cpu(6_000))
                    .withEviction("reclaimed-after-delay"));
    state.history(
        "east",
        new TieredWindows(
            new HistoryTiers(MINUTE, Duration.ofDays(1), hour, Duration.ofDays(14)), fine, coarse));

    final JsonNode hours = plugin.get(HISTORY + "?from=-2d").json();
    assertThat(hours.get("step").asText()).isEqualTo("PT1H");
    assertThat(hours.get("keptStep").asText()).isEqualTo("PT1H");
    assertThat(hours.get("steps")).hasSize(48);
    final JsonNode used = hours.get("resources").get("cpu").get("used");
    assertThat(used.get("average").get(47).asLong()).isEqualTo(5_000);
    assertThat(hours.get("steps").get(47).get("evictions").toString())
        .isEqualTo("{\"reclaimed-after-delay\":1}");

    assertThat(plugin.get(HISTORY + "?from=-2d&step=15m"))
        .satisfies(reply -> assertThat(reply.status()).isEqualTo(400))
        .satisfies(reply -> assertThat(reply.body()).contains("not a multiple", "PT1H", "coarser"));

    final JsonNode quarters = plugin.get(HISTORY + "?from=-1d&step=15m").json();
    assertThat(quarters.get("keptStep").asText()).isEqualTo("PT1M");
    assertThat(quarters.get("steps")).hasSize(96);
    final JsonNode quarterUsed = quarters.get("resources").get("cpu").get("used");
    assertThat(quarterUsed.get("average").get(93).asLong()).isEqualTo(4_000);
    assertThat(quarterUsed.get("average").get(94).asLong()).isEqualTo(6_000);

    // A report over both: widened to whole hours, the same integrals as the minutes give.
    final JsonNode report =
        plugin.get("/api/v1/clusters/east/report?from=2026-11-25T10:30:00Z&to=now").json();
    assertThat(report.get("from").asText()).isEqualTo("2026-11-25T10:00:00Z");
    JsonNode teamA = null;
    for (final JsonNode row : report.get("groups")) {
      if (row.get("group").asText().equals("team-a")) {
        teamA = row;
      }
    }
    assertThat(teamA).as(report.toString()).isNotNull();
    assertThat(teamA.get("resources").get("cpu").get("integrals").get("used").asText())
        .isEqualTo(String.valueOf(4_000L * 1_800_000 + 6_000L * 1_800_000));
  }

  private GroupHistories histories() {
    return kept;
  }
}
