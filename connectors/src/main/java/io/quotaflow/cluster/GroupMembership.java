package io.quotaflow.cluster;

import io.quotaflow.kafka.ClientSettings;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.CloseOptions.GroupMembershipOperation;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the connectors' consumers take part in their consumer groups, so that a restart after a crash
 * (kill -9, node loss) does not wait for the dead member's session to expire.
 *
 * <p>The consumers use the consumer group protocol of KIP-848 ({@code group.protocol=consumer}):
 * the broker assigns partitions, and a member that joins does not stop the others. They are static
 * members ({@code group.instance.id}, by default the pod's name): under KIP-848 a static member
 * that crashed keeps its partitions until its session times out (45 s by default, a broker
 * setting), and its successor under the same instance id is refused ({@code
 * UNRELEASED_INSTANCE_ID}) until then. So before it joins, a consumer removes the departed members
 * it knows to be dead through the admin API ({@link #removeDeparted}): its own instance id (a
 * restarted pod has the same name as the one that crashed), and, for a new leader of the
 * connectors, every other member (only the leader consumes). On a clean stop the consumer leaves
 * the group for good ({@link #close}).
 */
public final class GroupMembership {

  /** How long one client's close may take; a stop must finish well within 5 s. */
  public static final Duration CLIENT_CLOSE_TIMEOUT = Duration.ofSeconds(1);

  /** How long removing departed members may take before a consumer joins without it. */
  public static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);

  /** The environment variables that name the instance, in order: the pod's name, the host's. */
  public static final List<String> NAME_VARIABLES = List.of("POD_NAME", "HOSTNAME");

  private static final Logger LOG = LoggerFactory.getLogger(GroupMembership.class);

  /** Settings the consumer group protocol decides on the broker; a consumer refuses them. */
  private static final Set<String> CLASSIC_ONLY =
      Set.of(
          ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
          ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
          ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG);

  private GroupMembership() {}

  /**
   * The name of this instance: {@code POD_NAME}, else {@code HOSTNAME}, else the host's name.
   *
   * @param environment where the variables are read
   */
  public static String instanceName(final Map<String, String> environment) {
    for (final String variable : NAME_VARIABLES) {
      final String value = environment.get(variable);
      if (value != null && !value.isBlank()) {
        return value.trim();
      }
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "local";
    }
  }

  /** {@link #instanceName(Map)} of the process environment. */
  public static String instanceName() {
    return instanceName(System.getenv());
  }

  /**
   * A group consumer's settings: the KIP-848 protocol, and static membership under {@code
   * group.instance.id} (kept when given, else {@link #instanceName()}). Settings of the classic
   * protocol that the consumer would refuse are dropped with a warning.
   */
  public static Map<String, Object> consumerGroup(final Map<String, Object> consumerConfig) {
    final Map<String, Object> config = new HashMap<>(consumerConfig);
    config.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
    config.computeIfAbsent(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, key -> instanceName());
    for (final String key : CLASSIC_ONLY) {
      if (config.remove(key) != null) {
        LOG.warn(
            "{} is not used by the consumer group protocol (group.protocol=consumer): the broker's"
                + " group.consumer.* settings apply",
            key);
      }
    }
    return config;
  }

  /** The static member name a group consumer's settings give. */
  public static String instanceId(final Map<String, Object> consumerConfig) {
    return String.valueOf(consumerConfig.get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
  }

  /**
   * Removes the members of the consumer's group that {@code departed} selects (by instance id), so
   * that their partitions go to the next member at once instead of after their session timeout.
   * Members of a group still on the classic protocol are all removed when {@code departed} selects
   * every one. Failures are logged, not thrown: the group then recovers at the session timeout.
   *
   * @param kafka Kafka client settings (the connection settings are used)
   * @param groupId the consumer group
   * @param departed which instance ids are known to be dead
   * @param timeout how long the admin calls may take together
   */
  public static void removeDeparted(
      final Map<String, Object> kafka,
      final String groupId,
      final Predicate<String> departed,
      final Duration timeout) {
    Objects.requireNonNull(groupId, "groupId");
    final long deadline = System.nanoTime() + timeout.toNanos();
    try (Admin admin = Admin.create(adminConfig(kafka, groupId))) {
      final ConsumerGroupDescription group =
          admin
              .describeConsumerGroups(List.of(groupId))
              .describedGroups()
              .get(groupId)
              .get(remaining(deadline), TimeUnit.NANOSECONDS);
      final List<MemberToRemove> remove =
          group.members().stream()
              .map(MemberDescription::groupInstanceId)
              .flatMap(Optional::stream)
              .filter(departed)
              .map(MemberToRemove::new)
              .toList();
      if (remove.isEmpty()) {
        return;
      }
      final RemoveMembersFromConsumerGroupOptions options =
          group.type() == GroupType.CLASSIC && remove.size() == group.members().size()
              ? new RemoveMembersFromConsumerGroupOptions()
              : new RemoveMembersFromConsumerGroupOptions(remove);
      admin
          .removeMembersFromConsumerGroup(groupId, options)
          .all()
          .get(remaining(deadline), TimeUnit.NANOSECONDS);
      LOG.info(
          "group {}: removed departed members {}, their partitions are free",
          groupId,
          remove.stream().map(member -> member.groupInstanceId()).toList());
    } catch (ExecutionException e) {
      if (e.getCause() instanceof GroupIdNotFoundException
          || e.getCause() instanceof UnknownMemberIdException) {
        return;
      }
      LOG.warn(
          "group {}: could not remove departed members ({}); a crashed member's partitions wait"
              + " for its session timeout",
          groupId,
          e.getCause().toString());
    } catch (TimeoutException e) {
      LOG.warn("group {}: removing departed members took longer than {}", groupId, timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.warn("group {}: could not remove departed members: {}", groupId, e.toString());
    }
  }

  /**
   * Closes a group consumer within {@link #CLIENT_CLOSE_TIMEOUT}, leaving the group for good so
   * that another member gets its partitions at once.
   */
  public static void close(final Consumer<?, ?> consumer) {
    consumer.close(
        CloseOptions.groupMembershipOperation(GroupMembershipOperation.LEAVE_GROUP)
            .withTimeout(CLIENT_CLOSE_TIMEOUT));
  }

  private static long remaining(final long deadline) {
    return Math.max(0, deadline - System.nanoTime());
  }

  private static Map<String, Object> adminConfig(
      final Map<String, Object> kafka, final String groupId) {
    final Map<String, Object> config =
        ClientSettings.knownTo(AdminClientConfig.configNames(), kafka);
    config.put(AdminClientConfig.CLIENT_ID_CONFIG, groupId + "-admin");
    return config;
  }
}
