package io.quotaflow.cli.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.quotaflow.cli.tree.QueryClient;
import io.quotaflow.cli.tree.QueryException;
import io.quotaflow.cli.tree.ServerTrustOptions;
import io.quotaflow.explain.ExplanationJson;
import io.quotaflow.explain.ExplanationText;
import io.quotaflow.explain.PodExplanation;
import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.simulate.BadInputException;
import io.quotaflow.simulate.ManifestCluster;
import io.quotaflow.simulate.SimulateConfig;
import io.quotaflow.tree.ClusterQuotaState;
import io.quotaflow.tree.GroupDirectory;
import io.quotaflow.tree.PodAssignment;
import io.quotaflow.tree.PodExplainer;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.TreeSnapshot;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code quotaflow explain pod NAMESPACE/NAME}: the pod's group and how it was found, its class and
 * why, whether it would be admitted now and what would admit it, and, asked of a server, the
 * decision of a recent eviction. Exit codes: 0 explained; 1 the server could not be asked or the
 * pod is unknown; 2 bad input or usage.
 */
@Command(
    name = "pod",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Explains a pod: its group and how it was found, its class, whether it fits now and what"
            + " would make it fit, and the decision of a recent eviction (with --server).",
    footer = {
      "",
      "Exit codes: 0 explained; 1 the server cannot be reached, or the pod is unknown; 2 bad"
          + " input or usage."
    })
public final class ExplainPodCommand implements Callable<Integer> {

  private static final JsonMapper JSON = new JsonMapper();

  @Spec private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "NAMESPACE/NAME", description = "The pod.")
  private String pod;

  @ArgGroup(exclusive = true, multiplicity = "1")
  private ExplainGroupCommand.Source source;

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

  public ExplainPodCommand() {
    this(System.in);
  }

  /**
   * @param standardInput what {@code -f -} reads
   */
  public ExplainPodCommand(InputStream standardInput) {
    this.standardInput = standardInput;
  }

  @Override
  public Integer call() {
    if (!output.equals("text") && !output.equals("json")) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--output must be text or json, not " + output);
    }
    final String[] parts = pod.split("/", -1);
    if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "the pod must be given as NAMESPACE/NAME, not " + pod);
    }
    final PodRef ref = new PodRef(parts[0], parts[1]);
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    try {
      out.print(source.server != null ? fromServer(ref) : fromManifests(ref, err));
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

  private String fromServer(PodRef ref) {
    final QueryClient client = trust.client(spec, source.server, Duration.ofSeconds(10));
    final String name = cluster != null ? cluster : ExplainGroupCommand.onlyCluster(client);
    final JsonNode body = client.explainPod(name, ref.namespace(), ref.name());
    return output.equals("json") ? body.toPrettyString() + "\n" : body.path("text").asText();
  }

  private String fromManifests(PodRef ref, PrintWriter err) throws BadInputException {
    final QuotaOptions options =
        config == null ? QuotaOptions.DEFAULTS : SimulateConfig.load(config);
    final ManifestCluster manifests =
        ManifestCluster.read(
            source.paths, standardInput, warning -> err.println("warning: " + warning));
    final ClusterQuotaState state =
        ClusterQuotaState.restore(
            options,
            manifests.inputs(),
            new TreeSnapshot(io.quotaflow.quota.ResourceList.empty(), List.of(), List.of()));
    state.recompute();
    final QuotaPod input =
        state
            .podInput(ref)
            .orElseThrow(() -> new QueryException("no pod " + ref + " in the manifests"));
    final Optional<PodAssignment> assignment = state.pod(ref);
    final String group = assignment.map(PodAssignment::group).orElse("");
    final PodExplanation explanation =
        new PodExplainer(
                state.whatIfInputs(), GroupDirectory.of(manifests.inputs().groups()), options)
            .explain(input, assignment, state.podsOf(group));
    if (output.equals("json")) {
      return JSON.createObjectNode()
              .set("explanation", ExplanationJson.of(explanation))
              .toPrettyString()
          + "\n";
    }
    return ExplanationText.of(explanation);
  }
}
