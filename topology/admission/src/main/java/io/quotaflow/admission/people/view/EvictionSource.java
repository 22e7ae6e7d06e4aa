package io.quotaflow.admission.people.view;

/**
 * Where the web view's recent evictions come from: started with the plugin, closed with it. The
 * engine's plugin reads them from Kafka ({@link KafkaEvictionFeed}); tests feed {@link
 * RecentActivity} directly.
 */
@FunctionalInterface
public interface EvictionSource {

  /** No evictions: nothing is read. */
  EvictionSource NONE = activity -> () -> {};

  /** Starts feeding {@code activity}; the result stops it. */
  AutoCloseable start(RecentActivity activity);
}
