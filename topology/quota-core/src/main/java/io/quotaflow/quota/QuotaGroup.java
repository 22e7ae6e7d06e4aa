package io.quotaflow.quota;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The specification of one quota group, as read from an ElasticQuota object (SPEC 3, 12). This is
 * input only: what the engine computes for the group is elsewhere.
 *
 * @param name unique within the cluster
 * @param parent the parent group's name; {@link SpecialGroups#ROOT} for a first-level group
 * @param parentGroup true when the group holds child groups ({@code is-parent: "true"})
 * @param min the guarantee; its dimensions and those of max are the ones the group tracks
 * @param max the ceiling; a tracked dimension missing here is unbounded
 * @param sharedWeight the explicit weight; empty means the configured default (max or min)
 * @param allowLent false only for the literal label value {@code "false"}
 * @param lendingLimit at most this much of min is lent (quotaflow.io/lending-limit)
 * @param borrowingLimit at most this much above min is borrowed (quotaflow.io/borrowing-limit)
 * @param namespaces namespaces whose pods belong to this group (the namespaces annotation)
 * @param problems fields that could not be read; the group exists but may be invalid (SPEC 9)
 * @param reservation the node reservation (quotaflow.io/reservation); empty when not annotated. It
 *     never affects the group's quota: an unreadable one carries its own problems
 * @param treeId the label {@code quota.scheduling.koordinator.sh/tree-id}: the quota tree (one per
 *     ElasticQuotaProfile) the group belongs to; empty when not labelled (the parent's tree)
 * @param allowForceUpdate {@code allow-force-update: "true"}: the quota webhook does not check the
 *     children's min sums of a change of this group
 * @param maxStrictCheckKeys the resource names whose max the quota webhook keeps at or above used
 *     ({@code max-strict-check-resource-keys}); empty when absent or unreadable
 * @param namespace the namespace of the ElasticQuota object; empty when unknown (a record written
 *     before the connectors sent it). A group admits the pods of its own namespace (issue 24)
 * @param namespaceSelector the annotation {@code quotaflow.io/namespace-selector}: namespaces whose
 *     labels it matches are bound to the group (their pods may name it); empty when absent
 * @param selectedNamespaces the namespaces {@code namespaceSelector} selects now, resolved from the
 *     namespaces' labels by the connectors (or simulate's Namespace manifests)
 * @param ignoredNamesakes the namespaces of other ElasticQuotas with this name, created later and
 *     ignored (names are cluster-wide; the first created stands for the name, issue 24)
 */
