package io.quotaflow.rules;

import io.quotaflow.quota.Gang;
import io.quotaflow.quota.GangKey;
import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.QuotaOptions;
import io.quotaflow.tree.WhatIfInputs;
import io.quotaflow.tree.WhatIfRuntimes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * All-or-nothing admission of a gang's first member (docs/semantics.md section 21, admission of
 * gangs): the pod is admitted only if the gang's {@code minMember} pods fit its group and every
 * ancestor, as {@link AdmissionCheck} judges one pod. Members are assumed alike: the first pod's
 * request stands for each. An admitted first member holds its own request; the room of the other
 * members is returned as one gang hold, for the caller to keep in flight until they arrive or a
 * timeout passes (the core keeps no clock). Later members are judged by {@link AdmissionCheck}
 * against in-flight admissions less one member's part of that hold.
 */
public final class GangAdmission {

  private GangAdmission() {}

  /**
   * The answer to a first member.
   *
   * @param decision the pod's: allowed with its own hold, or denied with every failing check, each
   *     naming the gang
   * @param rest when allowed and the gang has more members to come, the room of those members, held
   *     in flight under {@link GangKey#holdRef()} at the pod's group and ancestors
   */
  public record FirstMember(AdmissionDecision decision, Optional<InFlight.Hold> rest) {
    public FirstMember {
      Objects.requireNonNull(decision, "decision");
      Objects.requireNonNull(rest, "rest");
      if (rest.isPresent() && !decision.allowed()) {
        throw new IllegalArgumentException("a denied first member holds nothing for its gang");
      }
    }
  }

  /**
   * Judges the first member of a gang: {@code request} stands for each of the gang's {@code
   * minMember} pods. The group's request is grown, in the what-if, by the in-flight admissions at
   * the group and by the members the state does not count yet ({@code minMember - listed}); each
   * group on the path must then have room for {@code minMember} requests on top of what is used and
   * in flight.
   *
   * @param gang the gang, its {@code minMember} known and above one
   * @param listed how many of the gang's members the state already counts in the group's request
   *     (pending pods listed; the pod itself among them when the scheduler filter judges it)
   * @throws IllegalArgumentException when the gang's minMember is unknown or one: such a pod is
   *     judged alone
   */
  public static FirstMember first(
      AdmissionRequest request,
      Gang gang,
      int listed,
      WhatIfInputs state,
      InFlight inFlight,
      QuotaOptions options) {
    if (gang.minMember().isEmpty() || gang.minMember().getAsInt() < 2) {
      throw new IllegalArgumentException("a gang of unknown or one member is judged alone");
    }
    if (request.problem().isPresent()) {
      return new FirstMember(
          AdmissionCheck.check(request, state::status, inFlight), Optional.empty());
    }
    final int minMember = gang.minMember().getAsInt();
    final ResourceList each = request.request();
    final ResourceList uncounted = times(each, Math.max(0, minMember - Math.max(0, listed)));
    final Map<String, ResourceList> runtimes =
        WhatIfRuntimes.compute(
            state, request.group(), inFlight.at(request.group()).plus(uncounted), options);
    final AdmissionRequest whole =
        new AdmissionRequest(
            request.pod(),
            request.group(),
            times(each, minMember),
            request.preemptible(),
            Optional.empty());
    final AdmissionDecision decision =
        AdmissionCheck.check(whole, state::status, state::spec, inFlight, runtimes);
    if (!decision.allowed()) {
      final String detail =
          "gang " + gang.name() + " needs " + minMember + " pods of " + Quantities.format(each);
      final List<Denial> named = new ArrayList<>();
      for (final Denial denial : decision.denials()) {
        named.add(denial.detail().isEmpty() ? withDetail(denial, detail) : denial);
      }
      return new FirstMember(new AdmissionDecision(named, Optional.empty()), Optional.empty());
    }
    final InFlight.Hold wholeHold = decision.hold().orElseThrow();
    final InFlight.Hold own =
        new InFlight.Hold(request.pod(), wholeHold.groups(), each, wholeHold.nonPreemptible());
    final InFlight.Hold rest =
        new InFlight.Hold(
            GangKey.of(request.pod().namespace(), gang).holdRef(),
            wholeHold.groups(),
            times(each, minMember - 1),
            wholeHold.nonPreemptible());
    return new FirstMember(new AdmissionDecision(List.of(), Optional.of(own)), Optional.of(rest));
  }

  /**
   * The gang hold {@code rest} once a later member has taken its part: the part is the first
   * member's request (members are alike), taken whatever the later member asks, which is judged on
   * its own against in-flight admissions that hold the smaller gang hold. Empty when no member is
   * left to come (the hold held exactly one part, or less).
   */
  public static Optional<InFlight.Hold> lessOneMember(InFlight.Hold rest, ResourceList part) {
    final ResourceList left = rest.request().minus(part);
    for (int i = 0; i < left.size(); i++) {
      if (left.amountAt(i) > 0) {
        return Optional.of(
            new InFlight.Hold(rest.pod(), rest.groups(), left, rest.nonPreemptible()));
      }
    }
    return Optional.empty();
  }

  /** {@code amounts} times {@code count}, saturating as {@link ResourceList#plus} does. */
  public static ResourceList times(ResourceList amounts, int count) {
    final ResourceList.Builder builder = ResourceList.builder();
    for (int i = 0; i < amounts.size(); i++) {
      final long amount = amounts.amountAt(i);
      final long product;
      try {
        product = Math.multiplyExact(amount, (long) count);
      } catch (ArithmeticException overflow) {
        builder.put(amounts.nameAt(i), amount < 0 ? Long.MIN_VALUE : Long.MAX_VALUE);
        continue;
      }
      builder.put(amounts.nameAt(i), product);
    }
    return builder.build();
  }

  private static Denial withDetail(Denial denial, String detail) {
    return new Denial(
        denial.check(),
        denial.reason(),
        denial.group(),
        denial.dimension(),
        denial.limit(),
        denial.used(),
        denial.inFlight(),
        denial.request(),
        detail);
  }
}
