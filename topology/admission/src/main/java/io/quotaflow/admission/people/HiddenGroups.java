package io.quotaflow.admission.people;

import io.quotaflow.explain.RuntimeExplanation;
import io.quotaflow.explain.RuntimeExplanation.Level;
import io.quotaflow.explain.RuntimeExplanation.Participant;
import io.quotaflow.explain.RuntimeExplanation.Round;
import io.quotaflow.explain.RuntimeExplanation.Share;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * An explanation as a restricted viewer may see it (issue 25's rule): each group it may not see is
 * named {@code another group 1}, {@code another group 2}, ... in order of appearance, its amounts
 * kept so that every step still adds up. The explanation is computed over the whole cluster first:
 * over the visible groups alone the splits would not give the runtimes.
 */
public final class HiddenGroups {

  private final Predicate<String> listed;
  private final Map<String, String> aliases = new HashMap<>();

  private HiddenGroups(Predicate<String> listed) {
    this.listed = listed;
  }

  /** {@code explanation} with the groups {@code listed} rejects renamed. */
  public static RuntimeExplanation redact(
      RuntimeExplanation explanation, Predicate<String> listed) {
    return new HiddenGroups(listed).redact(explanation);
  }

  private String name(String group) {
    if (listed.test(group)) {
      return group;
    }
    return aliases.computeIfAbsent(group, g -> "another group " + (aliases.size() + 1));
  }

  private RuntimeExplanation redact(RuntimeExplanation e) {
    final List<Level> levels = new ArrayList<>();
    for (final Level level : e.levels()) {
      final List<Participant> participants = new ArrayList<>();
      for (final Participant p : level.participants()) {
        participants.add(
            new Participant(
                name(p.name()),
                p.limitedRequest(),
                p.min(),
                p.scaledMin(),
                p.weight(),
                p.guaranteed(),
                p.start(),
                p.runtime(),
                p.borrows()));
      }
      final List<Round> rounds = new ArrayList<>();
      for (final Round round : level.rounds()) {
        final List<Share> shares = new ArrayList<>();
        for (final Share share : round.shares()) {
          shares.add(
              new Share(
                  name(share.name()),
                  share.weight(),
                  share.quotient(),
                  share.share(),
                  share.given(),
                  share.capped()));
        }
        rounds.add(new Round(round.number(), round.left(), shares, round.handedBack()));
      }
      levels.add(
          new Level(
              name(level.parent()),
              level.source(),
              level.available(),
              level.systemUsed(),
              level.defaultUsed(),
              level.unbounded(),
              level.minsScaled(),
              level.minSum(),
              participants,
              level.allFit(),
              level.surplus(),
              rounds,
              name(level.member())));
    }
    return new RuntimeExplanation(
        e.group(), e.resource(), e.runtime(), e.request(), levels, e.notes());
  }
}
