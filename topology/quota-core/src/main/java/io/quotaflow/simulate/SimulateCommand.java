package io.quotaflow.simulate;

import io.quotaflow.config.QuotaSemantics;
import io.quotaflow.dra.DeviceClassMappings;
import io.quotaflow.profile.MultiTreeCalculator;
import io.quotaflow.profile.MultiTreeCalculator.TreeResult;
import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.profile.QuotaTrees;
import io.quotaflow.quota.GangSummary;
import io.quotaflow.reservation.ReservationCalculator;
import io.quotaflow.reservation.ReservationStatus;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.QuotaCalculator;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.QuotaOptions.DefaultWeightPolicy;
import io.quotaflow.tree.QuotaOptions.UsedPolicy;
import io.quotaflow.tree.TreeSnapshot;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code simulate}: computes the quota tree of Kubernetes manifests (ElasticQuota, Pod and Node
 * objects in YAML or JSON files; with ElasticQuotaProfiles, one tree per profile beside the default
 * tree) without a cluster or Kafka, and prints it as a table or as JSON.
 *
 * <p>Exit codes: 0 when the tree was computed (an invalid quota configuration is computed and
 * reported, not an error); 2 for bad input or a bad command line, with one message on stderr. With
 * {@code --output json}, stdout holds exactly one JSON object (format in {@code docs/simulate.md});
 * warnings go to stderr.
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Computes the elastic quota tree of Kubernetes manifests (ElasticQuota, Pod, Node)"
            + " offline: each group's request, used and runtime, and each pod's group and class.",
    footer = {
      "",
      "Exit codes: 0 computed (invalid groups are reported, not errors); 2 bad input or usage."
    })
public final class SimulateCommand implements Callable<Integer> {

  /** The tree was computed. */
  public static final int OK = 0;

  /** Bad input: a file, document or field that cannot be read; also picocli's usage errors. */
  public static final int BAD_INPUT = 2;

  /** Why fair share's memory changes nothing here: its past is the engine's history. */
  static final String NO_HISTORY =
      "fairshare-memory-enabled: manifests carry no history, so no group has borrowed in the"
          + " past; the numbers are the engine's while its memory is empty";

  /** How the result is printed. */
  public enum OutputFormat {
    TABLE,
    JSON
  }

  @Spec private CommandSpec spec;

  private final InputStream standardInput;

  /** The command as the launcher runs it: {@code -f -} reads the process's standard input. */
  public SimulateCommand() {
    this(System.in);
  }

  /**
   * @param standardInput what {@code -f -} reads
   */
  public SimulateCommand(InputStream standardInput) {
    this.standardInput = standardInput;
  }

  @Option(
      names = {"-f", "--filename"},
      required = true,
      paramLabel = "PATH",
      description =
          "A manifest file (multi-document YAML or JSON, kind: List allowed), a directory"
              + " (its *.yaml, *.yml and *.json files, not recursive), or - for standard input, as"
              + " in kubectl get elasticquotas,pods,nodes -A -o yaml | quotaflow simulate -f -."
              + " Repeatable.")
  private List<Path> paths;

  @Option(
      names = "--output",
      paramLabel = "table|json",
      defaultValue = "table",
      converter = OutputFormatConverter.class,
      description = "table (default): for people; json: one JSON object for programs.")
  private OutputFormat output;

  @Option(
      names = "--min-scale",
      arity = "1",
      paramLabel = "true|false",
      description = "Scale children's mins down when they do not fit (default true).")
  private Boolean minScale;

  @Option(
      names = "--default-shared-weight",
      paramLabel = "max|min",
      converter = WeightPolicyConverter.class,
      description = "The weight of a group without shared-weight annotation (default max).")
  private DefaultWeightPolicy defaultSharedWeight;

