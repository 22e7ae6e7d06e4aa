package io.quotaflow.cli.topics;

import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.kafka.common.config.TopicConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code quotaflow topics list}: the topics of the catalogue, without asking Kafka. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description =
        "Lists quotaflow's topics with their cleanup policy and retention, as the catalogue"
            + " defines them (Kafka is not asked).")
public final class TopicsListCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Option(
      names = "--topic-prefix",
      paramLabel = "PREFIX",
      defaultValue = TopicCatalogue.DEFAULT_PREFIX,
      description = "Prefix of the topic names, the setting topic.prefix (default: quotaflow.).")
  private String prefix;

  @Override
  public Integer call() {
    final PrintWriter out = spec.commandLine().getOut();
    for (final Topic<?, ?> topic : TopicCatalogue.withPrefix(prefix).all()) {
      out.printf(
          "%-32s %-8s %s%n",
          topic.name(),
          topic.cleanupPolicy().name().toLowerCase(Locale.ROOT),
          topic.config(TopicConfig.RETENTION_MS_CONFIG).map(ms -> "retention.ms=" + ms).orElse(""));
    }
    out.flush();
    return 0;
  }
}
