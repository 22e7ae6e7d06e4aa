package io.quotaflow.broker;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.coordinator.group.GroupCoordinatorConfig;
import org.apache.kafka.coordinator.transaction.TransactionLogConfig;
import org.apache.kafka.coordinator.transaction.TransactionStateManagerConfig;
import org.apache.kafka.network.SocketServerConfigs;
import org.apache.kafka.raft.KRaftConfigs;
import org.apache.kafka.raft.MetadataLogConfig;
import org.apache.kafka.raft.QuorumConfig;
import org.apache.kafka.server.config.ReplicationConfigs;
import org.apache.kafka.server.config.ServerLogConfigs;

/**
 * The configuration of a single combined broker and controller on the loopback address.
 *
 * <p>Internal topics get one partition and one replica: with the defaults (three replicas) a single
 * broker can create neither the consumer offsets topic nor the transaction state log, and consumer
 * groups, Kafka Streams and transactions wait forever.
 */
final class BrokerProperties {

  static final int NODE_ID = 1;
  static final String BROKER_LISTENER = "PLAINTEXT";
  static final String CONTROLLER_LISTENER = "CONTROLLER";

  /** Keys that define the broker's identity, listeners and storage; callers cannot override. */
  static final Set<String> RESERVED =
      Set.of(
          KRaftConfigs.PROCESS_ROLES_CONFIG,
          KRaftConfigs.NODE_ID_CONFIG,
          KRaftConfigs.CONTROLLER_LISTENER_NAMES_CONFIG,
          MetadataLogConfig.METADATA_LOG_DIR_CONFIG,
          QuorumConfig.QUORUM_VOTERS_CONFIG,
          QuorumConfig.QUORUM_BOOTSTRAP_SERVERS_CONFIG,
          SocketServerConfigs.LISTENERS_CONFIG,
          SocketServerConfigs.ADVERTISED_LISTENERS_CONFIG,
          SocketServerConfigs.LISTENER_SECURITY_PROTOCOL_MAP_CONFIG,
          ReplicationConfigs.INTER_BROKER_LISTENER_NAME_CONFIG,
          ServerLogConfigs.LOG_DIRS_CONFIG);

  private BrokerProperties() {}

  /**
   * Builds the broker configuration.
   *
   * @param brokerPort the port clients connect to
   * @param controllerPort the port of the KRaft controller listener
   * @param logDir the one directory for partition data and the metadata log
   * @param extra caller settings, applied over the defaults (never over {@link #RESERVED} keys)
   */
  static Properties of(
      final int brokerPort,
      final int controllerPort,
      final Path logDir,
      final Map<String, String> extra) {
    final Properties props = new Properties();
    props.put(KRaftConfigs.PROCESS_ROLES_CONFIG, "broker,controller");
    props.put(KRaftConfigs.NODE_ID_CONFIG, Integer.toString(NODE_ID));
    props.put(KRaftConfigs.CONTROLLER_LISTENER_NAMES_CONFIG, CONTROLLER_LISTENER);
    props.put(
        QuorumConfig.QUORUM_VOTERS_CONFIG, NODE_ID + "@" + endpoint(Ports.HOST, controllerPort));
    props.put(
        SocketServerConfigs.LISTENERS_CONFIG,
        listener(BROKER_LISTENER, brokerPort)
            + ","
            + listener(CONTROLLER_LISTENER, controllerPort));
    props.put(
        SocketServerConfigs.ADVERTISED_LISTENERS_CONFIG, listener(BROKER_LISTENER, brokerPort));
    props.put(
        SocketServerConfigs.LISTENER_SECURITY_PROTOCOL_MAP_CONFIG,
        BROKER_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
    props.put(ReplicationConfigs.INTER_BROKER_LISTENER_NAME_CONFIG, BROKER_LISTENER);
    props.put(ServerLogConfigs.LOG_DIRS_CONFIG, logDir.toString());
    props.put(MetadataLogConfig.METADATA_LOG_DIR_CONFIG, logDir.toString());

    props.put(ServerLogConfigs.NUM_PARTITIONS_CONFIG, "1");
    props.put(GroupCoordinatorConfig.OFFSETS_TOPIC_REPLICATION_FACTOR_CONFIG, "1");
    props.put(GroupCoordinatorConfig.OFFSETS_TOPIC_PARTITIONS_CONFIG, "1");
    props.put(GroupCoordinatorConfig.GROUP_INITIAL_REBALANCE_DELAY_MS_CONFIG, "0");
    props.put(GroupCoordinatorConfig.STREAMS_GROUP_INITIAL_REBALANCE_DELAY_MS_CONFIG, "0");
    props.put(TransactionLogConfig.TRANSACTIONS_TOPIC_REPLICATION_FACTOR_CONFIG, "1");
    props.put(TransactionLogConfig.TRANSACTIONS_TOPIC_MIN_ISR_CONFIG, "1");
    props.put(TransactionLogConfig.TRANSACTIONS_TOPIC_PARTITIONS_CONFIG, "1");
    // The log cleaner's dedupe map is allocated on the heap at its full size (128 MiB by default):
    // in a test JVM of 512 MiB it was most of what stayed live. Test topics hold few keys.
    props.put("log.cleaner.dedupe.buffer.size", Integer.toString(8 * 1024 * 1024));
    // A broker started again on its data after a crash registers a new incarnation, which its own
    // controller refuses until the dead incarnation's session expires (9 s by default): every
    // restart of local after kill -9 took 12 s instead of 2. One node heartbeats to itself over
    // loopback; six heartbeats a session still leave room for a busy machine's pauses.
    props.put(KRaftConfigs.BROKER_SESSION_TIMEOUT_MS_CONFIG, "3000");
    props.put(KRaftConfigs.BROKER_HEARTBEAT_INTERVAL_MS_CONFIG, "500");
    // A transaction a crash left open holds back every read_committed reader and the group's
    // committed offsets until the coordinator aborts it: checked every 10 s by default, every
    // second here (a scan of a few transactional ids).
    props.put(
        TransactionStateManagerConfig
            .TRANSACTIONS_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS_CONFIG,
        "1000");

    extra.forEach(props::put);
    return props;
  }

  static String endpoint(final String host, final int port) {
    return host + ":" + port;
  }

  private static String listener(final String name, final int port) {
    return name + "://" + endpoint(Ports.HOST, port);
  }
}
