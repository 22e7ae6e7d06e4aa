package io.quotaflow.cli.tree;

/**
 * The query API could not give what was asked: the server cannot be reached, answers with an error,
 * or answers with something that is not quotaflow's JSON. The message says which, in one line.
 */
public final class QueryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public QueryException(final String message) {
    super(message);
  }

  QueryException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
