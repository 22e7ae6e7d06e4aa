package io.quotaflow.engine.history;

import io.quotaflow.history.GroupLevels;
import io.quotaflow.history.HistoryMetric;
import io.quotaflow.history.HistoryWindow;
import io.quotaflow.history.LevelIntegrals;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.schemas.GroupRuntime;
import io.quotaflow.schemas.internal.GroupHistoryWindow;
import io.quotaflow.schemas.internal.LevelIntegralsRecord;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** Between the history's core values and their records in the group-history store. */
public final class HistoryRecords {

  private HistoryRecords() {}

  /** The levels a runtime record states; {@link GroupLevels#NONE} for none (no group). */
  public static GroupLevels levels(GroupRuntime runtime) {
    if (runtime == null) {
      return GroupLevels.NONE;
    }
    return new GroupLevels(
        ResourceList.of(runtime.getRequest()),
        ResourceList.of(runtime.getUsed()),
        ResourceList.of(runtime.getRuntime()),
        ResourceList.of(runtime.getMin()));
  }

  /** The record of {@code window}. */
  public static GroupHistoryWindow record(HistoryWindow window) {
    final Map<String, LevelIntegralsRecord> covered = new TreeMap<>();
    final LevelIntegrals integrals = window.covered();
    for (final String resource : integrals.resources()) {
      covered.put(
          resource,
          new LevelIntegralsRecord(
              bytes(integrals.get(resource, HistoryMetric.REQUEST)),
              bytes(integrals.get(resource, HistoryMetric.USED)),
              bytes(integrals.get(resource, HistoryMetric.RUNTIME)),
              bytes(integrals.get(resource, HistoryMetric.MIN)),
              bytes(integrals.get(resource, HistoryMetric.BORROWED)),
              bytes(integrals.get(resource, HistoryMetric.LENT))));
    }
    final GroupLevels last = window.last();
    return new GroupHistoryWindow(
        covered,
        window.lastChange(),
        map(last.request()),
        map(last.used()),
        map(last.runtime()),
        map(last.min()),
        new TreeMap<>(window.evictions()),
        new TreeMap<>(window.denials()));
  }

  /** The window starting at {@code start} that {@code record} keeps. */
  public static HistoryWindow window(Instant start, GroupHistoryWindow record) {
    final Map<String, BigInteger[]> covered = new HashMap<>();
    record
        .getCovered()
        .forEach(
            (resource, integrals) ->
                covered.put(
                    resource,
                    new BigInteger[] {
                      integer(integrals.getRequest()),
                      integer(integrals.getUsed()),
                      integer(integrals.getRuntime()),
                      integer(integrals.getMin()),
                      integer(integrals.getBorrowed()),
                      integer(integrals.getLent())
                    }));
    return new HistoryWindow(
        start,
        LevelIntegrals.of(covered),
        record.getLastChange(),
        new GroupLevels(
            ResourceList.of(record.getRequest()),
            ResourceList.of(record.getUsed()),
            ResourceList.of(record.getRuntime()),
            ResourceList.of(record.getMin())),
        record.getEvictions(),
        record.getDenials());
  }

  private static Map<String, Long> map(ResourceList list) {
    return new TreeMap<>(list.asMap());
  }

  private static ByteBuffer bytes(BigInteger value) {
    return ByteBuffer.wrap(value.toByteArray());
  }

  private static BigInteger integer(ByteBuffer bytes) {
    final ByteBuffer copy = bytes.duplicate();
    final byte[] array = new byte[copy.remaining()];
    copy.get(array);
    return array.length == 0 ? BigInteger.ZERO : new BigInteger(array);
  }
}
