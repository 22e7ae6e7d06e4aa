package io.quotaflow.cli.cluster;

import io.quotaflow.topics.SourceMarkers;
import io.quotaflow.topics.Topic;
import io.quotaflow.topics.TopicCatalogue;
import java.util.List;
import java.util.function.Function;

/**
 * The input topics the connectors write a cluster's objects and markers to, each with the key of
 * the cluster's markers there.
 */
final class InputTopics {
  private InputTopics() {}

  /** One input topic and how to make the bytes of a cluster's marker key on it. */
  record InputTopic(String name, Function<String, byte[]> markerKey) {}

  /** The connectors' input topics of {@code catalogue}. */
  static List<InputTopic> of(final TopicCatalogue catalogue) {
    return List.of(
        topic(catalogue.pods(), SourceMarkers::podKey),
        topic(catalogue.quotas(), SourceMarkers::quotaKey),
        topic(catalogue.nodes(), SourceMarkers::nodeKey),
        topic(catalogue.profiles(), SourceMarkers::profileKey),
        topic(catalogue.podGroups(), SourceMarkers::podGroupKey),
        topic(catalogue.deviceClasses(), SourceMarkers::draKey),
        topic(catalogue.resourceClaims(), SourceMarkers::draKey),
        topic(catalogue.resourceClaimTemplates(), SourceMarkers::draKey),
        topic(catalogue.resourceSlices(), SourceMarkers::draKey));
  }

  private static <K> InputTopic topic(final Topic<K, ?> topic, final Function<String, K> key) {
    return new InputTopic(
        topic.name(), cluster -> topic.keySerializer().serialize(topic.name(), key.apply(cluster)));
  }
}
