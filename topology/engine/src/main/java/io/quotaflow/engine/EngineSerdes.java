package io.quotaflow.engine;

import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodGroupSpec;
import io.quotaflow.schemas.PodQuotaClass;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaProfileSpec;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.serde.AvroSerde;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;

/**
 * The serdes the topology's sources, the trees' stores and the sinks share. Remembering serdes: an
 * input value is stored (as a cluster event) with the bytes it was read from, an event is stored
 * just as it arrived from a repartition topic, and a runtime or class record goes to its store and
 * then its topic, so each is encoded only once.
 */
final class EngineSerdes {
  static final AvroSerde<PodState> POD_VALUES =
      AvroSerde.forValues(PodState.class).rememberingRecentRecords();
  static final AvroSerde<QuotaSpec> QUOTA_VALUES =
      AvroSerde.forValues(QuotaSpec.class).rememberingRecentRecords();
  static final AvroSerde<NodeState> NODE_VALUES =
      AvroSerde.forValues(NodeState.class).rememberingRecentRecords();
  static final AvroSerde<QuotaProfileSpec> PROFILE_VALUES =
      AvroSerde.forValues(QuotaProfileSpec.class).rememberingRecentRecords();
  static final AvroSerde<PodGroupSpec> PODGROUP_VALUES =
      AvroSerde.forValues(PodGroupSpec.class).rememberingRecentRecords();
  static final Serde<ClusterEvent> EVENTS =
      AvroSerde.clusterEvents(List.of(POD_VALUES, QUOTA_VALUES, NODE_VALUES));
  static final Serde<GroupRuntime> RUNTIMES =
      AvroSerde.forValues(GroupRuntime.class).rememberingRecentRecords();
  static final Serde<PodQuotaClass> CLASSES =
      AvroSerde.forValues(PodQuotaClass.class).rememberingRecentRecords();

  private EngineSerdes() {}
}
