package io.quotaflow.local;

/** A scenario step did not reach the state it expected, or could not be carried out. */
final class ScenarioFailedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  ScenarioFailedException(final String message) {
    super(message);
  }
}
