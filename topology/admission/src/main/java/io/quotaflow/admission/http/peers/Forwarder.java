package io.quotaflow.admission.http.peers;

import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.http.Call;
import io.quotaflow.admission.http.CallerPolicy;
import io.quotaflow.admission.state.Ownership;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/**
 * Sends a request on to the instance that holds the cluster, and relays its answer. The HTTP client
 * is rebuilt when the trusted certificates change (see {@link #refresh}). The whole request,
 * connecting included, has the policy's timeout, and a peer whose breaker is open is not asked
 * (issue 40.10): a dead owner then costs a review nothing before its fallback answers.
 */
public final class Forwarder implements AutoCloseable {

  /**
   * Header of a forwarded request's answer given by the failure policy: the owner could not read
   * the cluster's state, so the forwarding instance may answer from its last state instead.
   */
  public static final String UNDECIDED_HEADER = "X-Quotaflow-Undecided";

  /** The owner could not be asked or did not answer in time. */
  public static final class ForwardingException extends Exception {
    ForwardingException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final String scheme;
  private final Duration timeout;
  private final PeerBreakers breakers;
  private final Supplier<SSLContext> trust;
  private final AtomicReference<HttpClient> client = new AtomicReference<>();

  /**
   * @param trust the client TLS context; null for plain HTTP
   * @param breakers each peer's breaker, and the timeout of a forwarded request
   */
  public Forwarder(Supplier<SSLContext> trust, PeerBreakers breakers) {
    this.scheme = trust == null ? "http" : "https";
    this.timeout = breakers.policy().timeout();
    this.breakers = breakers;
    this.trust = trust;
    refresh();
  }

  /** Builds a new client, e.g. after the trusted certificates were reloaded. */
  public void refresh() {
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
  public Answer forward(Ownership.Remote owner, Call call) throws ForwardingException {
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
    final CircuitBreaker breaker = breakers.of(owner);
    if (!breaker.tryAcquire()) {
      breakers.skipped(owner);
      throw new ForwardingException(
          "owner "
              + owner.host()
              + ":"
              + owner.port()
              + " is not asked: it failed "
              + breaker.failures()
              + " times in a row (its circuit breaker is open since "
              + breaker.since()
              + ")",
          null);
    }
    final CompletableFuture<HttpResponse<byte[]>> sent =
        client.get().sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    final HttpResponse<byte[]> response;
    try {
      // The client's own timeouts leave out parts (a slow TLS handshake, a body trickling in).
      response = sent.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      sent.cancel(true);
      breakers.failed(owner);
      throw new ForwardingException(
          "owner " + owner.host() + ":" + owner.port() + " did not answer within " + timeout, e);
    } catch (ExecutionException e) {
      breakers.failed(owner);
      if (e.getCause() instanceof HttpTimeoutException) {
        throw new ForwardingException(
            "owner " + owner.host() + ":" + owner.port() + " did not answer within " + timeout, e);
      }
      throw new ForwardingException(
          "owner " + owner.host() + ":" + owner.port() + " did not answer: " + describe(e), e);
    } catch (InterruptedException e) {
      sent.cancel(true);
      Thread.currentThread().interrupt();
      throw new ForwardingException("interrupted while forwarding", e);
    }
    breaker.succeeded();
    final String contentType = response.headers().firstValue("Content-Type").orElse(Answer.JSON);
    // Only the owner's mark of an undecided answer is kept: the forwarding instance may then
    // answer from its own last state (see ClusterAnswers).
    final Map<String, String> headers =
        response
            .headers()
            .firstValue(UNDECIDED_HEADER)
            .map(value -> Map.of(UNDECIDED_HEADER, value))
            .orElse(Map.of());
    return new Answer(response.statusCode(), contentType, response.body(), "forwarded", headers);
  }

  @Override
  public void close() {
    final HttpClient old = client.getAndSet(null);
    if (old != null) {
      closeQuietly(old);
    }
  }

  private static String describe(ExecutionException e) {
    final Throwable cause = e.getCause() == null ? e : e.getCause();
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
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
