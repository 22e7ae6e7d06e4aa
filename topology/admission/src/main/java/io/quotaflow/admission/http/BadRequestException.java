package io.quotaflow.admission.http;

/**
 * A request the plugin cannot read: answered with 400 and the message, never logged as an error.
 */
final class BadRequestException extends Exception {

  BadRequestException(String message) {
    super(message);
  }

  BadRequestException(String message, Throwable cause) {
    super(message, cause);
  }
}
