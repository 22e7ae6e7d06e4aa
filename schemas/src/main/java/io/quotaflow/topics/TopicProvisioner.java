package io.quotaflow.topics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure the catalogue's topics exist: creates missing ones with their recommended configs, and
 * checks existing ones for partition count and cleanup policy (mismatches), and for the input
 * topics' log-append time (warnings naming the command that fixes it). It never alters an existing
 * topic; differences are reported for an operator to settle. The caller owns and closes the {@link
 * Admin}.
 */
public final class TopicProvisioner {
  private static final Logger LOG = LoggerFactory.getLogger(TopicProvisioner.class);
  private static final Duration VISIBILITY_POLL = Duration.ofMillis(50);

  private final Admin admin;
  private final Duration timeout;

  /**
   * @param admin client of the cluster to provision
   * @param timeout how long each request to the cluster may take
   */
  public TopicProvisioner(final Admin admin, final Duration timeout) {
    this.admin = Objects.requireNonNull(admin, "admin");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  /**
   * Creates the missing topics and verifies the others.
   *
   * @param topics the topics, usually {@code catalogue.all()}
   * @param partitions partition count for new topics and expected of existing ones
   * @param replicationFactor replication factor for new topics
   * @return one check per topic, in the given order
   * @throws TopicProvisioningException when the cluster cannot be asked or refuses
   */
  public ProvisioningReport provision(
      final Collection<? extends Topic<?, ?>> topics,
      final int partitions,
      final short replicationFactor) {
    if (partitions < 1 || replicationFactor < 1) {
      throw new IllegalArgumentException(
          "partitions and replication factor must be positive: "
              + partitions
              + ", "
              + replicationFactor);
    }
    final Map<String, Topic<?, ?>> wanted = new LinkedHashMap<>();
    topics.forEach(topic -> wanted.put(topic.name(), topic));

    final Map<String, TopicDescription> existing = describe(wanted.keySet());
    final List<NewTopic> missing =
        wanted.values().stream()
            .filter(topic -> !existing.containsKey(topic.name()))
            .map(topic -> topic.newTopic(partitions, replicationFactor))
            .toList();
    final Set<String> created = create(missing);
    // Topics someone else created between our describe and our create are verified like the rest.
    final Set<String> raced =
        missing.stream()
            .map(NewTopic::name)
            .filter(name -> !created.contains(name))
            .collect(Collectors.toSet());
    existing.putAll(describeOnceVisible(raced));
    // A new topic reaches the brokers' metadata a moment after its creation is acknowledged; return
    // only once it is usable.
    final Set<String> invisible = new HashSet<>(created);
    invisible.removeAll(describeOnceVisible(created).keySet());
    if (!invisible.isEmpty()) {
      LOG.warn("Created topics {} but no broker describes them yet after {}", invisible, timeout);
    }
    final Map<String, Config> configs = configs(existing.keySet());

    final List<TopicCheck> checks = new ArrayList<>();
    for (final Topic<?, ?> topic : wanted.values()) {
      final TopicCheck check =
          created.contains(topic.name())
              ? new TopicCheck(topic.name(), TopicCheck.Status.CREATED, List.of())
              : verify(topic, existing.get(topic.name()), configs.get(topic.name()), partitions);
      if (check.status() == TopicCheck.Status.MISMATCHED) {
        LOG.warn(
            "Topic {} differs from the catalogue and is left unchanged: {}",
            check.topic(),
            check.differences());
      } else {
        LOG.info("Topic {}: {}", check.topic(), check.status());
      }
      check.warnings().forEach(warning -> LOG.warn("Topic {}: {}", check.topic(), warning));
      checks.add(check);
    }
    return new ProvisioningReport(checks);
  }

  private static TopicCheck verify(
      final Topic<?, ?> topic,
      final TopicDescription description,
      final Config config,
      final int partitions) {
    if (description == null) {
      // Created by someone else, yet not visible within the timeout (or deleted again).
      return new TopicCheck(
          topic.name(),
          TopicCheck.Status.MISMATCHED,
          List.of("exists according to the controller but no broker describes it"));
    }
    final List<String> differences = new ArrayList<>();
    final int actualPartitions = description.partitions().size();
    if (actualPartitions != partitions) {
      differences.add("has " + actualPartitions + " partitions, expected " + partitions);
    }
    final String cleanupPolicy = value(config, TopicConfig.CLEANUP_POLICY_CONFIG);
    final Set<String> actualPolicy = policyTokens(cleanupPolicy);
    if (!actualPolicy.equals(Set.of(topic.cleanupPolicy().configValue()))) {
      differences.add(
          TopicConfig.CLEANUP_POLICY_CONFIG
              + " is "
              + cleanupPolicy
              + ", expected "
              + topic.cleanupPolicy().configValue());
    }
    return new TopicCheck(
        topic.name(),
        differences.isEmpty() ? TopicCheck.Status.OK : TopicCheck.Status.MISMATCHED,
        differences,
        timestampWarnings(topic, value(config, TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG)));
  }

  /**
   * A topic the catalogue wants stamped by the broker ({@code LogAppendTime}: the inputs, whose
   * freshness is judged by the broker's clock) that its producers stamp instead: a warning with the
   * command that fixes it, not a mismatch (the readers clamp a producer's clock ahead, and a
   * process must still start on a topic created before issue 40).
   */
  private static List<String> timestampWarnings(final Topic<?, ?> topic, final String actual) {
    final String wanted = topic.config(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG).orElse(null);
    if (wanted == null || wanted.equals(actual)) {
      return List.of();
    }
    return List.of(
        TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG
            + " is "
            + actual
            + ", expected "
            + wanted
            + ": its records carry the producers' clocks, not the broker's (docs/reliability.md,"
            + " One clock); fix with: kafka-configs --bootstrap-server <broker> --alter"
            + " --entity-type topics --entity-name "
            + topic.name()
            + " --add-config "
            + TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG
            + "="
            + wanted);
  }

  private static String value(final Config config, final String key) {
    final ConfigEntry entry = config == null ? null : config.get(key);
    return entry == null ? null : entry.value();
  }

  private static Set<String> policyTokens(final String value) {
    if (value == null) {
      return Set.of();
    }
    return Arrays.stream(value.split(","))
        .map(String::trim)
        .filter(token -> !token.isEmpty())
        .collect(Collectors.toSet());
  }

  /**
   * Descriptions of {@code names}, asking again until every one is visible or the timeout passes;
   * those still unknown then are left out.
   */
  private Map<String, TopicDescription> describeOnceVisible(final Set<String> names) {
    final long deadline = System.nanoTime() + timeout.toNanos();
    final Map<String, TopicDescription> found = describe(names);
    while (found.size() < names.size() && System.nanoTime() < deadline) {
      pause();
      final Set<String> unseen = new HashSet<>(names);
      unseen.removeAll(found.keySet());
      found.putAll(describe(unseen));
    }
    return found;
  }

  private static void pause() {
    try {
      TimeUnit.MILLISECONDS.sleep(VISIBILITY_POLL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TopicProvisioningException("Interrupted while waiting for topics to appear", e);
    }
  }

  /** Descriptions of those of {@code names} that exist. */
  private Map<String, TopicDescription> describe(final Set<String> names) {
    final Map<String, TopicDescription> found = new HashMap<>();
    if (names.isEmpty()) {
      return found;
    }
    final Map<String, KafkaFuture<TopicDescription>> futures =
        admin
            .describeTopics(names, new DescribeTopicsOptions().timeoutMs(timeoutMillis()))
            .topicNameValues();
    for (final Map.Entry<String, KafkaFuture<TopicDescription>> entry : futures.entrySet()) {
      try {
        found.put(entry.getKey(), await(entry.getValue(), "describe topic " + entry.getKey()));
      } catch (TopicProvisioningException e) {
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
          throw e;
        }
      }
    }
    return found;
  }

  /** Creates the topics; returns the names created, leaving out those that already existed. */
  private Set<String> create(final List<NewTopic> topics) {
    if (topics.isEmpty()) {
      return Set.of();
    }
    final Map<String, KafkaFuture<Void>> futures =
        admin.createTopics(topics, new CreateTopicsOptions().timeoutMs(timeoutMillis())).values();
    final Set<String> created = new HashSet<>();
    for (final Map.Entry<String, KafkaFuture<Void>> entry : futures.entrySet()) {
      try {
        await(entry.getValue(), "create topic " + entry.getKey());
        created.add(entry.getKey());
      } catch (TopicProvisioningException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw e;
        }
      }
    }
    return created;
  }

  /** The configs of each topic; absent when the broker does not report them. */
  private Map<String, Config> configs(final Set<String> names) {
    if (names.isEmpty()) {
      return Map.of();
    }
    final List<ConfigResource> resources =
        names.stream().map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name)).toList();
    final Map<ConfigResource, Config> configs =
        await(
            admin
                .describeConfigs(resources, new DescribeConfigsOptions().timeoutMs(timeoutMillis()))
                .all(),
            "describe configs of " + names);
    final Map<String, Config> byName = new HashMap<>();
    configs.forEach((resource, config) -> byName.put(resource.name(), config));
    return byName;
  }

  private <T> T await(final KafkaFuture<T> future, final String what) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new TopicProvisioningException(
          "Cannot " + what + ": " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new TopicProvisioningException("Cannot " + what + ": no answer within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TopicProvisioningException("Interrupted while trying to " + what, e);
    }
  }

  private int timeoutMillis() {
    return (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
  }
}
