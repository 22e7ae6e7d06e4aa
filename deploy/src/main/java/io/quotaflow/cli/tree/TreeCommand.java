package io.quotaflow.cli.tree;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.simulate.TableReport;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code quotaflow tree}: prints the live quota tree of a running quotaflow as {@code quotaflow
 * local} prints it, read from the admission plugin's query API. Exit codes: 0 printed; 1 the server
 * could not be asked or answered with an error (unreachable, unknown cluster); 2 a bad command
 * line, such as a --server that is not an http(s) URL.
 */
@Command(
    name = "tree",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Prints the live quota tree of a running quotaflow, read from its query API, as"
            + " quotaflow local prints it: each group's min, max, request, used and runtime, then"
            + " every pod with its group and class.",
    footer = {
      "",
      "Exit codes: 0 printed; 1 the server cannot be reached or answers with an error (such as"
          + " an unknown cluster); 2 bad usage."
    })
public final class TreeCommand implements Callable<Integer> {

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

  @Spec private CommandSpec spec;

  @Option(
      names = "--server",
      required = true,
      paramLabel = "URL",
      description =
          "Base URL of the admission plugin: for quotaflow local http://127.0.0.1:8080, through"
              + " kubectl port-forward https://localhost:8443.")
  private String server;

  @Option(
      names = "--cluster",
      paramLabel = "NAME",
      description = "The cluster to print (default: every cluster the server knows).")
  private String cluster;

  @Option(
      names = "--no-pods",
      description =
          "Print the groups only: one request instead of one more per group that can hold pods.")
  private boolean noPods;

  @Mixin private ServerTrustOptions trust;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "10",
      description = "How long to wait for a connection and for each answer (default: 10).")
  private int timeoutSeconds;

  @Override
  public Integer call() {
    if (timeoutSeconds < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--timeout must be at least 1 second, not " + timeoutSeconds);
    }
    final QueryClient client = trust.client(spec, server, Duration.ofSeconds(timeoutSeconds));
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    for (final String name : clusters(client, err)) {
      print(client, name, out, err);
    }
    out.flush();
    err.flush();
    return 0;
  }

  /** The cluster asked for, or every cluster the server knows. */
  private List<String> clusters(final QueryClient client, final PrintWriter err) {
    final QueryClient.Clusters known = client.clusters();
    if (!known.unreachable().isEmpty()) {
      err.println(
          "warning: engine instances did not answer, their clusters may be missing: "
              + String.join(", ", known.unreachable()));
    }
    if (cluster != null) {
      if (!known.names().contains(cluster)) {
        throw new QueryException(
            "unknown cluster '"
                + cluster
                + "'; the server knows "
                + (known.names().isEmpty() ? "no cluster yet" : String.join(", ", known.names())));
      }
      return List.of(cluster);
    }
    if (known.names().isEmpty()) {
      throw new QueryException("the server knows no cluster yet");
    }
    return known.names();
  }

  private void print(
      final QueryClient client, final String name, final PrintWriter out, final PrintWriter err) {
    final JsonNode tree = client.tree(name);
    final JsonNode trees = tree.path("trees");
    final String table;
    if (trees.isArray() && !trees.isEmpty()) {
      // A cluster with ElasticQuotaProfiles: each tree on its own, as local and simulate print it.
      final StringBuilder all = new StringBuilder();
      for (final JsonNode each : trees) {
        final JsonNode one = client.tree(name, each.path("tree").asText());
        if (all.length() > 0) {
          all.append('\n');
        }
        all.append("=== ").append(TreeJson.heading(each)).append('\n');
        all.append(TableReport.renderTree(TreeJson.snapshot(one, groups(client, name, one))));
      }
      table = all.toString();
    } else {
      table = TableReport.render(TreeJson.snapshot(tree, groups(client, name, tree)));
    }
    out.printf("%n=== cluster %s at %s ===%n", name, LocalTime.now().format(TIME));
    final JsonNode staleness = tree.path("staleness");
    if (staleness.isObject()) {
      err.printf(
          "note: cluster %s answered from its last state (as of %s, %d ms old): %s%n",
          name,
          staleness.path("asOf").asText(),
          staleness.path("ageMillis").asLong(),
          staleness.path("reason").asText());
    }
    out.print(table);
  }

  /** Each leaf group's answer, with its pods (none with --no-pods). */
  private List<JsonNode> groups(final QueryClient client, final String name, final JsonNode tree) {
    final List<JsonNode> groups = new ArrayList<>();
    if (!noPods) {
      for (final JsonNode quota : tree.path("quotas")) {
        if (!TreeJson.isParent(quota)) {
          groups.add(client.group(name, quota.path("name").asText()));
        }
      }
    }
    return groups;
  }
}
