package io.quotaflow.engine;

import io.quotaflow.schemas.EvictionCommand;
import io.quotaflow.schemas.EvictionOutcome;
import io.quotaflow.schemas.EvictionResult;
import io.quotaflow.schemas.FieldProblem;
import io.quotaflow.schemas.NodeState;
import io.quotaflow.schemas.PodClaimEntry;
import io.quotaflow.schemas.PodClaimStatus;
import io.quotaflow.schemas.PodGang;
import io.quotaflow.schemas.PodPhase;
import io.quotaflow.schemas.PodState;
import io.quotaflow.schemas.QuotaSpec;
import io.quotaflow.schemas.ReservationPolicy;
import io.quotaflow.schemas.ReservationSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Fixture builders of input records, with readable defaults. */
public final class Inputs {
  static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");

  private Inputs() {}

  public static PodBuilder pod(final String name) {
    return new PodBuilder(name);
  }

  public static QuotaBuilder quota() {
    return new QuotaBuilder();
  }

  /** A node of {@code cpuMillis} that is cordoned (not schedulable). */
  public static NodeState cordoned(final long cpuMillis) {
    return NodeState.newBuilder(node(cpuMillis)).setSchedulable(false).build();
  }

  public static NodeState node(final long cpuMillis) {
    return NodeState.newBuilder()
        .setAllocatable(Map.of("cpu", cpuMillis))
        .setReady(true)
        .setSchedulable(true)
        .setDeleting(false)
        .setProblems(List.of())
        .build();
  }

  /** The executor's result with {@code outcome} for {@code command}, settled at {@code at}. */
  public static EvictionResult result(
      final EvictionCommand command, final EvictionOutcome outcome, final Instant at) {
    return EvictionResult.newBuilder()
        .setCommandId(command.getId())
        .setPodUid(command.getPodUid())
        .setOutcome(outcome)
        .setMessage(
            outcome == EvictionOutcome.BLOCKED_BY_BUDGET
                ? "Cannot evict pod as it would violate the pod's disruption budget."
                : "")
        .setAttempts(1)
        .setCompletedAt(at)
        .build();
  }

  public static Map<String, Long> cpu(final long millis) {
    return Map.of("cpu", millis);
  }

  /** A pod: pending, preemptible, priority 0, no group label, no request by default. */
  public static final class PodBuilder {
    private final String name;
    private String uid;
    private String group;
    private String node;
    private PodPhase phase = PodPhase.PENDING;
    private int priority;
    private boolean preemptible = true;
    private final Map<String, Long> requests = new TreeMap<>();
    private Instant started;
    private PodGang gang;
    private final List<PodClaimEntry> claims = new ArrayList<>();
    private final List<PodClaimStatus> claimStatuses = new ArrayList<>();

    private PodBuilder(final String name) {
      this.name = name;
      this.uid = name + "-uid";
    }

    public String name() {
      return name;
    }

    public PodBuilder uid(final String value) {
      this.uid = value;
      return this;
    }

    public PodBuilder group(final String value) {
      this.group = value;
      return this;
    }

    /** Bound to {@code nodeName}, running, started at {@code startedAt}. */
    public PodBuilder running(final String nodeName, final Instant startedAt) {
      this.node = nodeName;
      this.phase = PodPhase.RUNNING;
      this.started = startedAt;
      return this;
    }

    public PodBuilder running(final String nodeName) {
      return running(nodeName, CREATED);
    }

    public PodBuilder cpu(final long millis) {
      requests.put("cpu", millis);
      return this;
    }

    public PodBuilder priority(final int value) {
      this.priority = value;
      return this;
    }

    public PodBuilder nonPreemptible() {
      this.preemptible = false;
      return this;
    }

    /** A member of gang {@code name} (scheduler-plugins) that needs {@code minMember} running. */
    public PodBuilder gang(final String name, final int minMember) {
      this.gang = new PodGang(name, minMember, "scheduler-plugins");
      return this;
    }

    /** Names a ResourceClaimTemplate in its spec.resourceClaims entry {@code entry}. */
    public PodBuilder claimTemplate(final String entry, final String template) {
      claims.add(new PodClaimEntry(entry, null, template));
      return this;
    }

