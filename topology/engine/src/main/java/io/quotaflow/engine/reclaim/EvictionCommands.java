package io.quotaflow.engine.reclaim;

import io.quotaflow.eviction.Victim;
import io.quotaflow.eviction.VictimPlan;
import io.quotaflow.quota.Quantities;
import io.quotaflow.reason.Reason;
import io.quotaflow.reservation.Intruder;
import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.tree.GroupStatus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
                    + " (used %s; runtime %s); %s to reclaim it%s",
                plan.group(),
                cluster,
                plan.overDimensions(),
                overUsedFor.toSeconds(),
                Quantities.format(plan.used()),
                Quantities.format(plan.runtime()),
                whoGoes(victim),
                attempt == 1 ? "" : " (attempt " + attempt + " of " + maxAttempts + ")"))
        .setReasonCode(Reason.RECLAIMED_AFTER_DELAY.code())
        .setIssuedAt(now)
        .setAttempt(attempt)
        .build();
  }

  /**
   * Who is evicted: the pod, or the pod with its gang, whose running members go together (issue
   * 28), so that no one looks for what the pod itself did.
   */
  private static String whoGoes(final Victim victim) {
    return victim
        .gang()
        .map(
            gang ->
                String.format(
                    "pod %s is evicted with its gang %s (%d pods; the pod's priority %d)",
                    victim.pod(), gang.name(), gang.members(), victim.priority()))
        .orElseGet(
            () ->
                String.format("pod %s (priority %d) is evicted", victim.pod(), victim.priority()));
  }

  /**
   * The command that is attempt {@code attempt} at evicting {@code intruder}, a pod of another
   * group on a node locked by a Guaranteed reservation, issued at {@code now}. It carries the pod's
   * own group, with that group's used and runtime when known, and no over-used dimension.
   */
  public static EvictionCommand reservationCommand(
      final String cluster,
      final Intruder intruder,
      final Optional<GroupStatus> group,
      final Duration onLockedNodeFor,
      final Instant now,
      final int attempt,
      final int maxAttempts) {
    return EvictionCommand.newBuilder()
        .setId(
            commandId(
                cluster,
                intruder.pod().namespace(),
                intruder.pod().name(),
                intruder.uid(),
                attempt))
        .setPodUid(intruder.uid())
        .setGroup(intruder.group())
        .setPriority(intruder.priority())
        .setDimensionsOver(List.of())
        .setUsed(group.map(status -> status.used().asMap()).orElse(Map.of()))
        .setRuntime(group.map(status -> status.runtime().asMap()).orElse(Map.of()))
        .setPodRequest(intruder.request().asMap())
        .setReason(
            String.format(
                "Node %s of cluster %s is locked by the Guaranteed reservation of quota group %s"
                    + " (quotaflow.io/reservation); pod %s of group %s (priority %d) has run there"
                    + " for %d s and is evicted to free it%s",
                intruder.node(),
                cluster,
                intruder.reservingGroup(),
                intruder.pod(),
                intruder.group(),
                intruder.priority(),
                onLockedNodeFor.toSeconds(),
                attempt == 1 ? "" : " (attempt " + attempt + " of " + maxAttempts + ")"))
        .setReasonCode(Reason.NODE_RESERVED.code())
        .setIssuedAt(now)
        .setAttempt(attempt)
        .build();
  }
}
