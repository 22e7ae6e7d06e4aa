package io.quotaflow.simulate;

import io.quotaflow.profile.QuotaProfile;
import io.quotaflow.tree.ClusterInputs;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * A cluster as manifests describe it, read as {@code simulate} reads them: its inputs and its
 * ElasticQuotaProfiles. For the other commands that work on manifests ({@code explain}).
 *
 * @param inputs the quotas, pods and nodes
 * @param profiles the ElasticQuotaProfiles, one quota tree each
 */
public record ManifestCluster(ClusterInputs inputs, List<QuotaProfile> profiles) {

  /** Reads {@code paths} ({@code -} for {@code standardInput}); warnings go to {@code warnings}. */
  public static ManifestCluster read(
      List<Path> paths, InputStream standardInput, Consumer<String> warnings)
      throws BadInputException {
    final List<Manifest> manifests = new ManifestReader(warnings, standardInput).read(paths);
    return new ManifestCluster(
        ManifestInputs.toClusterInputs(manifests, warnings),
        ManifestInputs.profiles(manifests, warnings));
  }
}
