package io.quotaflow.reservation;

/**
 * A set's rank by the design's criteria ({@link LockChooser}), compared lexicographically: smaller
 * is better. Names are compared last, by the searches, and only built when everything else ties.
 */
record LockRank(long excess, long used, int count, long idle, long held) {
  int compareTo(LockRank other) {
    int c = Long.compare(excess, other.excess);
    if (c == 0) {
      c = Long.compare(other.used, used);
    }
    if (c == 0) {
      c = Integer.compare(count, other.count);
    }
    if (c == 0) {
      c = Long.compare(other.idle, idle);
    }
    if (c == 0) {
      c = Long.compare(other.held, held);
    }
    return c;
  }
}
