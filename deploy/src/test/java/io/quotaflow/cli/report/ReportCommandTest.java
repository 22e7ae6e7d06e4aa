package io.quotaflow.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.admission.http.AdmissionServer;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.state.KeptWindows;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.fixtures.CommandRun;
import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryWindow;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.Fixtures;
import io.quotaflow.tree.QuotaOptions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code quotaflow report --server}: the period's borrowed GPU-hours of a team that borrowed 4 GPUs
 * beyond its min of 4 for 90 minutes, its eviction and its denials, as a table, CSV and JSON.
 */
class ReportCommandTest {

  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  private static final String GPU = "nvidia.com/gpu";
  private static final Duration MINUTE = Duration.ofMinutes(1);

  private final SnapshotClusterState state = new SnapshotClusterState();
  private AdmissionServer server;

  @BeforeEach
  void startServer() throws Exception {
    state.put(
        "demo",
        Fixtures.cluster()
            .total(ResourceList.of(GPU, 16))
            .group(
                Fixtures.quota("team-a").min(ResourceList.of(GPU, 4)).max(ResourceList.of(GPU, 16)))
            .inputs(),
        QuotaOptions.DEFAULTS);
    final GroupLevels borrowing = gpus(8);
    state.history(
        "demo",
        new KeptWindows(MINUTE)
            .keep(
                "team-a",
                HistoryWindow.opened(
                    Instant.parse("2026-11-27T10:00:00Z"), MINUTE, GroupLevels.NONE, borrowing))
            .keep(
                "team-a",
                HistoryWindow.opened(
                        Instant.parse("2026-11-27T11:30:00Z"), MINUTE, borrowing, gpus(4))
                    .withEviction("reclaimed-after-delay")
                    .withDenial("exceeds-max")
                    .withDenial("exceeds-max")));
    server =
        AdmissionServer.builder(PluginConfig.plainHttpOnLoopback(0), state)
            .clock(Clock.fixed(NOW, ZoneOffset.UTC))
            .build()
            .start();
  }

  private static GroupLevels gpus(long used) {
    final ResourceList amount = ResourceList.of(GPU, used);
    return new GroupLevels(amount, amount, amount, ResourceList.of(GPU, 4));
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Test
  void theTableShowsThePeriodsBorrowedGpuHours() {
    final CommandRun run = CommandRun.of("report", "--server", url(), "--from", "-2h");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("Cluster demo, 2026-11-27T10:00:00Z to 2026-11-27T12:00:00Z")
        .contains("GUARANTEED")
        .containsPattern(
            "team-a +nvidia.com/gpu +nvidia.com/gpu-hours +8.000 +14.000 +6.000 +0.000 +100.0% +"
                + "reclaimed-after-delay 1 +exceeds-max 2");
  }

  @Test
  void csvAndJsonCarryTheSameFigures() {
    final CommandRun csv =
        CommandRun.of("report", "--server", url(), "--from", "-2h", "--output", "csv");
    final CommandRun json =
        CommandRun.of("report", "--server", url(), "--from", "-2h", "--output", "json");

    assertThat(csv.out())
        .startsWith(
            "group,exists,resource,unit,guaranteed,used,borrowed,lent,guaranteeUsedPercent,evictions,denials\n")
        .contains(
            "team-a,true,nvidia.com/gpu,nvidia.com/gpu-hours,8.000,14.000,6.000,0.000,100.0,reclaimed-after-delay 1,exceeds-max 2\n");
    assertThat(json.out()).contains("\"borrowed\" : \"6.000\"");
  }

  @Test
  void aServerAndKafkaTogetherOrNeitherIsAUsageError() {
    final CommandRun both =
        CommandRun.of("report", "--server", url(), "--bootstrap-servers", "127.0.0.1:1");
    final CommandRun neither = CommandRun.of("report");

    assertThat(both.exitCode()).isEqualTo(2);
    assertThat(both.err()).contains("Give either --server, or --bootstrap-servers");
    assertThat(neither.exitCode()).isEqualTo(2);
    assertThat(neither.err()).contains("Give either --server, or --bootstrap-servers");
  }

  @Test
  void aServerThatCannotBeReachedIsExitCodeOne() {
    final CommandRun run = CommandRun.of("report", "--server", "http://127.0.0.1:1");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("report: cannot reach");
  }

  private String url() {
    return "http://127.0.0.1:" + server.port();
  }
}
