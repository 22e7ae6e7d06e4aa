package io.quotaflow.kube;

/**
 * The label and annotation keys quotaflow reads from ElasticQuota objects and pods (SPEC 3, 12).
 * The {@code quota.scheduling.koordinator.sh/} keys are Koordinator's, read for compatibility; the
 * {@code quotaflow.io/} keys are quotaflow's own extensions.
 */
public final class QuotaLabels {

  /** Prefix of Koordinator's keys. */
  public static final String KOORDINATOR_PREFIX = "quota.scheduling.koordinator.sh/";

  /** ElasticQuota label: the parent group's name. */
  public static final String PARENT = KOORDINATOR_PREFIX + "parent";

  /** ElasticQuota label: the proposal's spelling of {@link #PARENT}, accepted as an alias. */
  public static final String PARENT_QUOTA_NAME = KOORDINATOR_PREFIX + "parent-quota-name";

  /** ElasticQuota label: {@code "true"} marks a parent group. */
  public static final String IS_PARENT = KOORDINATOR_PREFIX + "is-parent";

  /** ElasticQuota label: only {@code "false"} turns lending of unused min off. */
  public static final String ALLOW_LENT_RESOURCE = KOORDINATOR_PREFIX + "allow-lent-resource";

  /** ElasticQuota annotation: JSON resource list, the weight when competing for surplus. */
  public static final String SHARED_WEIGHT = KOORDINATOR_PREFIX + "shared-weight";

  /** ElasticQuota annotation: JSON list of namespaces whose pods belong to the group. */
  public static final String NAMESPACES = KOORDINATOR_PREFIX + "namespaces";

  /**
   * ElasticQuota label (Koordinator's spelling) or annotation (accepted too): {@code "true"} lets a
   * change of the group bypass the quota webhook's checks of the children's min sums.
   */
  public static final String ALLOW_FORCE_UPDATE = KOORDINATOR_PREFIX + "allow-force-update";

  /**
   * ElasticQuota annotation: JSON list of resource names for which the quota webhook rejects a max
   * below the group's used.
   */
  public static final String MAX_STRICT_CHECK_RESOURCE_KEYS =
      KOORDINATOR_PREFIX + "max-strict-check-resource-keys";

  /**
   * ElasticQuota annotation written by quotaflow's status writer when the guarantee of allocated
   * usage is on: the group's guaranteed amount, a JSON resource list (Koordinator's name).
   */
  public static final String GUARANTEED = KOORDINATOR_PREFIX + "guaranteed";

  /** ElasticQuota annotation: JSON resource list, at most this much of min is lent. */
  public static final String LENDING_LIMIT = "quotaflow.io/lending-limit";

  /** ElasticQuota annotation: JSON resource list, at most this much above min is borrowed. */
  public static final String BORROWING_LIMIT = "quotaflow.io/borrowing-limit";

  /**
   * ElasticQuota annotation: JSON object, the group's node reservation ({@code policy}, {@code
   * resource}, {@code percentage}); read by {@link ReservationAnnotation}.
   */
  public static final String RESERVATION = "quotaflow.io/reservation";

  /**
   * quotaflow's annotation binding the namespaces a label selector picks to the group (issue 24, as
   * Kueue's ClusterQueue namespaceSelector): their pods may name the group in their label.
   */
  public static final String NAMESPACE_SELECTOR = "quotaflow.io/namespace-selector";

  /**
   * ElasticQuota annotation written by quotaflow's status writer: the reservation's state as JSON
   * ({@code nodes}, {@code satisfied}, {@code idle}, ...).
   */
  public static final String RESERVATION_STATUS = "quotaflow.io/reservation-status";

  /**
   * ElasticQuota label: the quota tree (one per ElasticQuotaProfile) the group belongs to; a group
   * without it is in its parent's tree. Also read on a profile: the tree's id when set.
   */
  public static final String TREE_ID = KOORDINATOR_PREFIX + "tree-id";

  /** ElasticQuota label Koordinator's profile controller puts on a tree's root group. */
  public static final String IS_ROOT = KOORDINATOR_PREFIX + "is-root";

  /** ElasticQuota label Koordinator's profile controller puts on a tree's root: the profile. */
  public static final String PROFILE = KOORDINATOR_PREFIX + "profile";

  /** Pod label: the group the pod is charged to. */
  public static final String QUOTA_NAME = KOORDINATOR_PREFIX + "name";

  /**
   * Pod label: {@code "false"} marks a pod that must never be evicted to reclaim borrowed quota.
   */
  public static final String PREEMPTIBLE = KOORDINATOR_PREFIX + "preemptible";

  private QuotaLabels() {}
}
