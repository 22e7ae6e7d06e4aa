package io.quotaflow.admission.http.limits;

import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.http.PeopleSettings;
import io.quotaflow.admission.http.RequestMetrics;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.DoSHandler;
import org.eclipse.jetty.util.Callback;

/**
 * A per-client rate limit on people's doors, {@code /api/} (issue 39): Jetty's {@link DoSHandler}
 * with a leaky bucket per client address, a request beyond answered 429 before its body is read or
 * any token is asked about. The webhooks and the scheduler filter are not limited: the API server
 * and the scheduler call them from a few addresses, as often as pods come.
 */
public final class PeopleRateLimit {

  /** Client addresses tracked at most; beyond, new ones are refused until some fall idle. */
  static final int MAX_CLIENTS = 10_000;

  private PeopleRateLimit() {}

  /**
   * {@code next}, its paths under {@code /api/} limited to {@code perSecond} per client address.
   */
  public static Handler around(Handler next, int perSecond, RequestMetrics metrics) {
    final DoSHandler limit =
        new DoSHandler(
            next,
            DoSHandler.ID_FROM_REMOTE_ADDRESS,
            // Bursts of twice the rate pass: a page asks a few things at once.
            new DoSHandler.LeakingBucketTrackerFactory(
                perSecond, 2 * perSecond, Duration.ofSeconds(10)),
            (request, response, callback) -> tooMany(perSecond, metrics, response, callback),
            MAX_CLIENTS);
    limit.includePath("/api/*");
    return limit;
  }

  private static boolean tooMany(
      int perSecond, RequestMetrics metrics, Response response, Callback callback) {
    final long start = System.nanoTime();
    final Answer answer =
        Answer.error(
                429,
                "one client may make at most "
                    + perSecond
                    + " requests a second to /api/ ("
                    + PeopleSettings.API_RATE_PER_CLIENT.key()
                    + "); try again in a moment",
                "rate-limited")
            .withHeader("Retry-After", "1");
    response.setStatus(answer.status());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, answer.contentType());
    answer.headers().forEach((name, value) -> response.getHeaders().put(name, value));
    response.write(true, ByteBuffer.wrap(answer.body()), callback);
    metrics.record("rate-limited", answer.outcome(), answer.status(), System.nanoTime() - start);
    return true;
  }
}
