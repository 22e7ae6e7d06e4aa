package io.quotaflow.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.connect.ConnectConfig;
import io.quotaflow.connect.ConnectSettings;
import io.quotaflow.connect.StatusWriterSettings;
import io.quotaflow.engine.config.EngineConfig;
import io.quotaflow.engine.config.EngineSettings;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/**
 * The Strimzi examples against the code: one KafkaTopic per topic of the catalogue, as the engine
 * creates and checks it, and KafkaUsers whose ACLs name the topics, groups and transactional ids
 * the configuration gives. (That those ACLs are enough is {@code SecureKafkaIT}'s.)
 */
class StrimziExamplesTest {

  private static final Path BASE_ENGINE_PROPERTIES =
      Path.of("kubernetes", "base", "engine.properties");

  @Test
  void everyTopicOfTheCatalogueHasAKafkaTopicAsTheEngineWouldCreateIt() throws IOException {
    final TopicCatalogue catalogue = TopicCatalogue.withDefaultPrefix();
    final int partitions = EngineConfig.defaults().get(EngineSettings.TOPIC_PARTITIONS);
    final Map<String, JsonNode> byTopic = new TreeMap<>();
    for (final JsonNode topic : StrimziExamples.topics()) {
      assertThat(topic.path("kind").asText()).isEqualTo("KafkaTopic");
      assertThat(topic.path("metadata").path("labels").path("strimzi.io/cluster").asText())
          .isNotBlank();
      byTopic.put(topic.path("spec").path("topicName").asText(), topic);
    }

    assertThat(byTopic.keySet())
        .containsExactlyInAnyOrderElementsOf(catalogue.all().stream().map(Topic::name).toList());
    for (final Topic<?, ?> topic : catalogue.all()) {
      final JsonNode spec = byTopic.get(topic.name()).path("spec");
      final Map<String, String> config = new HashMap<>();
      spec.path("config").properties().forEach(e -> config.put(e.getKey(), e.getValue().asText()));
      assertThat(spec.path("partitions").asInt()).as(topic.name()).isEqualTo(partitions);
      assertThat(config).as(topic.name()).isEqualTo(topic.configs());
    }
  }

  @Test
  void theEnginesAclsNameItsTopicsGroupAndTransactionalIds() throws IOException {
    final String applicationId = baseEngineProperties().get(StreamsConfig.APPLICATION_ID_CONFIG);
    final List<AclBinding> engine = bindings("quotaflow-engine");

    assertThat(applicationId).isEqualTo("quotaflow-engine");
    assertThat(engine)
        .anyMatch(prefixed(ResourceType.TOPIC, TopicCatalogue.DEFAULT_PREFIX))
        .anyMatch(prefixed(ResourceType.TOPIC, applicationId + "-"))
        .anyMatch(literal(ResourceType.GROUP, applicationId))
        .anyMatch(prefixed(ResourceType.TRANSACTIONAL_ID, applicationId + "-"));
  }

  @Test
  void theConnectorsAclsNameTheirTopicsGroupsAndTransactionalIds() throws IOException {
    final ConnectConfig defaults = ConnectConfig.builder().build();
    final String evictionGroup = defaults.get(ConnectSettings.EVICTION_GROUP_ID);
    final List<AclBinding> connectors = bindings("quotaflow-connectors");

    assertThat(connectors)
        .anyMatch(prefixed(ResourceType.TOPIC, TopicCatalogue.DEFAULT_PREFIX))
        .anyMatch(literal(ResourceType.GROUP, evictionGroup))
        .anyMatch(literal(ResourceType.GROUP, defaults.get(StatusWriterSettings.STATUS_GROUP_ID)))
        .anyMatch(prefixed(ResourceType.TRANSACTIONAL_ID, evictionGroup + "-"));
  }

  private static List<AclBinding> bindings(final String user) throws IOException {
    return StrimziExamples.aclBindings().stream()
        .filter(binding -> binding.entry().principal().equals("User:" + user))
        .toList();
  }

  private static Predicate<AclBinding> prefixed(final ResourceType type, final String name) {
    return binding ->
        binding.pattern().resourceType() == type
            && binding.pattern().patternType() == PatternType.PREFIXED
            && binding.pattern().name().equals(name);
  }

  private static Predicate<AclBinding> literal(final ResourceType type, final String name) {
    return binding ->
        binding.pattern().resourceType() == type
            && binding.pattern().patternType() == PatternType.LITERAL
            && binding.pattern().name().equals(name);
  }

  private static Map<String, String> baseEngineProperties() throws IOException {
    final Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(BASE_ENGINE_PROPERTIES)) {
      properties.load(reader);
    }
    final Map<String, String> values = new HashMap<>();
    properties.stringPropertyNames().forEach(key -> values.put(key, properties.getProperty(key)));
    return values;
  }
}
