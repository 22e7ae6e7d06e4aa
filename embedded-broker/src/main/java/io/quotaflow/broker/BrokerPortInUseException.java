package io.quotaflow.broker;

/** The fixed port asked for the embedded broker is already taken by another process. */
public final class BrokerPortInUseException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final int port;

  BrokerPortInUseException(final String host, final int port, final Throwable cause) {
    super(
        "Cannot start the embedded Kafka broker: port "
            + port
            + " on "
            + host
            + " is already in use. Stop what is listening there or choose another port.",
        cause);
    this.port = port;
  }

  /** The port that was asked for and found taken. */
  public int port() {
    return port;
  }
}
