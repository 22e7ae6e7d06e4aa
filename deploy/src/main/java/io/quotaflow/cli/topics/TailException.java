package io.quotaflow.cli.topics;

/** {@code topics tail} cannot read the topic; the message says why in one line. */
public final class TailException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  TailException(final String message) {
    super(message);
  }

  TailException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
