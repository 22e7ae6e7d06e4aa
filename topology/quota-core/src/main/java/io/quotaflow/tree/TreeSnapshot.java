package io.quotaflow.tree;

import io.quotaflow.quota.ResourceList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * An immutable result of one cluster's computation.
 *
 * <p>A snapshot made by {@link QuotaCalculator#compute} builds its group statuses and pod
 * assignments only when they are first asked for (then once, and keeps them): a caller that reads
 * no status, or only the total, pays for none of the records. The result is the same either way;
 * {@code equals} compares contents.
 */
public final class TreeSnapshot {

  private final ResourceList total;
  private final Part<GroupStatus> groups;
  private final Part<PodAssignment> pods;

  /**
   * A snapshot of the given result.
   *
   * @param total the cluster total (sum of allocatable of counted nodes)
   * @param groups every group, the root and the special groups included: the root first, then
   *     depth-first with siblings by name; invalid groups (cycles, missing parents) after the rest,
   *     by name
   * @param pods every pod's assignment, ordered by namespace then name
   */
  public TreeSnapshot(ResourceList total, List<GroupStatus> groups, List<PodAssignment> pods) {
    this.total = Objects.requireNonNull(total, "total");
    this.groups = new Part<>(List.copyOf(groups));
    this.pods = new Part<>(List.copyOf(pods));
  }

  private TreeSnapshot(
      ResourceList total, Supplier<List<GroupStatus>> groups, Supplier<List<PodAssignment>> pods) {
    this.total = Objects.requireNonNull(total, "total");
    this.groups = new Part<>(groups);
    this.pods = new Part<>(pods);
  }

  /**
   * A snapshot whose groups and pods are built on first use by the given suppliers, which must read
   * only what no one changes any more.
   */
  static TreeSnapshot lazy(
      ResourceList total, Supplier<List<GroupStatus>> groups, Supplier<List<PodAssignment>> pods) {
    return new TreeSnapshot(total, groups, pods);
  }

  /** The cluster total (sum of allocatable of counted nodes). */
  public ResourceList total() {
    return total;
  }

  /**
   * Every group, the root and the special groups included: the root first, then depth-first with
   * siblings by name; invalid groups (cycles, missing parents) after the rest, by name.
   */
  public List<GroupStatus> groups() {
    return groups.get();
  }

  /** Every pod's assignment, ordered by namespace then name. */
  public List<PodAssignment> pods() {
    return pods.get();
  }

  public Optional<GroupStatus> group(String name) {
    return groups().stream().filter(g -> g.name().equals(name)).findFirst();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TreeSnapshot other
        && total.equals(other.total)
        && groups().equals(other.groups())
        && pods().equals(other.pods());
  }

  @Override
  public int hashCode() {
    return Objects.hash(total, groups(), pods());
  }

  @Override
  public String toString() {
    return "TreeSnapshot[total=" + total + ", groups=" + groups() + ", pods=" + pods() + "]";
  }

  /** One list of the snapshot, given or built once on first use. */
  private static final class Part<T> {
    private volatile List<T> list;
    private Supplier<List<T>> source;

    Part(List<T> list) {
      this.list = list;
    }

    Part(Supplier<List<T>> source) {
      this.source = Objects.requireNonNull(source, "source");
    }

    List<T> get() {
      List<T> result = list;
      if (result == null) {
        synchronized (this) {
          result = list;
          if (result == null) {
            result = List.copyOf(source.get());
            list = result;
            source = null;
          }
        }
      }
      return result;
    }
  }
}
