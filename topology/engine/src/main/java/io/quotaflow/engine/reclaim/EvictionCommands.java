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
    return commandId(cluster, namespace, name, uid, 1);
  }

  /**
   * The id of the command that is attempt {@code attempt} at evicting pod {@code namespace/name}
   * with {@code uid}: the first attempt's id is {@link #commandId(String, String, String, String)}
   * (as before retries existed), every later attempt has its own, so the executor, which skips a
   * command whose id already has a result, carries it out.
   */
  public static String commandId(
      final String cluster,
      final String namespace,
      final String name,
      final String uid,
      final int attempt) {
    final String identity =
        attempt == 1
            ? String.join("\u0000", cluster, namespace, name, uid)
            : String.join("\u0000", cluster, namespace, name, uid, Integer.toString(attempt));
    return UUID.nameUUIDFromBytes(identity.getBytes(StandardCharsets.UTF_8)).toString();
  }

  /** The first command evicting {@code victim} of {@code plan}, issued at {@code now}. */
  public static EvictionCommand command(
      final String cluster,
      final VictimPlan plan,
      final Victim victim,
      final Duration overUsedFor,
      final Instant now) {
    return command(cluster, plan, victim, overUsedFor, now, 1, 1);
  }

  /**
   * The command that is attempt {@code attempt} (of at most {@code maxAttempts}) at evicting {@code
   * victim} of {@code plan}, issued at {@code now}.
   */
  public static EvictionCommand command(
      final String cluster,
      final VictimPlan plan,
      final Victim victim,
      final Duration overUsedFor,
      final Instant now,
      final int attempt,
      final int maxAttempts) {
    return EvictionCommand.newBuilder()
        .setId(
            commandId(
                cluster, victim.pod().namespace(), victim.pod().name(), victim.uid(), attempt))
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
                    + " (used %s, runtime %s); pod %s (priority %d) is evicted to reclaim it%s",
                plan.group(),
                cluster,
                plan.overDimensions(),
                overUsedFor.toSeconds(),
                plan.used(),
                plan.runtime(),
                victim.pod(),
                victim.priority(),
                attempt == 1 ? "" : " (attempt " + attempt + " of " + maxAttempts + ")"))
        .setIssuedAt(now)
        .setAttempt(attempt)
        .build();
  }
}