  @Option(
      names = "--used-policy",
      paramLabel = "bound|running",
      converter = UsedPolicyConverter.class,
      description = "Which pods count as used: bound to a node (default) or Running only.")
  private UsedPolicy usedPolicy;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "A properties file of the engine's quota settings by short name (min-scale,"
              + " namespace-binding-open, special-group-namespaces, guarantee-usage, parent-pods,"
              + " device-classes and the others of the engine's catalogue); flags override it.")
  private Path config;

  @Override
  public Integer call() {
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    try {
      final QuotaSemantics semantics = semantics();
      final QuotaOptions options = options(semantics);
      final Consumer<String> warnings = warning -> err.println("warning: " + warning);
      if (semantics.fairShareHalfLife().isPresent()) {
        warnings.accept(NO_HISTORY);
      }
      final List<Manifest> manifests = new ManifestReader(warnings, standardInput).read(paths);
      final DeviceClassMappings deviceClasses = semantics.deviceClasses();
      SimulateConfig.doubleDerivations(deviceClasses, options.derivedResources()).forEach(warnings);
      final ClusterInputs inputs =
          ManifestInputs.toClusterInputs(manifests, deviceClasses, warnings);
      final List<QuotaProfile> profiles = ManifestInputs.profiles(manifests, warnings);
      if (profiles.isEmpty()) {
        final TreeSnapshot snapshot = QuotaCalculator.compute(inputs, options);
        final Map<String, ReservationStatus> reservations =
            ReservationCalculator.compute(inputs, snapshot, options);
        final Map<String, List<GangSummary>> gangs =
            ReportGangs.of(snapshot, inputs.pods(), options);
        out.print(
            output == OutputFormat.JSON
                ? JsonReport.render(snapshot, reservations, gangs)
                : TableReport.render(snapshot, reservations, gangs));
      } else {
        QuotaTrees.of(inputs, profiles, options)
            .rejectedProfiles()
            .forEach(
                (name, reason) ->
                    warnings.accept("ElasticQuotaProfile " + name + " heads no tree: " + reason));
        final List<TreeReport> trees = new ArrayList<>();
        for (final TreeResult tree : MultiTreeCalculator.compute(inputs, profiles, options)) {
          trees.add(
              new TreeReport(
                  tree,
                  ReservationCalculator.compute(tree.inputs(), tree.snapshot(), options),
                  ReportGangs.of(tree.snapshot(), tree.inputs().pods(), options)));
        }
        out.print(
            output == OutputFormat.JSON ? JsonReport.render(trees) : TableReport.render(trees));
      }
      out.flush();
      err.flush();
      return OK;
    } catch (BadInputException e) {
      err.println("error: " + e.getMessage());
      err.flush();
      return BAD_INPUT;
    }
  }

  /** The engine's defaults, then the config file. */
  private QuotaSemantics semantics() throws BadInputException {
    return config == null ? SimulateConfig.read("", Map.of()) : SimulateConfig.read(config);
  }

  /** Defaults, then the config file, then the flags. */
  QuotaOptions options() throws BadInputException {
    return options(semantics());
  }

  private QuotaOptions options(QuotaSemantics semantics) {
    QuotaOptions options = semantics.options();
    if (minScale != null) {
      options = options.withMinScaling(minScale);
    }
    if (defaultSharedWeight != null) {
      options = options.withDefaultWeight(defaultSharedWeight);
    }
    if (usedPolicy != null) {
      options = options.withUsedPolicy(usedPolicy);
    }
    return options;
  }

  /** Lower-case choices on the command line for upper-case enum constants. */
  private abstract static class LowerCaseEnumConverter<E extends Enum<E>>
      implements ITypeConverter<E> {
    private final Class<E> type;
    private final String expected;

    LowerCaseEnumConverter(Class<E> type, String expected) {
      this.type = type;
      this.expected = expected;
    }

    @Override
    public E convert(String value) {
      for (final E constant : type.getEnumConstants()) {
        if (constant.name().toLowerCase(Locale.ROOT).equals(value.toLowerCase(Locale.ROOT))) {
          return constant;
        }
      }
      throw new TypeConversionException("expected " + expected + ", found '" + value + "'");
    }
  }

  static final class OutputFormatConverter extends LowerCaseEnumConverter<OutputFormat> {
    OutputFormatConverter() {
      super(OutputFormat.class, "table or json");
    }
  }

  static final class WeightPolicyConverter extends LowerCaseEnumConverter<DefaultWeightPolicy> {
    WeightPolicyConverter() {
      super(DefaultWeightPolicy.class, "max or min");
    }
  }

  static final class UsedPolicyConverter extends LowerCaseEnumConverter<UsedPolicy> {
    UsedPolicyConverter() {
      super(UsedPolicy.class, "bound or running");
    }
  }
}
