package io.quotaflow.bench.pipeline;

/**
 * Size of the generated workload.
 *
 * @param clusters clusters sharing the input topics
 * @param groupsPerCluster quota groups per cluster (about one parent per fifty leaves)
 * @param pods pods in all, spread round-robin over clusters and leaves
 * @param updates pod updates written after the pods' first versions
 */
record WorkloadShape(int clusters, int groupsPerCluster, int pods, int updates) {}
