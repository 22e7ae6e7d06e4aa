package io.quotaflow.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.people.report.Reports;
import io.quotaflow.cli.explain.ExplainGroupCommand;
import io.quotaflow.cli.topics.KafkaReaders;
import io.quotaflow.cli.tree.QueryClient;
import io.quotaflow.cli.tree.QueryException;
import io.quotaflow.cli.tree.ServerTrustOptions;
import io.quotaflow.config.LoadedConfig;
import io.quotaflow.config.Parsers;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.engine.config.HistorySettings;
import io.quotaflow.topics.TopicCatalogue;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.StreamsConfig;
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
      "From a server (--server) or from Kafka without one (--bootstrap-servers or --config): the"
          + " engine's history changelog gives the same figures.",
      "Times: an ISO-8601 instant such as 2026-11-27T00:00:00Z, now, or a duration back from now"
          + " such as -7d. Exit codes: 0 printed; 1 the server or Kafka cannot be read or keeps no"
          + " history; 2 usage."
    })
public final class ReportCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Option(
      names = "--server",
      paramLabel = "URL",
      description =
          "The base URL of a running quotaflow's admission plugin. Or read the history from Kafka"
              + " with --bootstrap-servers or --config.")
  private String server;

  @Option(
      names = "--bootstrap-servers",
      paramLabel = "HOST:PORT",
      description =
          "Read the engine's history from this Kafka (its changelog topic), without a server.")
  private String bootstrapServers;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "With Kafka: a properties file of Kafka client settings (security.protocol, ssl.*,"
              + " sasl.*), the engine's application id, its topic prefix and its history's"
              + " retention; the engine's file will do.")
  private Path configFile;

  @Option(
      names = "--application-id",
      paramLabel = "ID",
      description = "With Kafka: the engine's application.id (default: quotaflow-engine).")
  private String applicationId;

  @Option(
      names = "--history-step",
      paramLabel = "DURATION",
      description =
          "With Kafka: the engine's history.step (its fine tier), needed only when it kept"
              + " several (default: the one kept). The coarse tier's step and both retentions are"
              + " read from --config, as the engine reads them.")
  private String historyStep;

  @Option(
      names = "--cluster",
      paramLabel = "NAME",
      description = "The cluster (default: the only one there is).")
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

  private static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(60);

  private final Map<String, String> environment;

  /** The command as the launcher runs it: Kafka settings also from the process environment. */
  public ReportCommand() {
    this(System.getenv());
  }

  /**
   * @param environment where {@code QUOTAFLOW_KAFKA_*} variables are read
   */
  public ReportCommand(Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  @Override
  public Integer call() {
    if (!output.equals("table") && !output.equals("csv") && !output.equals("json")) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--output must be table, csv or json, not " + output);
    }
    final boolean fromKafka = bootstrapServers != null || configFile != null;
    if (fromKafka == (server != null)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "Give either --server, or --bootstrap-servers (or --config) to read the history from"
              + " Kafka");
    }
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    try {
      final JsonNode report = fromKafka ? offline() : fromServer();
      out.print(
          switch (output) {
            case "json" -> report.toPrettyString() + "\n";
            case "csv" -> ReportFormats.csv(report);
            default -> ReportFormats.table(report);
          });
      out.flush();
      return 0;
    } catch (QueryException | IllegalStateException | KafkaException e) {
      err.println("report: " + e.getMessage());
      err.flush();
      return 1;
    }
  }

  private JsonNode fromServer() throws QueryException {
    final QueryClient client = trust.client(spec, server, Duration.ofSeconds(30));
    final String name = cluster != null ? cluster : ExplainGroupCommand.onlyCluster(client);
    return client.report(name, from, to);
  }

  /** The report from the engine's history changelog, as the server would compute it. */
  private JsonNode offline() {
    final LoadedConfig config = kafkaConfiguration();
    final TopicCatalogue topics =
        TopicCatalogue.withPrefix(config.get(EngineSettings.TOPIC_PREFIX));
    final String engine =
        Optional.ofNullable(applicationId)
            .or(() -> config.passThrough(StreamsConfig.APPLICATION_ID_CONFIG))
            .orElse(EngineConfig.KAFKA_DEFAULTS.get(StreamsConfig.APPLICATION_ID_CONFIG));
    final Optional<Duration> step = Optional.ofNullable(historyStep).map(this::duration);
    final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    try (KafkaConsumer<byte[], byte[]> consumer =
        KafkaReaders.consumer(config, "quotaflow-report")) {
      final OfflineHistory history = new OfflineHistory(consumer, KAFKA_TIMEOUT);
      final OfflineHistory.Changelogs changelogs;
      try {
        changelogs =
            history.changelogs(
                engine,
                step,
                config.get(HistorySettings.HISTORY_COARSE_STEP),
                config.get(HistorySettings.HISTORY_FINE_RETENTION),
                config.get(HistorySettings.HISTORY_RETENTION));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
      }
      final Map<String, OfflineHistory.Cluster> clusters =
          history.read(changelogs, now, config.get(HistorySettings.HISTORY_RETENTION), topics);
      final String name = cluster != null ? cluster : onlyCluster(clusters.keySet());
      final OfflineHistory.Cluster one = clusters.get(name);
      if (one == null) {
        throw new IllegalStateException(
            "no history of cluster " + name + " (clusters: " + clusters.keySet() + ")");
      }
      final Reports.Period period;
      try {
        period = Reports.period(from, to, one.windows(), now);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
      }
      return Reports.body(
          name, period, now, one.windows(), one.groups(), group -> true, one.groups()::contains);
    }
  }

  private Duration duration(String text) {
    try {
      return Parsers.duration(text);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--history-step: " + e.getMessage());
    }
  }

  private static String onlyCluster(java.util.Set<String> clusters) {
    if (clusters.size() != 1) {
      throw new IllegalStateException(
          clusters.isEmpty()
              ? "the engine's history holds no cluster yet"
              : "the history holds several clusters " + clusters + ": choose one with --cluster");
    }
    return clusters.iterator().next();
  }

  /** The settings of --config, the environment and the options, in that precedence. */
  private LoadedConfig kafkaConfiguration() {
    return KafkaReaders.configuration(
        spec,
        List.of(
            EngineSettings.TOPIC_PREFIX,
            HistorySettings.HISTORY_RETENTION,
            HistorySettings.HISTORY_FINE_RETENTION,
            HistorySettings.HISTORY_COARSE_STEP),
        configFile,
        environment,
        bootstrapServers == null
            ? Map.of()
            : Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
  }
}
