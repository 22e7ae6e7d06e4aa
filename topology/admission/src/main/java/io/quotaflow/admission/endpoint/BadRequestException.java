package io.quotaflow.admission.endpoint;

/**
 * A request the plugin cannot read: answered with 400 and the message, never logged as an error.
 */
public final class BadRequestException extends Exception {

  public BadRequestException(String message) {
    super(message);
  }

  public BadRequestException(String message, Throwable cause) {
    super(message, cause);
  }
}
