package io.quotaflow.quota;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the engine reads of one pod (SPEC 3 to 5, 11, 12). Input only.
 *
 * @param ref namespace and name
 * @param uid the pod's uid; an eviction is only ever aimed at this uid
 * @param quotaName the {@code quota.scheduling.koordinator.sh/name} label, if set and not empty
 * @param phase the pod phase
 * @param nodeName the node the pod is bound to; empty while pending
 * @param priority the resolved pod priority ({@code spec.priority}, 0 when unset)
 * @param request the effective request (SPEC 3), all dimensions, canonical units
 * @param preemptible false only for the label {@code quota.scheduling.koordinator.sh/preemptible:
 *     "false"}
 * @param creationTime metadata.creationTimestamp
 * @param startTime status.startTime, once the kubelet has started it
 * @param deletionTime metadata.deletionTimestamp, while terminating
 * @param problems fields that could not be read (e.g. a quantity that does not parse)
 * @param gang the gang it belongs to (issue 28), if any
 */
public record QuotaPod(
    PodRef ref,
    String uid,
    Optional<String> quotaName,
    PodPhase phase,
    Optional<String> nodeName,
    int priority,
    ResourceList request,
    boolean preemptible,
    Instant creationTime,
    Optional<Instant> startTime,
    Optional<Instant> deletionTime,
    List<SpecProblem> problems,
    Optional<Gang> gang) {

  public QuotaPod {
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(uid, "uid");
    Objects.requireNonNull(quotaName, "quotaName");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(nodeName, "nodeName");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(creationTime, "creationTime");
    Objects.requireNonNull(startTime, "startTime");
    Objects.requireNonNull(deletionTime, "deletionTime");
    problems = List.copyOf(problems);
    Objects.requireNonNull(gang, "gang");
  }

  /**
   * Field by field, as the record's own equals, but the fields an update of a pod changes first
   * (phase, node, deletion, request) and its identity last: the engine compares every pod event
   * with the pod it holds under the same reference, whose namespace, name and uid are equal strings
   * of other instances, compared to their last byte.
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof QuotaPod other
        && phase == other.phase
        && priority == other.priority
        && preemptible == other.preemptible
        && nodeName.equals(other.nodeName)
        && deletionTime.equals(other.deletionTime)
        && startTime.equals(other.startTime)
        && request.equals(other.request)
        && creationTime.equals(other.creationTime)
        && quotaName.equals(other.quotaName)
        && problems.equals(other.problems)
        && gang.equals(other.gang)
        && uid.equals(other.uid)
        && ref.equals(other.ref);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        ref,
        uid,
        quotaName,
        phase,
        nodeName,
        priority,
        request,
        preemptible,
        creationTime,
        startTime,
        deletionTime,
        problems,
        gang);
  }

  /** Bound to a node. */
  public boolean isBound() {
    return nodeName.isPresent();
  }

  public static Builder builder(String namespace, String name) {
    return new Builder(new PodRef(namespace, name));
  }

  public Builder toBuilder() {
    final Builder builder =
        new Builder(ref)
            .uid(uid)
            .phase(phase)
            .priority(priority)
            .request(request)
            .preemptible(preemptible)
            .creationTime(creationTime)
            .problems(problems);
    quotaName.ifPresent(builder::quotaName);
    nodeName.ifPresent(builder::nodeName);
    startTime.ifPresent(builder::startTime);
    deletionTime.ifPresent(builder::deletionTime);
    gang.ifPresent(builder::gang);
    return builder;
  }

  /** Builds a {@link QuotaPod}: a pending, preemptible pod of priority 0 by default. */
  public static final class Builder {
    private final PodRef ref;
    private String uid;
    private Optional<String> quotaName = Optional.empty();
    private PodPhase phase = PodPhase.PENDING;
    private Optional<String> nodeName = Optional.empty();
    private int priority;
    private ResourceList request = ResourceList.empty();
    private boolean preemptible = true;
    private Instant creationTime = Instant.EPOCH;
    private Optional<Instant> startTime = Optional.empty();
    private Optional<Instant> deletionTime = Optional.empty();
    private final List<SpecProblem> problems = new ArrayList<>();
    private Optional<Gang> gang = Optional.empty();

    private Builder(PodRef ref) {
      this.ref = ref;
      this.uid = ref.namespace() + "-" + ref.name() + "-uid";
    }

    public Builder uid(String uid) {
      this.uid = uid;
      return this;
    }

    public Builder quotaName(String quotaName) {
      this.quotaName = Optional.of(quotaName);
      return this;
    }

    public Builder phase(PodPhase phase) {
      this.phase = phase;
      return this;
    }

    public Builder nodeName(String nodeName) {
      this.nodeName = Optional.of(nodeName);
      return this;
    }

    /** Bound to {@code node} and in phase Running. */
    public Builder running(String node) {
      return nodeName(node).phase(PodPhase.RUNNING);
    }

    public Builder priority(int priority) {
      this.priority = priority;
      return this;
    }

    public Builder request(ResourceList request) {
      this.request = request;
      return this;
    }

    public Builder preemptible(boolean preemptible) {
      this.preemptible = preemptible;
      return this;
    }

    public Builder creationTime(Instant creationTime) {
      this.creationTime = creationTime;
      return this;
    }

    public Builder startTime(Instant startTime) {
      this.startTime = Optional.of(startTime);
      return this;
    }

    public Builder deletionTime(Instant deletionTime) {
      this.deletionTime = Optional.of(deletionTime);
      return this;
    }

    public Builder problems(List<SpecProblem> problems) {
      this.problems.clear();
      this.problems.addAll(problems);
      return this;
    }

    public Builder gang(Gang gang) {
      this.gang = Optional.of(gang);
      return this;
    }

    public QuotaPod build() {
      return new QuotaPod(
          ref,
          uid,
          quotaName,
          phase,
          nodeName,
          priority,
          request,
          preemptible,
          creationTime,
          startTime,
          deletionTime,
          problems,
          gang);
    }
  }
}
