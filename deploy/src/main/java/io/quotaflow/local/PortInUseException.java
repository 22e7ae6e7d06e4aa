package io.quotaflow.local;

/** A port {@code quotaflow local} was asked to listen on is taken; says which option moves it. */
final class PortInUseException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  PortInUseException(final int port, final String option, final String what) {
    super(
        "Port "
            + port
            + " is already in use, so "
            + what
            + " cannot listen there. Stop what uses it, or choose another port with "
            + option
            + " PORT.");
  }
}
