package io.quotaflow.engine.errors;

/**
 * An input record that could be read but whose content the engine cannot use (an empty cluster
 * name, a negative request, ...). Thrown from a processor, it sends the record to the dead-letter
 * topic and processing goes on (see {@link RejectingProcessingExceptionHandler}). An invalid quota
 * tree is not such a record: the core isolates invalid groups (SPEC 9).
 */
public final class InvalidInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An input rejected for {@code reason}. */
  public InvalidInputException(final String reason) {
    super(reason);
  }
}
