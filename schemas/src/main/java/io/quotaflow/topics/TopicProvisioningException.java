package io.quotaflow.topics;

import org.apache.kafka.common.KafkaException;

/**
 * The broker could not be asked about or made to create topics (unreachable, denied, timed out).
 */
public final class TopicProvisioningException extends KafkaException {
  private static final long serialVersionUID = 1L;

  /** A failure with its cause. */
  public TopicProvisioningException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
