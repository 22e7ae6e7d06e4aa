package io.quotaflow.cli.cluster;

import io.quotaflow.cli.topics.KafkaReaders;
import io.quotaflow.config.LoadedConfig;
import io.quotaflow.config.Parsers;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.kafka.ClientSettings;
import io.quotaflow.topics.TopicCatalogue;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code quotaflow cluster forget NAME}: retires a cluster's state (issue 40.12). Reads the input
 * topics for the cluster's records, refuses while connectors still write heartbeats of it, then
 * writes a FORGOTTEN marker and a tombstone for each of its live keys ({@link ClusterRetirement}).
 */
@Command(
    name = "forget",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Retires a cluster's state: writes a FORGOTTEN marker and a tombstone for each of the"
          + " cluster's objects in the input topics, so the engine drops the cluster's inputs, its"
          + " writers' identity and epoch and a quarantine for two clusters under the name;"
          + " compaction then removes the records.",
      "Refused while connectors still write heartbeats of the cluster (stop them first, or give"
          + " --force). Connectors that watch a cluster under this name afterwards start it"
          + " afresh."
    })
public final class ForgetCommand implements Callable<Integer> {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @Spec private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "NAME", description = "The cluster's name in the records.")
  private String cluster;

  @Option(
      names = "--bootstrap-servers",
      paramLabel = "HOSTS",
      description = "Kafka to write to (default: bootstrap.servers of --config).")
  private String bootstrapServers;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Properties file with the Kafka client settings (such as security.protocol, ssl.*,"
              + " sasl.*) and topic.prefix; the connectors' file will do.")
  private Path configFile;

  @Option(
      names = "--topic-prefix",
      paramLabel = "PREFIX",
      description = "Prefix of the topic names (default: topic.prefix, else quotaflow.).")
  private String topicPrefix;

  @Option(
      names = "--quiet-for",
      paramLabel = "DURATION",
      defaultValue = "2m",
      description =
          "How long ago the cluster's newest heartbeat must be for the command to go on"
              + " (default: 2m).")
  private String quietFor;

  @Option(
      names = "--force",
      description = "Forget the cluster even though connectors still write heartbeats of it.")
  private boolean force;

  private final Map<String, String> environment;
  private final Clock clock;

  /** The command as the launcher runs it: Kafka settings also from the process environment. */
  public ForgetCommand() {
    this(System.getenv(), Clock.systemUTC());
  }

  /**
   * @param environment where {@code QUOTAFLOW_KAFKA_*} variables are read
   * @param clock what the age of the newest heartbeat is measured with
   */
  public ForgetCommand(final Map<String, String> environment, final Clock clock) {
    this.environment = Map.copyOf(environment);
    this.clock = clock;
  }

  @Override
  public Integer call() {
    final Duration quiet = duration(quietFor);
    final LoadedConfig config = configuration();
    final TopicCatalogue catalogue =
        TopicCatalogue.withPrefix(config.get(EngineSettings.TOPIC_PREFIX));
    final PrintWriter out = spec.commandLine().getOut();
    final Map<InputTopics.InputTopic, ClusterHoldings> holdings = new LinkedHashMap<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        KafkaReaders.consumer(config, "quotaflow-cluster-forget")) {
      for (final InputTopics.InputTopic topic : InputTopics.of(catalogue)) {
        holdings.put(topic, ClusterHoldings.read(consumer, topic.name(), cluster, TIMEOUT));
      }
    }
    if (holdings.values().stream().allMatch(ClusterHoldings::isEmpty)) {
      throw new IllegalStateException(
          "no record of cluster '" + cluster + "' in the input topics: is the name right?");
    }
    final Instant now = clock.instant();
    final Optional<ClusterHoldings> beating =
        holdings.values().stream()
            .filter(held -> held.lastWriterMarker().isPresent())
            .max(
                (a, b) -> a.lastWriterMarker().orElseThrow().compareTo(b.lastWriterMarker().get()));
    if (beating.isPresent()) {
      final Instant last = beating.get().lastWriterMarker().orElseThrow();
      final Duration age = Duration.between(last, now);
      if (age.compareTo(quiet) < 0 && !force) {
        throw new IllegalStateException(
            String.format(
                "connectors wrote a heartbeat of cluster '%s' %d s ago (%s at %s): stop the"
                    + " connectors that watch it first (the command waits for --quiet-for %s of"
                    + " silence), or give --force",
                cluster, Math.max(0, age.toSeconds()), beating.get().topic(), last, quietFor));
      }
    }
    holdings.values().removeIf(ClusterHoldings::isEmpty);
    final int tombstones;
    try (Producer<byte[], byte[]> producer = producer(config)) {
      tombstones =
          ClusterRetirement.write(
              producer, cluster, holdings, now, "quotaflow cluster forget", TIMEOUT);
    }
    holdings.forEach(
        (topic, held) ->
            out.printf("%s: %d tombstones after a FORGOTTEN marker%n", topic.name(), held.live()));
    out.printf("cluster %s forgotten: %d tombstones written%n", cluster, tombstones);
    out.flush();
    return 0;
  }

  private Producer<byte[], byte[]> producer(final LoadedConfig config) {
    final Map<String, Object> settings =
        ClientSettings.knownTo(ProducerConfig.configNames(), config.passThrough());
    settings.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
    settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    settings.put(ProducerConfig.ACKS_CONFIG, "all");
    settings.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "quotaflow-cluster-forget");
    return new KafkaProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer());
  }

  /** The settings of --config, the environment and the options, in that precedence. */
  private LoadedConfig configuration() {
    final Map<String, String> options = new HashMap<>();
    if (bootstrapServers != null) {
      options.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    }
    if (topicPrefix != null) {
      options.put(EngineSettings.TOPIC_PREFIX.key(), topicPrefix);
    }
    return KafkaReaders.configuration(
        spec, List.of(EngineSettings.TOPIC_PREFIX), configFile, environment, options);
  }

  private Duration duration(final String text) {
    try {
      return Parsers.duration(text);
    } catch (final IllegalArgumentException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--quiet-for: " + e.getMessage());
    }
  }
}
