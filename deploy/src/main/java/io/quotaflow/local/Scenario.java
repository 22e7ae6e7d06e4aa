package io.quotaflow.local;

import io.quotaflow.quota.PodRef;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A scripted timeline for the demo cluster, read from a YAML file (see {@link ScenarioCatalogue}):
 * the objects the cluster starts with, and steps that change the cluster and then wait, within a
 * bound, for the state they expect.
 *
 * @param name what {@code --scenario} calls it
 * @param summary one line for {@code --scenario list}
 * @param revokeDelay the engine's revoke delay while it plays (shortened to keep it watchable)
 * @param settings engine settings the scenario plays with (a --set or --config of the same key
 *     wins), e.g. fair share with memory and a short half-life
 * @param cluster manifest files the demo cluster starts with, instead of the examples
 * @param steps the timeline
 */
record Scenario(
    String name,
    String summary,
    Optional<String> revokeDelay,
    Map<String, String> settings,
    List<Path> cluster,
    List<Step> steps) {

  /** Requires every part. */
  Scenario {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(summary, "summary");
    Objects.requireNonNull(revokeDelay, "revokeDelay");
    settings = Map.copyOf(settings);
    cluster = List.copyOf(cluster);
    steps = List.copyOf(steps);
  }

  /**
   * One step: say what happens, change the cluster, then wait for the expected state.
   *
   * @param say what happens, in plain words
   * @param create manifest files whose objects are created
   * @param apply manifest files whose objects are created or, when they exist, replaced (an
   *     ElasticQuota given or relieved of a reservation)
   * @param bind pods the scheduler places on {@code node} (node name set, phase Running)
   * @param node the node {@code bind} places pods on
   * @param admit a pod manifest sent to the admission webhook; created only if admitted
   * @param schedule a pod manifest sent to the scheduler filter with every node of the cluster;
   *     created on the first node that passes, if one does
   * @param expect the state to wait for
   * @param within how long to wait for it at most
   */
  record Step(
      String say,
      List<Path> create,
      List<Path> apply,
      List<PodRef> bind,
      Optional<String> node,
      Optional<Path> admit,
      Optional<Path> schedule,
      Expect expect,
      Duration within) {

    /** Requires every part; {@code bind} needs a node. */
    Step {
      Objects.requireNonNull(say, "say");
      create = List.copyOf(create);
      apply = List.copyOf(apply);
      Objects.requireNonNull(schedule, "schedule");
      bind = List.copyOf(bind);
      Objects.requireNonNull(node, "node");
      Objects.requireNonNull(admit, "admit");
      Objects.requireNonNull(expect, "expect");
      Objects.requireNonNull(within, "within");
      if (!bind.isEmpty() && node.isEmpty()) {
        throw new IllegalArgumentException("a step that binds pods names the node");
      }
      if (expect.admission().isPresent() && admit.isEmpty()) {
        throw new IllegalArgumentException("a step expecting an admission answer has 'admit'");
      }
      if (expect.scheduled().isPresent() && schedule.isEmpty()) {
        throw new IllegalArgumentException("a step expecting a filter answer has 'schedule'");
      }
    }
  }

  /**
   * The state a step waits for.
   *
   * @param runtime group to resource to quantity (Kubernetes notation), as the engine computes it
   * @param evicted pods that must have been evicted and be gone
   * @param admission whether the pod of {@code admit} is admitted or denied
   * @param reservation group to its node reservation as the engine holds it
   * @param scheduled what the scheduler filter answers for the pod of {@code schedule}
   * @param pastBorrowed group to resource to quantity: the least decayed average borrowed the
   *     engine must remember of the group (fair share with memory, docs/semantics.md section 24)
   */
  record Expect(
      Map<String, Map<String, String>> runtime,
      List<PodRef> evicted,
      Optional<AdmissionAnswer> admission,
      Map<String, ReservationExpect> reservation,
      Optional<ScheduledExpect> scheduled,
      Map<String, Map<String, String>> pastBorrowed) {

    /** Requires every part. */
    Expect {
      runtime = Map.copyOf(runtime);
      pastBorrowed = Map.copyOf(pastBorrowed);
      evicted = List.copyOf(evicted);
      Objects.requireNonNull(admission, "admission");
      reservation = Map.copyOf(reservation);
      Objects.requireNonNull(scheduled, "scheduled");
    }
  }

  /**
   * A group's reservation a step waits for.
   *
   * @param nodes the locked nodes, by name
   * @param satisfied whether they cover the reservation
   * @param absent the group has no reservation (any more); the other fields are then ignored
   */
  record ReservationExpect(List<String> nodes, boolean satisfied, boolean absent) {

    /** Requires every part. */
    ReservationExpect {
      nodes = List.copyOf(nodes);
    }
  }

  /**
   * The scheduler filter's answer a step expects.
   *
   * @param refused the nodes it refuses, by name
   * @param node where the pod is then placed: the first node that passes, by name; empty for none
   */
  record ScheduledExpect(List<String> refused, Optional<String> node) {

    /** Requires every part. */
    ScheduledExpect {
      refused = List.copyOf(refused);
      Objects.requireNonNull(node, "node");
    }
  }

  /** The webhook's answer a step expects. */
  enum AdmissionAnswer {
    ALLOWED,
    DENIED
  }
}
