package io.quotaflow.serde;

/** Turns a failure from deep inside Avro into one readable line. */
final class Failures {
  private static final int MAX_DEPTH = 8;

  private Failures() {}

  /** The messages of a throwable and its causes, skipping repeats, joined by ": ". */
  static String describe(final Throwable failure) {
    final StringBuilder text = new StringBuilder();
    Throwable current = failure;
    for (int depth = 0; current != null && depth < MAX_DEPTH; depth++) {
      final String message =
          current.getMessage() == null ? current.getClass().getSimpleName() : current.getMessage();
      if (text.indexOf(message) < 0) {
        text.append(text.length() == 0 ? "" : ": ").append(message);
      }
      current = current.getCause();
    }
    return text.toString();
  }
}
