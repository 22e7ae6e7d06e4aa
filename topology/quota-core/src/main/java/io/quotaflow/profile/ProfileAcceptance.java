package io.quotaflow.profile;

import io.quotaflow.quota.SpecialGroups;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which ElasticQuotaProfiles head a quota tree (docs/semantics.md section 15): in name order, each
 * needs a root group that is not special, a tree id other than the default tree's, and neither its
 * tree id nor its root taken by an earlier profile. The others head no tree, with the reason.
 */
final class ProfileAcceptance {

  private ProfileAcceptance() {}

  /** Accepts {@code profiles} (in name order) into {@code trees}, the others into rejected. */
  static void accept(
      Collection<QuotaProfile> profiles,
      Map<String, QuotaProfile> trees,
      Map<String, String> rejected) {
    final Map<String, String> roots = new HashMap<>();
    for (final QuotaProfile profile : profiles) {
      final Optional<String> reason = rejection(profile, trees, roots);
      if (reason.isPresent()) {
        rejected.put(profile.name(), reason.get());
      } else {
        trees.put(profile.treeId(), profile);
        roots.put(profile.quotaName(), profile.treeId());
      }
    }
  }

  /** Why a profile cannot head a tree (the earlier profile by name keeps a shared id or root). */
  private static Optional<String> rejection(
      QuotaProfile profile, Map<String, QuotaProfile> trees, Map<String, String> rootTree) {
    if (profile.quotaName().isEmpty()) {
      return Optional.of("spec.quotaName is empty: a tree needs a root group");
    }
    if (SpecialGroups.ROOT.equals(profile.quotaName())
        || SpecialGroups.isSpecial(profile.quotaName())) {
      return Optional.of(
          "spec.quotaName " + profile.quotaName() + " is a special group of the default tree");
    }
    if (QuotaTrees.DEFAULT_TREE.equals(profile.treeId()) || profile.treeId().isEmpty()) {
      return Optional.of("tree id \"" + profile.treeId() + "\" is reserved for the default tree");
    }
    final QuotaProfile sameTree = trees.get(profile.treeId());
    if (sameTree != null) {
      return Optional.of(
          "tree id " + profile.treeId() + " is already the tree of profile " + sameTree.name());
    }
    final String sameRoot = rootTree.get(profile.quotaName());
    if (sameRoot != null) {
      return Optional.of(
          "spec.quotaName "
              + profile.quotaName()
              + " is already the root of tree "
              + sameRoot
              + " (profile "
              + trees.get(sameRoot).name()
              + ")");
    }
    return Optional.empty();
  }
}
