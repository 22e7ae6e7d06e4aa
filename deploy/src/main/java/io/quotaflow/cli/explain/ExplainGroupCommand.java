package io.quotaflow.cli.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.cli.tree.QueryClient;
import io.quotaflow.cli.tree.QueryException;
import io.quotaflow.cli.tree.ServerTrustOptions;
import io.quotaflow.explain.ExplanationJson;
import io.quotaflow.explain.ExplanationText;
import io.quotaflow.explain.Reach;
import io.quotaflow.explain.RuntimeExplanation;
import io.quotaflow.profile.MultiTreeCalculator;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.quota.Quantities;
import io.quotaflow.simulate.BadInputException;
import io.quotaflow.simulate.ManifestCluster;
import io.quotaflow.simulate.SimulateConfig;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.RuntimeExplainer;
import io.quotaflow.tree.TreeSnapshot;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code quotaflow explain group NAME --resource R}: the steps that produced a group's runtime,
 * computed from manifests as {@code simulate} does ({@code -f}) or asked of a running quotaflow
 * ({@code --server}); with {@code --target Q}, what the group would need to reach Q. Exit codes: 0
 * explained; 1 the server could not be asked or does not know the group; 2 bad input or usage.
 */
@Command(
    name = "group",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Explains how a group's runtime in one resource came about: what it asks, then every"
            + " split from the top of its tree down to its own, round by round.",
    footer = {
      "",
      "Exit codes: 0 explained; 1 the server cannot be reached, or the group is unknown; 2 bad"
          + " input or usage."
    })
public final class ExplainGroupCommand implements Callable<Integer> {

  private static final JsonMapper JSON = new JsonMapper();

  @Spec private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "NAME", description = "The quota group.")
  private String group;

  @Option(
      names = "--resource",
      required = true,
      paramLabel = "R",
      description = "The resource to explain: cpu, memory, or an extended resource's name.")
  private String resource;

  @Option(
      names = "--target",
      paramLabel = "Q",
      description =
          "Also say what the group would need (more min, more weight, less demand beside it) for"
              + " its runtime to reach this quantity, e.g. 8 or 64Gi.")
  private String target;

  @ArgGroup(exclusive = true, multiplicity = "1")
  private Source source;

  /** Manifests or a server: one of the two. */
  static final class Source {
    @Option(
        names = {"-f", "--filename"},
        paramLabel = "PATH",
        description = "Manifests as simulate reads them (a file, a directory, or -). Repeatable.")
    List<Path> paths;

    @Option(
        names = "--server",
        paramLabel = "URL",
        description = "The base URL of a running quotaflow's admission plugin.")
    String server;
  }

  @Option(
      names = "--cluster",
      paramLabel = "NAME",
      description = "With --server: the cluster (default: the only one the server knows).")
  private String cluster;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "With -f: simulate's settings file (min scaling, weights, gates).")
  private Path config;

  @Option(
      names = "--output",
      paramLabel = "text|json",
      defaultValue = "text",
      description = "text (default) for people; json: the steps, amounts in canonical units.")
  private String output;

  @Mixin private ServerTrustOptions trust;

  private final InputStream standardInput;

  public ExplainGroupCommand() {
    this(System.in);
  }

  /**
   * @param standardInput what {@code -f -} reads
   */
  public ExplainGroupCommand(InputStream standardInput) {
    this.standardInput = standardInput;
  }

  @Override
  public Integer call() {
    if (!output.equals("text") && !output.equals("json")) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--output must be text or json, not " + output);
    }
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    try {
      final String answer = source.server != null ? fromServer(err) : fromManifests(err);
      out.print(answer);
      out.flush();
      return 0;
    } catch (BadInputException e) {
      err.println("error: " + e.getMessage());
      err.flush();
      return 2;
    } catch (QueryException e) {
      err.println("explain: " + e.getMessage());
      err.flush();
      return 1;
    }
  }

  private String fromServer(PrintWriter err) {
    final QueryClient client = trust.client(spec, source.server, Duration.ofSeconds(10));
    final String name = cluster != null ? cluster : onlyCluster(client);
    final JsonNode body = client.explain(name, group, resource, Optional.ofNullable(target));
    if (output.equals("json")) {
      return body.toPrettyString() + "\n";
    }
    return body.path("text").asText();
  }

  public static String onlyCluster(QueryClient client) {
    final List<String> names = client.clusters().names();
    if (names.size() != 1) {
      throw new QueryException(
          "the server knows "
              + (names.isEmpty() ? "no cluster yet" : "clusters " + String.join(", ", names))
              + "; say which with --cluster");
    }
    return names.get(0);
  }

  private String fromManifests(PrintWriter err) throws BadInputException {
    final QuotaOptions options =
        config == null ? QuotaOptions.DEFAULTS : SimulateConfig.load(config);
    final Consumer<String> warnings = warning -> err.println("warning: " + warning);
    final ManifestCluster cluster = ManifestCluster.read(source.paths, standardInput, warnings);
    final ClusterInputs inputs = cluster.inputs();
    final List<QuotaProfile> profiles = cluster.profiles();
    // With profiles each tree is computed as a cluster of its own: explain in the group's tree.
    ClusterInputs treeInputs = inputs;
    for (final MultiTreeCalculator.TreeResult tree :
        profiles.isEmpty()
            ? List.<MultiTreeCalculator.TreeResult>of()
            : MultiTreeCalculator.compute(inputs, profiles, options)) {
      if (tree.inputs().groups().stream().anyMatch(g -> g.name().equals(group))) {
        treeInputs = tree.inputs();
        break;
      }
    }
    final ClusterQuotaState state =
        ClusterQuotaState.restore(
            options,
            treeInputs,
            new TreeSnapshot(io.quotaflow.quota.ResourceList.empty(), List.of(), List.of()));
    state.recompute();
    final RuntimeExplainer explainer = state.explainer();
    final RuntimeExplanation explanation =
        explainer
            .explain(group, resource)
            .orElseThrow(() -> new QueryException("no quota group " + group + " in the manifests"));
    Optional<Reach> reach = Optional.empty();
    if (target != null) {
      final long amount;
      try {
        amount = Quantities.parse(resource, target);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--target " + target + " is not a quantity of " + resource);
      }
      reach = explainer.reach(group, resource, amount);
    }
    if (output.equals("json")) {
      final ObjectNode body = JSON.createObjectNode();
      body.set("explanation", ExplanationJson.of(explanation));
      reach.ifPresent(r -> body.set("reach", ExplanationJson.of(r)));
      return body.toPrettyString() + "\n";
    }
    return ExplanationText.of(explanation)
        + reach.map(r -> "\n" + ExplanationText.of(r)).orElse("");
  }
}
