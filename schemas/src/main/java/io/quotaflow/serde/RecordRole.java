package io.quotaflow.serde;

import java.util.Locale;

/** Whether a serde handles the key or the value of a record; named in error messages. */
public enum RecordRole {
  KEY,
  VALUE;

  /** The role Kafka means by the {@code isKey} flag of {@code configure}. */
  public static RecordRole of(final boolean isKey) {
    return isKey ? KEY : VALUE;
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
