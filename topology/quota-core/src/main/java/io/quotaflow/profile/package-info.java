/**
 * Several quota trees per cluster, one per node pool (Koordinator's MultiQuotaTree,
 * docs/semantics.md section 15): an ElasticQuotaProfile ({@link QuotaProfile}) selects nodes
 * ({@link NodeSelector}) whose allocatable, times its ratio ({@link ResourceRatio}), is the total
 * of its tree, rooted at the profile's quota name. {@link QuotaTrees} decides which tree every
 * group, pod and node of a cluster belongs to and hands each tree its own inputs ({@link
 * TreeInputs}), so a tree is computed by the ordinary quota core as if it were a cluster of its
 * own; {@link MultiTreeCalculator} computes all trees in one call. Pure: no clock, no I/O.
 */
package io.quotaflow.profile;
