package io.quotaflow.admission;

import io.quotaflow.quota.PodRef;
import io.quotaflow.quota.ResourceList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Admissions granted but not yet seen as used (SPEC 10): each holds its request at its group and
 * every ancestor below the root, so that concurrent requests cannot overcommit a group. Immutable;
 * the caller drops a reservation when the pod's event arrives or its timeout passes (the core keeps
 * no clock).
 */
public final class InFlight {

  private static final InFlight EMPTY = new InFlight(Map.of(), Map.of(), Map.of());

  /**
   * One granted admission.
   *
   * @param pod the admitted pod
   * @param groups its group first, then each ancestor below the root
   * @param request its effective request
   * @param nonPreemptible whether it also counts against min
   */
  public record Reservation(
      PodRef pod, List<String> groups, ResourceList request, boolean nonPreemptible) {
    public Reservation {
      Objects.requireNonNull(pod, "pod");
      groups = List.copyOf(groups);
      Objects.requireNonNull(request, "request");
    }
  }

  private final Map<PodRef, Reservation> reservations;
  private final Map<String, ResourceList> byGroup;
  private final Map<String, ResourceList> nonPreemptibleByGroup;

  private InFlight(
      Map<PodRef, Reservation> reservations,
      Map<String, ResourceList> byGroup,
      Map<String, ResourceList> nonPreemptibleByGroup) {
    this.reservations = reservations;
    this.byGroup = byGroup;
    this.nonPreemptibleByGroup = nonPreemptibleByGroup;
  }

  public static InFlight empty() {
    return EMPTY;
  }

  /**
   * The reservations, as {@link #plus} of each in turn gives them, with one copy of the maps
   * instead of one per reservation (the admission plugin builds one per decision).
   */
  public static InFlight of(List<Reservation> reservations) {
    final Map<PodRef, Reservation> all = new HashMap<>();
    final Map<String, ResourceList> sums = new HashMap<>();
    final Map<String, ResourceList> npSums = new HashMap<>();
    for (final Reservation reservation : reservations) {
      if (all.put(reservation.pod(), reservation) != null) {
        // A pod twice: the later replaces the earlier, as plus() does it.
        InFlight folded = EMPTY;
        for (final Reservation each : reservations) {
          folded = folded.plus(each);
        }
        return folded;
      }
      for (final String group : reservation.groups()) {
        sums.merge(group, reservation.request(), ResourceList::plus);
        if (reservation.nonPreemptible()) {
          npSums.merge(group, reservation.request(), ResourceList::plus);
        }
      }
    }
    return all.isEmpty()
        ? EMPTY
        : new InFlight(Map.copyOf(all), Map.copyOf(sums), Map.copyOf(npSums));
  }

  /** With {@code reservation} added (replacing an earlier one for the same pod). */
  public InFlight plus(Reservation reservation) {
    final InFlight base = minus(reservation.pod());
    final Map<PodRef, Reservation> all = new HashMap<>(base.reservations);
    all.put(reservation.pod(), reservation);
    final Map<String, ResourceList> sums = new HashMap<>(base.byGroup);
    final Map<String, ResourceList> npSums = new HashMap<>(base.nonPreemptibleByGroup);
    for (final String group : reservation.groups()) {
      sums.merge(group, reservation.request(), ResourceList::plus);
      if (reservation.nonPreemptible()) {
        npSums.merge(group, reservation.request(), ResourceList::plus);
      }
    }
    return new InFlight(Map.copyOf(all), Map.copyOf(sums), Map.copyOf(npSums));
  }

  /** Without the reservation of {@code pod}, if any. */
  public InFlight minus(PodRef pod) {
    final Reservation old = reservations.get(pod);
    if (old == null) {
      return this;
    }
    final Map<PodRef, Reservation> all = new HashMap<>(reservations);
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

  public Map<PodRef, Reservation> reservations() {
    return reservations;
  }

  public boolean isEmpty() {
    return reservations.isEmpty();
  }
}
