package io.quotaflow.admission.state;

import java.util.Objects;

/** Whether a view of a cluster can read its groups' history, and if not why. */
public sealed interface HistoryAccess {

  /** The history is kept and readable. */
  record Kept(GroupHistories histories) implements HistoryAccess {
    public Kept {
      Objects.requireNonNull(histories, "histories");
    }
  }

  /** The engine keeps no history ({@code history.enabled=false}). */
  record NotKept(String why) implements HistoryAccess {}

  /** Kept, but not readable now (answering from a last state: the history is read live only). */
  record Unreadable(String why) implements HistoryAccess {}
}
