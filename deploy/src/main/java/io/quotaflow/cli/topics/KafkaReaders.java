package io.quotaflow.cli.topics;

import io.quotaflow.config.ConfigLoader;
import io.quotaflow.config.LoadedConfig;
import io.quotaflow.config.Setting;
import io.quotaflow.kafka.ClientSettings;
import io.quotaflow.kafka.KafkaSecurity;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * How the operator commands that read quotaflow's topics ({@code topics tail}, {@code report
 * --bootstrap-servers}) find Kafka and read it: the same settings from the same places, and a
 * consumer that disturbs nothing.
 */
public final class KafkaReaders {

  private KafkaReaders() {}

  /**
   * The settings of {@code configFile} (when given), the {@code QUOTAFLOW_KAFKA_*} variables of
   * {@code environment} and {@code options}, in that precedence, with {@code settings} read as
   * quotaflow settings and the rest passed to Kafka.
   *
   * @throws CommandLine.ParameterException when no Kafka is named, or a security setting is wrong
   */
  public static LoadedConfig configuration(
      CommandSpec spec,
      List<Setting<?>> settings,
      Path configFile,
      Map<String, String> environment,
      Map<String, String> options) {
    final ConfigLoader loader = ConfigLoader.of(settings);
    if (configFile != null) {
      loader.file(configFile);
    }
    loader.environment(environment);
    options.forEach(loader::set);
    final LoadedConfig config = loader.build();
    KafkaSecurity.check(config.passThrough());
    if (config.passThrough(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG).isEmpty()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "No Kafka to read: give --bootstrap-servers, or bootstrap.servers in --config");
    }
    return config;
  }

  /**
   * A consumer of raw bytes with the Kafka settings a consumer knows, in no group, committing
   * nothing, reading committed records only (quotaflow writes in transactions: an aborted one's
   * records are not read) and creating no topic it asks for.
   *
   * @throws IllegalStateException when Kafka's client cannot be made (with the cause's reason)
   */
  public static KafkaConsumer<byte[], byte[]> consumer(LoadedConfig config, String clientId) {
    final Map<String, Object> settings =
        ClientSettings.knownTo(ConsumerConfig.configNames(), config.passThrough());
    settings.remove(ConsumerConfig.GROUP_ID_CONFIG);
    settings.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    settings.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
    settings.putIfAbsent(
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
    settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    settings.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
    try {
      return new KafkaConsumer<>(
          settings, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    } catch (KafkaException e) {
      // "Failed to construct kafka consumer" says nothing; its cause says what is wrong.
      Throwable cause = e;
      while (cause.getCause() != null) {
        cause = cause.getCause();
      }
      throw new IllegalStateException("cannot create a Kafka consumer: " + cause.getMessage(), e);
    }
  }
}