public record QuotaGroup(
    String name,
    String parent,
    boolean parentGroup,
    ResourceList min,
    ResourceList max,
    Optional<ResourceList> sharedWeight,
    boolean allowLent,
    Optional<ResourceList> lendingLimit,
    Optional<ResourceList> borrowingLimit,
    List<String> namespaces,
    List<SpecProblem> problems,
    Optional<ReservationSpec> reservation,
    String treeId,
    boolean allowForceUpdate,
    List<String> maxStrictCheckKeys,
    String namespace,
    Optional<NamespaceSelector> namespaceSelector,
    List<String> selectedNamespaces,
    List<String> ignoredNamesakes) {

  public QuotaGroup {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(parent, "parent");
    Objects.requireNonNull(min, "min");
    Objects.requireNonNull(max, "max");
    Objects.requireNonNull(sharedWeight, "sharedWeight");
    Objects.requireNonNull(lendingLimit, "lendingLimit");
    Objects.requireNonNull(borrowingLimit, "borrowingLimit");
    namespaces = List.copyOf(namespaces);
    problems = List.copyOf(problems);
    Objects.requireNonNull(reservation, "reservation");
    Objects.requireNonNull(treeId, "treeId");
    maxStrictCheckKeys = List.copyOf(maxStrictCheckKeys);
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(namespaceSelector, "namespaceSelector");
    selectedNamespaces = List.copyOf(selectedNamespaces);
    ignoredNamesakes = List.copyOf(ignoredNamesakes);
  }

  /**
   * A group without a tree-id label nor the webhook switches: the fields the quota tree and
   * reservations read.
   */
  public QuotaGroup(
      String name,
      String parent,
      boolean parentGroup,
      ResourceList min,
      ResourceList max,
      Optional<ResourceList> sharedWeight,
      boolean allowLent,
      Optional<ResourceList> lendingLimit,
      Optional<ResourceList> borrowingLimit,
      List<String> namespaces,
      List<SpecProblem> problems,
      Optional<ReservationSpec> reservation) {
    this(
        name,
        parent,
        parentGroup,
        min,
        max,
        sharedWeight,
        allowLent,
        lendingLimit,
        borrowingLimit,
        namespaces,
        problems,
        reservation,
        "",
        false,
        List.of(),
        "",
        Optional.empty(),
        List.of(),
        List.of());
  }

  /** A group without reservation: the fields the quota tree reads (SPEC 3, 12). */
  public QuotaGroup(
      String name,
      String parent,
      boolean parentGroup,
      ResourceList min,
      ResourceList max,
      Optional<ResourceList> sharedWeight,
      boolean allowLent,
      Optional<ResourceList> lendingLimit,
      Optional<ResourceList> borrowingLimit,
      List<String> namespaces,
      List<SpecProblem> problems) {
    this(
        name,
        parent,
        parentGroup,
        min,
        max,
        sharedWeight,
        allowLent,
        lendingLimit,
        borrowingLimit,
        namespaces,
        problems,
        Optional.empty());
  }

  /** A builder with Koordinator's defaults: child of the root, leaf, lending, no limits. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  public Builder toBuilder() {
    final Builder builder =
        new Builder(name)
            .parent(parent)
            .parentGroup(parentGroup)
            .min(min)
            .max(max)
            .allowLent(allowLent)
            .namespaces(namespaces)
            .problems(problems)
            .treeId(treeId)
            .allowForceUpdate(allowForceUpdate)
            .maxStrictCheckKeys(maxStrictCheckKeys)
            .namespace(namespace)
            .selectedNamespaces(selectedNamespaces)
            .ignoredNamesakes(ignoredNamesakes);
    namespaceSelector.ifPresent(builder::namespaceSelector);
    sharedWeight.ifPresent(builder::sharedWeight);
    lendingLimit.ifPresent(builder::lendingLimit);
    borrowingLimit.ifPresent(builder::borrowingLimit);
    reservation.ifPresent(builder::reservation);
    return builder;
  }

  /** Builds a {@link QuotaGroup}; every setter returns the builder. */
  public static final class Builder {
    private final String name;
    private String parent = SpecialGroups.ROOT;
    private boolean parentGroup;
    private ResourceList min = ResourceList.empty();
    private ResourceList max = ResourceList.empty();
    private Optional<ResourceList> sharedWeight = Optional.empty();
    private boolean allowLent = true;
    private Optional<ResourceList> lendingLimit = Optional.empty();
    private Optional<ResourceList> borrowingLimit = Optional.empty();
    private List<String> namespaces = List.of();
    private final List<SpecProblem> problems = new ArrayList<>();
    private Optional<ReservationSpec> reservation = Optional.empty();
    private String treeId = "";
    private boolean allowForceUpdate;
    private List<String> maxStrictCheckKeys = List.of();
    private String namespace = "";
    private List<String> ignoredNamesakes = List.of();
    private Optional<NamespaceSelector> namespaceSelector = Optional.empty();
    private List<String> selectedNamespaces = List.of();

    private Builder(String name) {
      this.name = name;
    }

    public Builder parent(String parent) {
      this.parent = parent;
      return this;
    }

    public Builder parentGroup(boolean parentGroup) {
      this.parentGroup = parentGroup;
      return this;
    }

    public Builder min(ResourceList min) {
      this.min = min;
      return this;
    }

    public Builder max(ResourceList max) {
      this.max = max;
      return this;
    }

    public Builder sharedWeight(ResourceList sharedWeight) {
      this.sharedWeight = Optional.of(sharedWeight);
      return this;
    }

    public Builder allowLent(boolean allowLent) {
      this.allowLent = allowLent;
      return this;
    }

    public Builder lendingLimit(ResourceList lendingLimit) {
      this.lendingLimit = Optional.of(lendingLimit);
      return this;
    }

    public Builder borrowingLimit(ResourceList borrowingLimit) {
      this.borrowingLimit = Optional.of(borrowingLimit);
      return this;
    }

    public Builder namespaces(List<String> namespaces) {
      this.namespaces = List.copyOf(namespaces);
      return this;
    }

    public Builder problem(SpecProblem problem) {
      this.problems.add(problem);
      return this;
    }

    public Builder problems(List<SpecProblem> problems) {
      this.problems.clear();
      this.problems.addAll(problems);
      return this;
    }

    public Builder reservation(ReservationSpec reservation) {
      this.reservation = Optional.of(reservation);
      return this;
    }

    public Builder noReservation() {
      this.reservation = Optional.empty();
      return this;
    }

    public Builder treeId(String treeId) {
      this.treeId = treeId;
      return this;
    }

    public Builder allowForceUpdate(boolean allowForceUpdate) {
      this.allowForceUpdate = allowForceUpdate;
      return this;
    }

    /** The annotation quotaflow.io/namespace-selector. */
    public Builder namespaceSelector(NamespaceSelector namespaceSelector) {
      this.namespaceSelector = Optional.of(namespaceSelector);
      return this;
    }

    /** The namespaces the selector selects now. */
    public Builder selectedNamespaces(List<String> selectedNamespaces) {
      this.selectedNamespaces = List.copyOf(selectedNamespaces);
      return this;
    }

    /** The namespaces of later ElasticQuotas with this name, ignored. */
    public Builder ignoredNamesakes(List<String> ignoredNamesakes) {
      this.ignoredNamesakes = List.copyOf(ignoredNamesakes);
      return this;
    }

    /** The namespace of the ElasticQuota object. */
    public Builder namespace(String namespace) {
      this.namespace = namespace;
      return this;
    }

    public Builder maxStrictCheckKeys(List<String> maxStrictCheckKeys) {
      this.maxStrictCheckKeys = List.copyOf(maxStrictCheckKeys);
      return this;
    }

    public QuotaGroup build() {
      return new QuotaGroup(
          name,
          parent,
          parentGroup,
          min,
          max,
          sharedWeight,
          allowLent,
          lendingLimit,
          borrowingLimit,
          namespaces,
          problems,
          reservation,
          treeId,
          allowForceUpdate,
          maxStrictCheckKeys,
          namespace,
          namespaceSelector,
          selectedNamespaces,
          ignoredNamesakes);
    }
  }
}
