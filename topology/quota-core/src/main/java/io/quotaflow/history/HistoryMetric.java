package io.quotaflow.history;

/**
 * What the history keeps of a group, per resource (docs/semantics.md section 23): four levels as
 * the engine computes them and two derived from them.
 */
public enum HistoryMetric {
  /** The group's request (its pods' and children's, capped as section 4 says). */
  REQUEST("request"),
  /** What its running pods use. */
  USED("used"),
  /** Its runtime: what it may use now. */
  RUNTIME("runtime"),
  /** Its guarantee. */
  MIN("min"),
  /** What it uses beyond its guarantee: {@code max(used - min, 0)}. */
  BORROWED("borrowed"),
  /** What of its guarantee its runtime leaves to others: {@code max(min - runtime, 0)}. */
  LENT("lent");

  private final String jsonName;

  HistoryMetric(String jsonName) {
    this.jsonName = jsonName;
  }

  /** The name in JSON, CSV and the query API. */
  public String jsonName() {
    return jsonName;
  }
}
