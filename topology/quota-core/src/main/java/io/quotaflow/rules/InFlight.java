package io.quotaflow.rules;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Admissions granted but not yet seen as used (SPEC 10): each is an in-flight hold of its request
 * at its group and every ancestor below the root, so that concurrent requests cannot overcommit a
 * group. Immutable; the caller drops a hold when the pod's event arrives or its timeout passes (the
 * core keeps no clock).
 */
public final class InFlight {

  private static final InFlight EMPTY = new InFlight(Map.of(), Map.of(), Map.of());

  /**
   * One granted admission, held in flight.
   *
   * @param pod the admitted pod
   * @param groups its group first, then each ancestor below the root
   * @param request its effective request
   * @param nonPreemptible whether it also counts against min
   */
  public record Hold(
      PodRef pod, List<String> groups, ResourceList request, boolean nonPreemptible) {
    public Hold {
      Objects.requireNonNull(pod, "pod");
      groups = List.copyOf(groups);
      Objects.requireNonNull(request, "request");
    }
  }

  private final Map<PodRef, Hold> holds;
  private final Map<String, ResourceList> byGroup;
  private final Map<String, ResourceList> nonPreemptibleByGroup;

  private InFlight(
      Map<PodRef, Hold> holds,
      Map<String, ResourceList> byGroup,
      Map<String, ResourceList> nonPreemptibleByGroup) {
    this.holds = holds;
    this.byGroup = byGroup;
    this.nonPreemptibleByGroup = nonPreemptibleByGroup;
  }

  public static InFlight empty() {
    return EMPTY;
  }

  /**
   * The holds, as {@link #plus} of each in turn gives them, with one copy of the maps instead of
   * one per hold (the admission plugin builds one per decision).
   */
  public static InFlight of(List<Hold> holds) {
    final Map<PodRef, Hold> all = new HashMap<>();
    final Map<String, ResourceList> sums = new HashMap<>();
    final Map<String, ResourceList> npSums = new HashMap<>();
    for (final Hold hold : holds) {
      if (all.put(hold.pod(), hold) != null) {
        // A pod twice: the later replaces the earlier, as plus() does it.
        InFlight folded = EMPTY;
        for (final Hold each : holds) {
          folded = folded.plus(each);
        }
        return folded;
      }
      for (final String group : hold.groups()) {
        sums.merge(group, hold.request(), ResourceList::plus);
        if (hold.nonPreemptible()) {
          npSums.merge(group, hold.request(), ResourceList::plus);
        }
      }
    }
    return all.isEmpty()
        ? EMPTY
        : new InFlight(Map.copyOf(all), Map.copyOf(sums), Map.copyOf(npSums));
  }

  /** With {@code hold} added (replacing an earlier one for the same pod). */
  public InFlight plus(Hold hold) {
    final InFlight base = minus(hold.pod());
    final Map<PodRef, Hold> all = new HashMap<>(base.holds);
    all.put(hold.pod(), hold);
    final Map<String, ResourceList> sums = new HashMap<>(base.byGroup);
    final Map<String, ResourceList> npSums = new HashMap<>(base.nonPreemptibleByGroup);
    for (final String group : hold.groups()) {
      sums.merge(group, hold.request(), ResourceList::plus);
      if (hold.nonPreemptible()) {
        npSums.merge(group, hold.request(), ResourceList::plus);
      }
    }
    return new InFlight(Map.copyOf(all), Map.copyOf(sums), Map.copyOf(npSums));
  }

  /** Without the hold of {@code pod}, if any. */
  public InFlight minus(PodRef pod) {
    final Hold old = holds.get(pod);
    if (old == null) {
      return this;
    }
    final Map<PodRef, Hold> all = new HashMap<>(holds);
    all.remove(pod);
    final Map<String, ResourceList> sums = new HashMap<>(byGroup);
    final Map<String, ResourceList> npSums = new HashMap<>(nonPreemptibleByGroup);
    for (final String group : old.groups()) {
      subtract(sums, group, old.request());
      if (old.nonPreemptible()) {
        subtract(npSums, group, old.request());
      }
    }
    return new InFlight(Map.copyOf(all), Map.copyOf(sums), Map.copyOf(npSums));
  }

  private static void subtract(Map<String, ResourceList> sums, String group, ResourceList amount) {
    // A group whose sum came to all zeros was dropped while zero requests (BestEffort pods) were
    // still held there: taking one of them away leaves nothing.
    final ResourceList left = sums.getOrDefault(group, ResourceList.empty()).minus(amount);
    boolean empty = true;
    for (final long value : left.asMap().values()) {
      if (value != 0) {
        empty = false;
        break;
      }
    }
    if (empty) {
      sums.remove(group);
    } else {
      sums.put(group, left);
    }
  }

  /** What in-flight admissions hold at {@code group} (its own and its descendants'). */
  public ResourceList at(String group) {
    return byGroup.getOrDefault(group, ResourceList.empty());
  }

  /** The same over non-preemptible pods. */
  public ResourceList nonPreemptibleAt(String group) {
    return nonPreemptibleByGroup.getOrDefault(group, ResourceList.empty());
  }

  public Map<PodRef, Hold> holds() {
    return holds;
  }

  public boolean isEmpty() {
    return holds.isEmpty();
  }
}
