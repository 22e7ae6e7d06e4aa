package io.quotaflow.admission.http;

import io.quotaflow.admission.http.state.Ownership;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/**
 * Sends a request on to the instance that holds the cluster, and relays its answer. The HTTP client
 * is rebuilt when the trusted certificates change (see {@link #refresh}).
 */
final class Forwarder implements AutoCloseable {

  /** The owner could not be asked or did not answer in time. */
  static final class ForwardingException extends Exception {
    ForwardingException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final String scheme;
  private final Duration timeout;
  private final Supplier<SSLContext> trust;
  private final AtomicReference<HttpClient> client = new AtomicReference<>();

  /**
   * @param trust the client TLS context; null for plain HTTP
   */
  Forwarder(Supplier<SSLContext> trust, Duration timeout) {
    this.scheme = trust == null ? "http" : "https";
    this.timeout = timeout;
    this.trust = trust;
    refresh();
  }

  /** Builds a new client, e.g. after the trusted certificates were reloaded. */
  void refresh() {
    final HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NEVER);
    if (trust != null) {
      builder.sslContext(trust.get());
    }
    final HttpClient old = client.getAndSet(builder.build());
    if (old != null) {
      closeQuietly(old);
    }
  }

  /** The owner's answer to {@code call}. */
  Answer forward(Ownership.Remote owner, Call call) throws ForwardingException {
    final URI uri = URI.create(scheme + "://" + owner.host() + ":" + owner.port() + call.target());
    final HttpRequest.BodyPublisher body =
        call.body().length == 0
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(call.body());
    final HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(timeout)
            .header(Call.FORWARDED_HEADER, "true")
            .header("Content-Type", Answer.JSON)
            .method(call.method(), body);
    // The owner judges the caller again (its answers are cached there too).
    call.token().ifPresent(token -> request.header("Authorization", "Bearer " + token));
    if (call.trust() == CallerPolicy.Trust.JUDGED_ONLY) {
      // The owner believes this instance: it must not hold what the caller could not.
      request.header(CallerPolicy.JUDGED_ONLY_HEADER, "true");
    }
    try {
      final HttpResponse<byte[]> response =
          client.get().send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      final String contentType = response.headers().firstValue("Content-Type").orElse(Answer.JSON);
      // Only the owner's mark of an undecided answer is kept: the forwarding instance may then
      // answer from its own last state (see Dispatcher).
      final Map<String, String> headers =
          response
              .headers()
              .firstValue(Dispatcher.UNDECIDED_HEADER)
              .map(value -> Map.of(Dispatcher.UNDECIDED_HEADER, value))
              .orElse(Map.of());
      return new Answer(response.statusCode(), contentType, response.body(), "forwarded", headers);
    } catch (IOException e) {
      throw new ForwardingException(
          "owner " + owner.host() + ":" + owner.port() + " did not answer: " + describe(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ForwardingException("interrupted while forwarding", e);
    }
  }

  @Override
  public void close() {
    final HttpClient old = client.getAndSet(null);
    if (old != null) {
      closeQuietly(old);
    }
  }

  private static String describe(IOException e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  private static void closeQuietly(HttpClient client) {
    // HttpClient is AutoCloseable from Java 21 on; on 17 its threads end when it is unreachable.
    if (client instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        // Nothing to do: the client is discarded either way.
      }
    }
  }
}
