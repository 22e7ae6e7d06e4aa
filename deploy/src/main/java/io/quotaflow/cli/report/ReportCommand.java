package io.quotaflow.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.cli.explain.ExplainGroupCommand;
import io.quotaflow.cli.tree.QueryClient;
import io.quotaflow.cli.tree.QueryException;
import io.quotaflow.cli.tree.ServerTrustOptions;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code quotaflow report --server URL}: per group, over a period, the guaranteed, used, borrowed
 * and lent resource-hours, the share of the guarantee used and the evictions and denials by reason,
 * from the engine's history (issue 30; docs/semantics.md section 23). Exit codes: 0 printed; 1 the
 * server could not be asked; 2 usage.
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Prints, per quota group over a period, the guaranteed, used, borrowed and lent"
            + " resource-hours, the share of its guarantee it used and its evictions and denials by"
            + " reason.",
    footer = {
      "",
      "Times: an ISO-8601 instant such as 2026-11-27T00:00:00Z, now, or a duration back from now"
          + " such as -7d. Exit codes: 0 printed; 1 the server cannot be reached or keeps no"
          + " history; 2 usage."
    })
public final class ReportCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Option(
      names = "--server",
      required = true,
      paramLabel = "URL",
      description = "The base URL of a running quotaflow's admission plugin.")
  private String server;

  @Option(
      names = "--cluster",
      paramLabel = "NAME",
      description = "The cluster (default: the only one the server knows).")
  private String cluster;

  @Option(
      names = "--from",
      paramLabel = "TIME",
      defaultValue = "-1d",
      description = "Start of the period (default -1d).")
  private String from;

  @Option(
      names = "--to",
      paramLabel = "TIME",
      defaultValue = "now",
      description = "End of the period (default now).")
  private String to;

  @Option(
      names = "--output",
      paramLabel = "table|csv|json",
      defaultValue = "table",
      description = "table (default) for people; csv, one row per group and resource; json.")
  private String output;

  @Mixin private ServerTrustOptions trust;

  @Override
  public Integer call() {
    if (!output.equals("table") && !output.equals("csv") && !output.equals("json")) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--output must be table, csv or json, not " + output);
    }
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    final QueryClient client = trust.client(spec, server, Duration.ofSeconds(30));
    try {
      final String name = cluster != null ? cluster : ExplainGroupCommand.onlyCluster(client);
      final JsonNode report = client.report(name, from, to);
      out.print(
          switch (output) {
            case "json" -> report.toPrettyString() + "\n";
            case "csv" -> ReportFormats.csv(report);
            default -> ReportFormats.table(report);
          });
      out.flush();
      return 0;
    } catch (QueryException e) {
      err.println("report: " + e.getMessage());
      err.flush();
      return 1;
    }
  }
}
