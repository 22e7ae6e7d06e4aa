package io.quotaflow.quota;

import java.util.Locale;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One gang as {@code simulate}, the query API and the web view show it (docs/semantics.md 21.4):
 * its members charged to one group, counted by what they do now. Every member seen is running,
 * pending or terminating, so {@code members = running + pending + terminating}.
 *
 * @param key the gang's namespace and name
 * @param convention the convention that named it (of its first member by name)
 * @param minMember the largest minMember its members declare; empty while not known
 * @param members its unfinished pods in the group
 * @param running members that count as used and are not terminating
 * @param pending members not terminating that do not count as used yet (not bound, or, with the
 *     used policy {@code running}, bound but not Running yet)
 * @param terminating members being deleted
 * @param state what the counts mean together
 */
public record GangSummary(
    GangKey key,
    String convention,
    OptionalInt minMember,
    int members,
    int running,
    int pending,
    int terminating,
    State state) {

  /** What a gang is doing, in one word. */
  public enum State {
    /** Enough members run: minMember of them, or, minMember unknown, every member not leaving. */
    RUNNING,
    /** Some members run, but fewer than needed. */
    INCOMPLETE,
    /** No member runs; at least one is pending. */
    WAITING,
    /** No member runs or waits: every member seen is being deleted. */
    TERMINATING;

    /** The documented word: the constant's name in lower case. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public GangSummary {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(convention, "convention");
    Objects.requireNonNull(minMember, "minMember");
    Objects.requireNonNull(state, "state");
    if (running < 0
        || pending < 0
        || terminating < 0
        || members != running + pending + terminating) {
      throw new IllegalArgumentException(
          "members must be running + pending + terminating, each at least 0; got "
              + members
              + " = "
              + running
              + " + "
              + pending
              + " + "
              + terminating);
    }
  }

  /**
   * The state these counts give: with no member running, {@code waiting} or {@code terminating};
   * else {@code running} when at least minMember run (minMember unknown: when no member is pending,
   * every member seen being needed together, section 21.1), {@code incomplete} otherwise.
   */
  public static State stateOf(OptionalInt minMember, int running, int pending) {
    if (running == 0) {
      return pending > 0 ? State.WAITING : State.TERMINATING;
    }
    final int needed = minMember.orElse(running + pending);
    return running >= needed ? State.RUNNING : State.INCOMPLETE;
  }

  /** {@code members/minMember} as a person reads it: {@code 8/8}, {@code 3/?} when not known. */
  public String membersOfMin() {
    return members + "/" + (minMember.isPresent() ? String.valueOf(minMember.getAsInt()) : "?");
  }
}
