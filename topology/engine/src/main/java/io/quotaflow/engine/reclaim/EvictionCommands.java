package io.quotaflow.engine.reclaim;

import io.quotaflow.eviction.Victim;
import io.quotaflow.eviction.VictimPlan;
import io.quotaflow.schemas.EvictionCommand;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/** Builds eviction commands from the core's victim plans. Pure functions. */
public final class EvictionCommands {
  private EvictionCommands() {}

  /**
   * The command id of evicting pod {@code namespace/name} with {@code uid} in {@code cluster}: a
   * name-based UUID, the same every time, so a command issued again after a crash is recognised.
   */
  public static String commandId(
      final String cluster, final String namespace, final String name, final String uid) {
    final String identity = String.join("\u0000", cluster, namespace, name, uid);
    return UUID.nameUUIDFromBytes(identity.getBytes(StandardCharsets.UTF_8)).toString();
  }

  /** The command evicting {@code victim} of {@code plan}, issued at {@code now}. */
  public static EvictionCommand command(
      final String cluster,
      final VictimPlan plan,
      final Victim victim,
      final Duration overUsedFor,
      final Instant now) {
    return EvictionCommand.newBuilder()
        .setId(commandId(cluster, victim.pod().namespace(), victim.pod().name(), victim.uid()))
        .setPodUid(victim.uid())
        .setGroup(plan.group())
        .setPriority(victim.priority())
        .setDimensionsOver(plan.overDimensions())
        .setUsed(plan.used().asMap())
        .setRuntime(plan.runtime().asMap())
        .setPodRequest(victim.request().asMap())
        .setReason(
            String.format(
                "Group %s of cluster %s has used more than its runtime in %s for %d s"
                    + " (used %s, runtime %s); pod %s (priority %d) is evicted to reclaim it",
                plan.group(),
                cluster,
                plan.overDimensions(),
                overUsedFor.toSeconds(),
                plan.used(),
                plan.runtime(),
                victim.pod(),
                victim.priority()))
        .setIssuedAt(now)
        .build();
  }
}
