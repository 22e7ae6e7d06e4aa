package io.quotaflow.cli.topics;

import io.quotaflow.config.LoadedConfig;
import io.quotaflow.connect.ServiceCommand;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code quotaflow topics tail TOPIC}: prints records of a quotaflow topic as JSON lines, decoded
 * with the catalogue's serdes (every released schema version); see {@link RecordLines} for the
 * form. Reads committed records only, joins no consumer group and commits nothing.
 */
@Command(
    name = "tail",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Prints records of a quotaflow topic as JSON lines, decoded with every released schema:"
            + " the last 10 by default, tombstones and dead letters with their reason.",
    footer = {
      "",
      "Kafka settings (security.protocol, ssl.*, sasl.*) come from --config, then"
          + " QUOTAFLOW_KAFKA_* environment variables, then the options."
    })
public final class TailCommand implements Callable<Integer> {

  private static final Duration TIMEOUT = Duration.ofSeconds(15);
  private static final Duration STOP_WAIT = Duration.ofSeconds(5);

  @Spec private CommandSpec spec;

  @Parameters(
      paramLabel = "TOPIC",
      completionCandidates = TopicNames.class,
      description =
          "The topic, by its full name (quotaflow.pods.v1) or without the prefix (pods.v1).")
  private String topicName;

  @Option(
      names = "--bootstrap-servers",
      paramLabel = "HOST:PORT",
      description =
          "Kafka's bootstrap.servers: brokers to connect to (default: the one in --config).")
  private String bootstrapServers;

  @Option(
      names = "--from-beginning",
      description = "Start at the first record instead of the last ones.")
  private boolean fromBeginning;

  @Option(
      names = {"-n", "--count"},
      paramLabel = "N",
      description =
          "How many records: the last N (default 10), or with --from-beginning the first N"
              + " (default: all).")
  private Integer count;

  @Option(
      names = {"-f", "--follow"},
      description = "Then keep printing new records until Ctrl-C.")
  private boolean follow;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Properties file with Kafka client settings (such as security.protocol, ssl.*, sasl.*)"
              + " and topic.prefix; the engine's or the connectors' file will do.")
  private Path configFile;

  @Option(
      names = "--topic-prefix",
      paramLabel = "PREFIX",
      description = "Prefix of the topic names (default: topic.prefix, else quotaflow.).")
  private String topicPrefix;

  private final Map<String, String> environment;
  private volatile TopicTail running;

  /** The command as the launcher runs it: Kafka settings also from the process environment. */
  public TailCommand() {
    this(System.getenv());
  }

  /**
   * @param environment where {@code QUOTAFLOW_KAFKA_*} variables are read
   */
  public TailCommand(final Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  @Override
  public Integer call() throws InterruptedException {
    if (count != null && count < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "-n must be at least 1, not " + count);
    }
    final LoadedConfig config = configuration();
    final TopicCatalogue catalogue =
        TopicCatalogue.withPrefix(config.get(EngineSettings.TOPIC_PREFIX));
    final Topic<?, ?> topic = topic(catalogue);
    final RecordLines lines = new RecordLines(catalogue, topic);
    final PrintWriter out = spec.commandLine().getOut();
    final CountDownLatch finished = new CountDownLatch(1);
    try (TopicTail tail = new TopicTail(consumer(config), topic.name(), TIMEOUT)) {
      running = tail;
      // Ctrl-C while following: wake the consumer up and let run() return normally.
      final Thread hook = new Thread(() -> stop(tail, finished), "quotaflow-topics-tail-stop");
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        tail.run(
            new TopicTail.Options(
                fromBeginning, count == null ? OptionalInt.empty() : OptionalInt.of(count), follow),
            record -> {
              out.println(lines.line(record));
              out.flush();
            });
      } finally {
        running = null;
        finished.countDown();
        ServiceCommand.removeShutdownHook(hook);
      }
    }
    out.flush();
    return 0;
  }

  /** The settings of --config, the environment and the options, in that precedence. */
  private LoadedConfig configuration() {
    final Map<String, String> options = new java.util.HashMap<>();
    if (bootstrapServers != null) {
      options.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    }
    if (topicPrefix != null) {
      options.put(EngineSettings.TOPIC_PREFIX.key(), topicPrefix);
    }
    return KafkaReaders.configuration(
        spec, List.of(EngineSettings.TOPIC_PREFIX), configFile, environment, options);
  }

  private Topic<?, ?> topic(final TopicCatalogue catalogue) {
    final Optional<Topic<?, ?>> topic =
        catalogue.byName(topicName).or(() -> catalogue.byName(catalogue.prefix() + topicName));
    if (topic.isEmpty()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "Unknown topic '"
              + topicName
              + "'; quotaflow's topics are "
              + String.join(", ", catalogue.all().stream().map(Topic::name).toList()));
    }
    return topic.get();
  }

  /** A consumer of raw bytes in no group (see {@link KafkaReaders#consumer}). */
  private static KafkaConsumer<byte[], byte[]> consumer(final LoadedConfig config) {
    try {
      return KafkaReaders.consumer(config, "quotaflow-topics-tail");
    } catch (IllegalStateException e) {
      throw new TailException(e.getMessage(), e.getCause());
    }
  }

  /** Stops a following tail, as Ctrl-C does. */
  void stop() {
    final TopicTail tail = running;
    if (tail != null) {
      tail.wakeup();
    }
  }

  private static void stop(final TopicTail tail, final CountDownLatch finished) {
    tail.wakeup();
    try {
      finished.await(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The catalogue's topic names without the prefix, for shell completion. */
  static final class TopicNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      final TopicCatalogue catalogue = TopicCatalogue.withDefaultPrefix();
      return catalogue.all().stream()
          .map(topic -> topic.name().substring(catalogue.prefix().length()))
          .iterator();
    }
  }
}
