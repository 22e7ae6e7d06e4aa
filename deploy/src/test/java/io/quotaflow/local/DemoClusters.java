package io.quotaflow.local;

import io.quotaflow.quota.PodRef;
import io.quotaflow.simulate.Manifest;
import io.quotaflow.simulate.ManifestReader;
import java.nio.file.Path;
import java.util.List;

/**
 * The demo cluster of {@code quotaflow local} (a mock API server in CRUD mode whose eviction
 * subresource deletes the pod) for tests outside this package, loaded with the example
 * organisation: research-vision borrows GPUs beyond what it may keep, so a short revoke delay gets
 * one of its pods evicted.
 */
public final class DemoClusters {

  /** The cluster name the demo cluster's records carry in {@code quotaflow local}. */
  public static final String NAME = DemoCluster.NAME;

  /** The example organisation, relative to the deploy module. */
  public static final Path EXAMPLES = Path.of("local", "examples");

  private DemoClusters() {}

  /** A started demo cluster holding the example organisation. */
  public static Running startWithExamples() throws Exception {
    final DemoCluster cluster = DemoCluster.start();
    try {
      cluster.create(
          new ManifestReader(warning -> {})
              .read(List.of(EXAMPLES)).stream().map(Manifest::object).toList());
      return new Running(cluster);
    } catch (Exception | Error e) {
      cluster.close();
      throw e;
    }
  }

  /** A running demo cluster. */
  public static final class Running implements AutoCloseable {
    private final DemoCluster cluster;

    private Running(final DemoCluster cluster) {
      this.cluster = cluster;
    }

    /** The mock API server's URL, for a kubeconfig. */
    public String url() {
      return cluster.url();
    }

    /** The pods evicted so far. */
    public List<PodRef> evicted() {
      return cluster.evicted();
    }

    @Override
    public void close() {
      cluster.close();
    }
  }
}