    /** Names a ResourceClaim in its spec.resourceClaims entry {@code entry}. */
    public PodBuilder claim(final String entry, final String claim) {
      claims.add(new PodClaimEntry(entry, claim, null));
      return this;
    }

    /** status.resourceClaimStatuses: the claim generated for template entry {@code entry}. */
    public PodBuilder generatedClaim(final String entry, final String claim) {
      claimStatuses.add(new PodClaimStatus(entry, claim));
      return this;
    }

    public PodState build() {
      return PodState.newBuilder()
          .setResourceClaims(List.copyOf(claims))
          .setResourceClaimStatuses(List.copyOf(claimStatuses))
          .setUid(uid)
          .setQuotaName(group)
          .setPhase(phase)
          .setNodeName(node)
          .setPriority(priority)
          .setRequests(requests)
          .setPreemptible(preemptible)
          .setCreationTime(CREATED)
          .setStartTime(started)
          .setDeletionTime(null)
          .setProblems(List.of())
          .setGang(gang)
          .build();
    }
  }

  /** A quota group: a leaf child of the root that lends, with no min or max by default. */
  /**
   * The namespace the fixtures' ElasticQuotas live in unless a test says otherwise, where most of
   * their pods run: its pods may name any of the groups (the binding, issue 24), as a team's pods
   * may name the quotas of its own namespace. A group without a known namespace admits no labels
   * (issue 39).
   */
  public static final String APPS = "apps";

  public static final class QuotaBuilder {
    private final QuotaSpec.Builder spec =
        QuotaSpec.newBuilder()
            .setNamespace(APPS)
            .setMin(Map.of())
            .setMax(Map.of())
            .setParent(null)
            .setIsParent(false)
            .setSharedWeight(null)
            .setAllowLent(true)
            .setLendingLimit(null)
            .setBorrowingLimit(null)
            .setNamespaces(List.of())
            .setProblems(List.of());

    public QuotaBuilder min(final Map<String, Long> value) {
      spec.setMin(value);
      return this;
    }

    public QuotaBuilder max(final Map<String, Long> value) {
      spec.setMax(value);
      return this;
    }

    public QuotaBuilder parent(final String value) {
      spec.setParent(value);
      return this;
    }

    public QuotaBuilder isParent() {
      spec.setIsParent(true);
      return this;
    }

    public QuotaBuilder allowLent(final boolean value) {
      spec.setAllowLent(value);
      return this;
    }

    /** The namespaces whose pods belong to the group. */
    /** The ElasticQuota's own namespace (pods there may name the group). */
    public QuotaBuilder namespace(final String value) {
      spec.setNamespace(value);
      return this;
    }

    /** The namespaces of later ElasticQuotas of this name, which the connectors ignored. */
    public QuotaBuilder ignoredNamesakes(final String... values) {
      spec.setIgnoredNamesakes(List.of(values));
      return this;
    }

    public QuotaBuilder namespaces(final String... values) {
      spec.setNamespaces(List.of(values));
      return this;
    }

    public QuotaBuilder weight(final Map<String, Long> value) {
      spec.setSharedWeight(value);
      return this;
    }

    /** Annotation quotaflow.io/reservation of {@code resource} with {@code policy}. */
    public QuotaBuilder reserve(final Map<String, Long> resource, final ReservationPolicy policy) {
      spec.setReservation(
          ReservationSpec.newBuilder()
              .setPolicy(policy)
              .setResource(resource)
              .setPercentage(null)
              .setProblems(List.of())
              .build());
      return this;
    }

    /** A reservation annotation that could not be read. */
    public QuotaBuilder unreadableReservation(final String reason) {
      spec.setReservation(
          ReservationSpec.newBuilder()
              .setPolicy(ReservationPolicy.BEST_EFFORT)
              .setResource(null)
              .setPercentage(null)
              .setProblems(
                  List.of(
                      FieldProblem.newBuilder()
                          .setField("metadata.annotations[quotaflow.io/reservation]")
                          .setReason(reason)
                          .build()))
              .build());
      return this;
    }

    public QuotaSpec build() {
      return spec.build();
    }
  }
}
