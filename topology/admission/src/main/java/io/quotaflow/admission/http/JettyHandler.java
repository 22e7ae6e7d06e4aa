package io.quotaflow.admission.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Jetty side of the plugin: reads at most {@link PluginConfig#MAX_BODY_BYTES} of the body (413
 * beyond), hands the request to the {@link Dispatcher}, writes its answer and records the metrics.
 */
final class JettyHandler extends Handler.Abstract {

  private static final Logger LOG = LoggerFactory.getLogger(JettyHandler.class);

  /** How much of a too-large body is read and dropped before the 413, at most. */
  private static final long DRAIN_LIMIT = 16L * PluginConfig.MAX_BODY_BYTES;

  private final Dispatcher dispatcher;
  private final RequestMetrics metrics;
  private final java.util.Optional<ViewEvents> events;

  JettyHandler(
      Dispatcher dispatcher, RequestMetrics metrics, java.util.Optional<ViewEvents> events) {
    this.dispatcher = dispatcher;
    this.metrics = metrics;
    this.events = events;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    final long start = System.nanoTime();
    if (events.isPresent()) {
      final java.util.Optional<String> stream = ViewEvents.cluster(request.getHttpURI().getPath());
      if (stream.isPresent()) {
        metrics.record("view-events", "ok", 200, System.nanoTime() - start);
        return events.get().handle(stream.get(), request, response, callback);
      }
    }
    Dispatcher.Routed routed;
    try {
      final byte[] body = readBody(request);
      if (body == null) {
        routed =
            new Dispatcher.Routed(
                "any",
                Answer.error(
                    413,
                    "the body is larger than " + PluginConfig.MAX_BODY_BYTES + " bytes",
                    "too-large"));
      } else {
        final String query = request.getHttpURI().getQuery();
        routed =
            dispatcher.dispatch(
                new Call(
                    request.getMethod(),
                    request.getHttpURI().getPath(),
                    query == null ? "" : query,
                    body,
                    request.getHeaders().contains(Call.FORWARDED_HEADER)));
      }
    } catch (IOException e) {
      routed =
          new Dispatcher.Routed(
              "any",
              Answer.error(400, "the body could not be read: " + e.getMessage(), "bad-body"));
    } catch (RuntimeException e) {
      LOG.error("unexpected error outside any endpoint", e);
      routed =
          new Dispatcher.Routed("any", Answer.error(400, "the request could not be read", "error"));
    }
    final Answer answer = routed.answer();
    response.setStatus(answer.status());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, answer.contentType());
    answer.headers().forEach((name, value) -> response.getHeaders().put(name, value));
    response.write(true, ByteBuffer.wrap(answer.body()), callback);
    metrics.record(routed.endpoint(), answer.outcome(), answer.status(), System.nanoTime() - start);
    return true;
  }

  /**
   * The body, or null when it is larger than the limit. A too-large body is still read, and thrown
   * away, up to {@link #DRAIN_LIMIT}: a client that is still sending when the server answers and
   * closes would otherwise see its connection reset instead of the 413.
   */
  private static byte[] readBody(Request request) throws IOException {
    try (InputStream in = Content.Source.asInputStream(request)) {
      final long length = request.getLength();
      if (length > PluginConfig.MAX_BODY_BYTES) {
        drain(in);
        return null;
      }
      if (length >= 0) {
        // The length is known (as the API server sends it): read straight into an array of that
        // size. readNBytes(n) would fill 8 KiB chunks and copy them: most of what a request
        // allocated, and so most of the collector's pauses under load.
        final byte[] bytes = new byte[(int) length];
        final int read = in.readNBytes(bytes, 0, bytes.length);
        return read == bytes.length ? bytes : Arrays.copyOf(bytes, read);
      }
      final byte[] bytes = in.readNBytes(PluginConfig.MAX_BODY_BYTES + 1);
      if (bytes.length > PluginConfig.MAX_BODY_BYTES) {
        drain(in);
        return null;
      }
      return bytes;
    }
  }

  private static void drain(InputStream in) throws IOException {
    final byte[] sink = new byte[16 * 1024];
    long read = 0;
    int n;
    while (read < DRAIN_LIMIT && (n = in.read(sink)) >= 0) {
      read += n;
    }
  }
}
