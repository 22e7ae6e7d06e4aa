package io.quotaflow.bench.peer;

import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.Schedulable;

/**
 * One quota group as the YARN Fair Scheduler sees it, for one dimension at a time: {@code
 * ComputeFairShares} reads min share, max share and weight, and writes the fair share. The value of
 * the dimension being computed travels in the Resource's memory field (a long; the vcores field is
 * an int and too narrow for bytes).
 *
 * <p>Everything else of {@link Schedulable} is scheduling, not share computation, and is never
 * called by {@code ComputeFairShares}.
 */
final class PeerQueue implements Schedulable {

  private final String name;
  private final Resource minShare = Resource.newInstance(0L, 0);
  private final Resource maxShare = Resource.newInstance(0L, 0);
  private final Resource fairShare = Resource.newInstance(0L, 0);
  private float weight;

  PeerQueue(String name) {
    this.name = name;
  }

  /** Prepares the queue for one dimension's computation. */
  void load(long min, long max, float weight) {
    minShare.setMemorySize(min);
    maxShare.setMemorySize(max);
    this.weight = weight;
  }

  /** The share {@code ComputeFairShares} wrote for the dimension last loaded. */
  long share() {
    return fairShare.getMemorySize();
  }

  @Override
  public String getName() {
    return name;
  }

  @Override
  public Resource getMinShare() {
    return minShare;
  }

  @Override
  public Resource getMaxShare() {
    return maxShare;
  }

  @Override
  public float getWeight() {
    return weight;
  }

  @Override
  public Resource getFairShare() {
    return fairShare;
  }

  @Override
  public void setFairShare(Resource fairShare) {
    this.fairShare.setMemorySize(fairShare.getMemorySize());
  }

  @Override
  public Resource getDemand() {
    return maxShare;
  }

  @Override
  public Resource getResourceUsage() {
    throw notSharing();
  }

  @Override
  public long getStartTime() {
    throw notSharing();
  }

  @Override
  public Priority getPriority() {
    throw notSharing();
  }

  @Override
  public void updateDemand() {
    throw notSharing();
  }

  @Override
  public Resource assignContainer(FSSchedulerNode node) {
    throw notSharing();
  }

  @Override
  public boolean isPreemptable() {
    throw notSharing();
  }

  private static UnsupportedOperationException notSharing() {
    return new UnsupportedOperationException("scheduling, not used by ComputeFairShares");
  }
}
