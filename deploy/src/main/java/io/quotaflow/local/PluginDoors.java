package io.quotaflow.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The admission plugin's machine doors on the demo cluster, called over HTTP as the API server (the
 * pod webhook) and the scheduler (the filter) would call them, for {@link ScenarioPlayer}.
 */
final class PluginDoors {

  private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(5);

  /**
   * The scheduler filter's answer.
   *
   * @param refused the nodes refused, by name, with the reasons
   * @param placed the first passing node by name, if any
   */
  record Filtered(Map<String, String> refused, Optional<String> placed) {}

  private final Optional<String> adminUrl;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(HTTP_TIMEOUT).build();

  /**
   * @param adminUrl the plugin's base URL; empty when the plugin is off
   */
  PluginDoors(final Optional<String> adminUrl) {
    this.adminUrl = adminUrl;
  }

  /** Asks the pod webhook as the API server would; empty when the plugin is off. */
  Optional<AdmissionResponse> admit(final Pod pod) {
    if (adminUrl.isEmpty()) {
      return Optional.empty();
    }
    final AdmissionReview review =
        new AdmissionReviewBuilder()
            .withNewRequest()
            .withUid(UUID.randomUUID().toString())
            .withKind(new GroupVersionKind("", "Pod", "v1"))
            .withResource(new GroupVersionResource("", "pods", "v1"))
            .withOperation("CREATE")
            .withNamespace(pod.getMetadata().getNamespace())
            .withName(pod.getMetadata().getName())
            .withObject(pod)
            .endRequest()
            .build();
    final URI uri =
        URI.create(adminUrl.get() + "/clusters/" + DemoCluster.NAME + "/admission/pods");
    try {
      final HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(uri)
                  .timeout(HTTP_TIMEOUT)
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(Serialization.asJson(review)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new ScenarioFailedException(
            "the webhook answered HTTP " + response.statusCode() + ": " + response.body());
      }
      return Optional.of(
          Serialization.unmarshal(response.body(), AdmissionReview.class).getResponse());
    } catch (final IOException e) {
      throw new ScenarioFailedException("cannot reach the webhook at " + uri + ": " + e);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ScenarioFailedException("interrupted while asking the webhook");
    }
  }

  /**
   * Asks the scheduler filter about {@code pod} with {@code nodes}, by name.
   *
   * @throws ScenarioFailedException when the plugin is off or does not answer 200
   */
  Filtered filter(final Pod pod, final List<String> nodes) {
    final JsonNode answer = askFilter(pod, nodes);
    return new Filtered(refusedNodes(answer), firstPassing(answer));
  }

  private JsonNode askFilter(final Pod pod, final List<String> nodes) {
    if (adminUrl.isEmpty()) {
      throw new ScenarioFailedException("the admission plugin is off: no scheduler filter");
    }
    final ObjectNode args = Serialization.jsonMapper().createObjectNode();
    args.set("Pod", Serialization.jsonMapper().valueToTree(pod));
    args.putNull("Nodes");
    final ArrayNode names = args.putArray("NodeNames");
    nodes.forEach(names::add);
    final URI uri =
        URI.create(adminUrl.get() + "/clusters/" + DemoCluster.NAME + "/scheduler/filter");
    try {
      final HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(uri)
                  .timeout(HTTP_TIMEOUT)
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(args.toString()))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new ScenarioFailedException(
            "the scheduler filter answered HTTP " + response.statusCode() + ": " + response.body());
      }
      return Serialization.jsonMapper().readTree(response.body());
    } catch (final IOException e) {
      throw new ScenarioFailedException("cannot reach the scheduler filter at " + uri + ": " + e);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ScenarioFailedException("interrupted while asking the scheduler filter");
    }
  }

  private static Map<String, String> refusedNodes(final JsonNode answer) {
    final Map<String, String> refused = new TreeMap<>();
    for (final String field : List.of("FailedNodes", "FailedAndUnresolvableNodes")) {
      answer
          .path(field)
          .fields()
          .forEachRemaining(e -> refused.put(e.getKey(), e.getValue().asText()));
    }
    return refused;
  }

  private static Optional<String> firstPassing(final JsonNode answer) {
    final List<String> passing = new ArrayList<>();
    answer.path("NodeNames").forEach(node -> passing.add(node.asText()));
    return passing.stream().sorted().findFirst();
  }
}
