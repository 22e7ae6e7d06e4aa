package io.quotaflow.schemas;

import io.quotaflow.schemas.internal.ClusterEvent;
import io.quotaflow.schemas.internal.ClusterWriter;
import io.quotaflow.schemas.internal.FairShareMemory;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import io.quotaflow.schemas.internal.InputFreshness;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;

/**
 * The generated top-level record classes that travel on topics: the unit of schema history and of
 * the compatibility check. Nested types (such as {@link FieldProblem}) and enums are part of the
 * records that contain them.
 */
public final class RecordTypes {
  private static final List<Class<? extends SpecificRecord>> KEYS =
      List.of(
          PodKey.class,
          QuotaKey.class,
          NodeKey.class,
          ProfileKey.class,
          PodGroupKey.class,
          DraKey.class);

  private static final List<Class<? extends SpecificRecord>> VALUES =
      List.of(
          PodState.class,
          QuotaSpec.class,
          NodeState.class,
          QuotaProfileSpec.class,
          PodGroupSpec.class,
          // Dynamic Resource Allocation objects (docs/semantics.md section 22).
          DeviceClassState.class,
          ResourceClaimState.class,
          ResourceClaimTemplateState.class,
          ResourceSliceState.class,
          GroupRuntime.class,
          PodQuotaClass.class,
          EvictionCommand.class,
          EvictionResult.class,
          PodDenial.class,
          // In the header of the connectors' marker records on the input topics.
          SourceMarker.class,
          // Internal to the engine: the value of its reservations store.
          GroupReservation.class,
          // Internal to the engine: its repartition topic and store, versioned like the rest.
          ClusterEvent.class,
          // Internal to the engine: the value of its input-freshness store.
          InputFreshness.class,
          // Internal to the engine: the value of its group-history window store.
          GroupHistoryWindow.class,
          // Internal to the engine: the value of its fairshare-memory store.
          FairShareMemory.class,
          // Internal to the engine: the value of its cluster-writers store.
          ClusterWriter.class);

  private RecordTypes() {}

  /**
   * Key records. Their schemas are frozen: the fingerprint is part of the key bytes, so a new
   * version would re-key every compacted topic.
   */
  public static List<Class<? extends SpecificRecord>> keys() {
    return KEYS;
  }

  /** Value records. */
  public static List<Class<? extends SpecificRecord>> values() {
    return VALUES;
  }

  /** Key and value records. */
  public static List<Class<? extends SpecificRecord>> all() {
    return Stream.concat(KEYS.stream(), VALUES.stream()).toList();
  }
}
