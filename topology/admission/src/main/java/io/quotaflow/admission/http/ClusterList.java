package io.quotaflow.admission.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.endpoint.StaleAnswers;
import io.quotaflow.admission.http.peers.Forwarder;
import io.quotaflow.admission.people.query.QueryApi;
import io.quotaflow.admission.state.ClusterStateReader;
import io.quotaflow.admission.state.LastKnownState;
import io.quotaflow.admission.state.Ownership;
import io.quotaflow.admission.state.Staleness;
import io.quotaflow.admission.state.StateUnavailableException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * {@code GET /api/v1/clusters}: the clusters held here and, unless {@code scope=local}, by every
 * other instance, each asked in turn; those that do not answer are listed as unreachable.
 */
final class ClusterList {

  private final ClusterStateReader reader;
  private final Forwarder forwarder;
  private final LastKnownState lastKnown;

  ClusterList(ClusterStateReader reader, Forwarder forwarder, LastKnownState lastKnown) {
    this.reader = reader;
    this.forwarder = forwarder;
    this.lastKnown = lastKnown;
  }

  /** The clusters held here and, unless {@code scope=local}, by every other instance. */
  Answer answer(Call call) {
    final TreeSet<String> all = new TreeSet<>();
    final List<String> unreachable = new ArrayList<>();
    Optional<Staleness> oldest = Optional.empty();
    String staleReason = "";
    try {
      all.addAll(reader.localClusters());
    } catch (StateUnavailableException e) {
      // As every other answer during a rebalance: the clusters whose last state is young enough.
      for (final String cluster : lastKnown.clusters()) {
        if (lastKnown.recall(cluster) instanceof LastKnownState.Usable usable) {
          all.add(cluster);
          if (oldest.isEmpty() || usable.staleness().age().compareTo(oldest.get().age()) > 0) {
            oldest = Optional.of(usable.staleness());
          }
        }
      }
      if (oldest.isEmpty()) {
        return QueryApi.unavailable("(all)", e.getMessage());
      }
      staleReason = "the stores are not queryable now: " + e.getMessage();
    }
    if (!call.query().contains("scope=local") && !call.forwarded()) {
      for (final Ownership.Remote peer : reader.peers()) {
        try {
          final Answer answer =
              forwarder.forward(
                  peer, new Call("GET", call.path(), "scope=local", new byte[0], false));
          final JsonNode body = Json.MAPPER.readTree(answer.body());
          if (answer.status() != 200 || !body.path("clusters").isArray()) {
            unreachable.add(peer.host() + ":" + peer.port());
            continue;
          }
          body.path("clusters").forEach(name -> all.add(name.asText()));
        } catch (Forwarder.ForwardingException | IOException e) {
          unreachable.add(peer.host() + ":" + peer.port());
        }
      }
    }
    final ObjectNode body = Json.object();
    final ArrayNode names = body.putArray("clusters");
    all.forEach(names::add);
    final ArrayNode missing = body.putArray("unreachable");
    unreachable.forEach(missing::add);
    final Answer answer = Answer.json(200, body, "ok");
    return oldest.isEmpty()
        ? answer
        : StaleAnswers.withHeaders(
            StaleAnswers.query(answer, oldest.get(), staleReason), oldest.get());
  }
}
