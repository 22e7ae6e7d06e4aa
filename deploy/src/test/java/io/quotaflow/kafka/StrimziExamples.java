package io.quotaflow.kafka;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The Strimzi examples of {@code deploy/kubernetes/strimzi}, read as the Topic and User Operators
 * read them; a KafkaUser's ACLs as the bindings the User Operator creates (principal {@code
 * User:<name>}).
 */
final class StrimziExamples {

  static final Path DIR = Path.of("kubernetes", "strimzi");
  // Strict as kubectl: a key repeated in a shipped file is an error here, not the last one winning.
  private static final ObjectMapper YAML =
      new ObjectMapper(
          YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());
  private static final Map<String, ResourceType> TYPES =
      Map.of(
          "topic", ResourceType.TOPIC,
          "group", ResourceType.GROUP,
          "transactionalId", ResourceType.TRANSACTIONAL_ID,
          "cluster", ResourceType.CLUSTER);

  private StrimziExamples() {}

  static List<JsonNode> topics() throws IOException {
    return documents(DIR.resolve("topics.yaml"));
  }

  static List<JsonNode> users() throws IOException {
    return documents(DIR.resolve("users.yaml"));
  }

  /** The ACL bindings of every KafkaUser. */
  static List<AclBinding> aclBindings() throws IOException {
    final List<AclBinding> bindings = new ArrayList<>();
    for (final JsonNode user : users()) {
      final String principal = "User:" + user.path("metadata").path("name").asText();
      for (final JsonNode acl : user.path("spec").path("authorization").path("acls")) {
        final JsonNode resource = acl.path("resource");
        final ResourceType type = TYPES.get(resource.path("type").asText());
        final ResourcePattern pattern =
            new ResourcePattern(
                type,
                type == ResourceType.CLUSTER ? "kafka-cluster" : resource.path("name").asText(),
                resource.path("patternType").asText("literal").equals("prefix")
                    ? PatternType.PREFIXED
                    : PatternType.LITERAL);
        for (final JsonNode operation : acl.path("operations")) {
          bindings.add(
              new AclBinding(
                  pattern,
                  new AccessControlEntry(
                      principal,
                      acl.path("host").asText("*"),
                      operation(operation.asText()),
                      AclPermissionType.ALLOW)));
        }
      }
    }
    return bindings;
  }

  /** {@code DescribeConfigs} is {@link AclOperation#DESCRIBE_CONFIGS}. */
  static AclOperation operation(final String name) {
    return AclOperation.valueOf(
        name.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT));
  }

  private static List<JsonNode> documents(final Path file) throws IOException {
    final List<JsonNode> documents = new ArrayList<>();
    try (MappingIterator<JsonNode> read =
        YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
      read.forEachRemaining(documents::add);
    }
    return documents;
  }
}
