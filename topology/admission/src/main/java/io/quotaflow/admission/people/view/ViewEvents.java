package io.quotaflow.admission.people.view;

import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.http.PeopleSettings;
import io.quotaflow.admission.state.LastKnownState;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /api/v1/clusters/{cluster}/view/events}: the web view's live stream of one cluster
 * (Server-Sent Events), for a cluster whose state this instance holds. Kept apart from the {@code
 * Dispatcher}, whose answers are written whole: a stream stays open until the page goes or the
 * plugin stops.
 */
public final class ViewEvents {

  private static final String PREFIX = "/api/v1/clusters/";
  private static final String SUFFIX = "/view/events";

  private final ViewStreams streams;
  private final ViewFeed feed;
  private final LastKnownState lastKnown;
  private final int maxStreams;
  private final int perClient;

  public ViewEvents(
      ViewStreams streams, ViewFeed feed, LastKnownState lastKnown, int maxStreams, int perClient) {
    this.streams = streams;
    this.feed = feed;
    this.lastKnown = lastKnown;
    this.maxStreams = maxStreams;
    this.perClient = perClient;
  }

  /** The cluster of a stream's path, if {@code path} is one. */
  public static Optional<String> cluster(String path) {
    if (!path.startsWith(PREFIX) || !path.endsWith(SUFFIX)) {
      return Optional.empty();
    }
    final String cluster = path.substring(PREFIX.length(), path.length() - SUFFIX.length());
    return cluster.isEmpty() || cluster.contains("/") ? Optional.empty() : Optional.of(cluster);
  }

  /** Opens the stream, or answers why not (405, 404, 503); true when handled. */
  public boolean handle(String cluster, Request request, Response response, Callback callback) {
    if (!"GET".equals(request.getMethod())) {
      return answer(
          Answer.error(405, request.getMethod() + " is not allowed here; use GET", "bad-method")
              .withHeader("Allow", "GET"),
          response,
          callback);
    }
    if (lastKnown.snapshot(cluster).isEmpty()) {
      return answer(
          Answer.error(
              404,
              "cluster "
                  + cluster
                  + " is not held by this instance (or its state was not read yet); its live"
                  + " stream is served where it is held",
              "unknown-cluster"),
          response,
          callback);
    }
    final String client = Request.getRemoteAddr(request);
    final Optional<ViewStreams.Refusal> refused =
        streams.open(cluster, client, response, callback, feed.first(cluster));
    if (refused.isPresent() && refused.get() == ViewStreams.Refusal.CLIENT_FULL) {
      return answer(
          Answer.error(
                  429,
                  "one client may hold at most "
                      + perClient
                      + " live streams of the web view ("
                      + PeopleSettings.VIEW_STREAMS_PER_CLIENT.key()
                      + "); close a page or try later",
                  "busy")
              .withHeader("Retry-After", "5"),
          response,
          callback);
    }
    if (refused.isPresent()) {
      return answer(
          Answer.error(
                  503,
                  "the web view serves at most "
                      + maxStreams
                      + " live streams ("
                      + PeopleSettings.VIEW_MAX_STREAMS.key()
                      + "); close a page or try later",
                  "busy")
              .withHeader("Retry-After", "5"),
          response,
          callback);
    }
    return true;
  }

  private static boolean answer(Answer answer, Response response, Callback callback) {
    response.setStatus(answer.status());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, answer.contentType());
    answer.headers().forEach((name, value) -> response.getHeaders().put(name, value));
    SecurityHeaders.ALL.forEach((name, value) -> response.getHeaders().put(name, value));
    response.write(true, ByteBuffer.wrap(answer.body()), callback);
    return true;
  }
}
