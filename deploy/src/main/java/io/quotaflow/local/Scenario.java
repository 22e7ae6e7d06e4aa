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
 * @param cluster manifest files the demo cluster starts with, instead of the examples
 * @param steps the timeline
 */
record Scenario(
    String name,
    String summary,
    Optional<String> revokeDelay,
    List<Path> cluster,
    List<Step> steps) {

  /** Requires every part. */
  Scenario {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(summary, "summary");
    Objects.requireNonNull(revokeDelay, "revokeDelay");
    cluster = List.copyOf(cluster);
    steps = List.copyOf(steps);
  }

  /**
   * One step: say what happens, change the cluster, then wait for the expected state.
   *
   * @param say what happens, in plain words
   * @param create manifest files whose objects are created
   * @param bind pods the scheduler places on {@code node} (node name set, phase Running)
   * @param node the node {@code bind} places pods on
   * @param admit a pod manifest sent to the admission webhook; created only if admitted
   * @param expect the state to wait for
   * @param within how long to wait for it at most
   */
  record Step(
      String say,
      List<Path> create,
      List<PodRef> bind,
      Optional<String> node,
      Optional<Path> admit,
      Expect expect,
      Duration within) {

    /** Requires every part; {@code bind} needs a node. */
    Step {
      Objects.requireNonNull(say, "say");
      create = List.copyOf(create);
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
    }
  }

  /**
   * The state a step waits for.
   *
   * @param runtime group to resource to quantity (Kubernetes notation), as the engine computes it
   * @param evicted pods that must have been evicted and be gone
   * @param admission whether the pod of {@code admit} is admitted or denied
   */
  record Expect(
      Map<String, Map<String, String>> runtime,
      List<PodRef> evicted,
      Optional<AdmissionAnswer> admission) {

    /** Requires every part. */
    Expect {
      runtime = Map.copyOf(runtime);
      evicted = List.copyOf(evicted);
      Objects.requireNonNull(admission, "admission");
    }
  }

  /** The webhook's answer a step expects. */
  enum AdmissionAnswer {
    ALLOWED,
    DENIED
  }
}
