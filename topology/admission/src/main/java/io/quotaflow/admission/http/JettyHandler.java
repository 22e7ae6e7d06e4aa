package io.quotaflow.admission.http;

import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.http.auth.ApiAuth;
import io.quotaflow.admission.http.auth.Sessions;
import io.quotaflow.admission.http.auth.Viewer;
import io.quotaflow.admission.http.limits.BodyLimits;
import io.quotaflow.admission.http.limits.BodyReader;
import io.quotaflow.admission.http.limits.PeopleWorkers;
import io.quotaflow.admission.http.tls.ClientCertificates;
import io.quotaflow.admission.people.view.ViewEvents;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Jetty side of the plugin: reads at most its door's limit of the body ({@link BodyLimits}; 413
 * beyond, counted under the door's endpoint) without holding a thread while it arrives ({@link
 * BodyReader}, 408 when it takes too long), hands the request to the {@link Dispatcher}, writes its
 * answer and records the metrics. On the health connector only health and readiness are served;
 * {@code /metrics} on the main one asks a token when people are authenticated. People's requests
 * ({@code /api/}) are answered on {@link PeopleWorkers}' threads, never on the server's, which the
 * webhooks and the scheduler filter keep.
 */
final class JettyHandler extends Handler.Abstract {

  private static final Logger LOG = LoggerFactory.getLogger(JettyHandler.class);

  /** Header of every answer: its outcome, as the request metrics count it. */
  static final String OUTCOME_HEADER = "X-Quotaflow-Outcome";

  private final Dispatcher dispatcher;
  private final RequestMetrics metrics;
  private final java.util.Optional<ViewEvents> events;
  private final Duration bodyTimeout;
  private final Connector healthConnector;
  private final ClientCertificates callers;
  private final CallerPolicy policy;
  private final ApiAuth auth;
  private final PeopleWorkers people;

  /**
   * @param bodyTimeout how long a request's body may take to arrive
   * @param healthConnector the connector that serves only health and readiness; null when they
   *     share the main one
   * @param callers tells callers apart by their client certificate; null for plain HTTP
   * @param policy whom the webhooks and the scheduler filter believe
   * @param auth who the people calling the query API and the web view are
   * @param people the threads that answer people's requests
   */
  JettyHandler(
      Dispatcher dispatcher,
      RequestMetrics metrics,
      java.util.Optional<ViewEvents> events,
      Duration bodyTimeout,
      Connector healthConnector,
      ClientCertificates callers,
      CallerPolicy policy,
      ApiAuth auth,
      PeopleWorkers people) {
    this.people = people;
    this.callers = callers;
    this.policy = policy;
    this.auth = auth;
    this.dispatcher = dispatcher;
    this.metrics = metrics;
    this.events = events;
    this.bodyTimeout = bodyTimeout;
    this.healthConnector = healthConnector;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    final long start = System.nanoTime();
    final String path = request.getHttpURI().getPath();
    if (healthConnector != null
        && request.getConnectionMetaData().getConnector() == healthConnector
        && !Dispatcher.isHealthPath(path)) {
      respond(
          new Dispatcher.Routed(
              "unknown",
              Answer.error(
                  404,
                  "this port serves only /healthz and /readyz; metrics are on the engine's"
                      + " metrics.port",
                  "no-route")),
          response,
          callback,
          start);
      return true;
    }
    if (events.isPresent()) {
      final java.util.Optional<String> stream = ViewEvents.cluster(path);
      if (stream.isPresent() && auth.enabled()) {
        // The token is reviewed on a people's thread: the API server may take its time.
        if (!people.run(() -> openStream(stream.get(), request, response, callback, start))) {
          respond(
              new Dispatcher.Routed("view-events", PeopleWorkers.busy()),
              response,
              callback,
              start);
        }
        return true;
      }
      if (stream.isPresent()) {
        metrics.record("view-events", "ok", 200, System.nanoTime() - start);
        return events.get().handle(stream.get(), request, response, callback);
      }
    }
    // The body arrives without holding a thread; a request whose body does not arrive in time is
    // answered 408 and its connection closed (a trickling client must not hold the plugin).
    final BodyLimits.Limit limit = BodyLimits.of(path, refused(request));
    BodyReader.read(request, request.getLength(), limit.bytes(), BodyLimits.DRAIN_BYTES)
        .orTimeout(bodyTimeout.toMillis(), TimeUnit.MILLISECONDS)
        .whenComplete(
            (body, failure) -> {
              if (failure != null || body == null || !path.startsWith(PEOPLE_DOORS)) {
                respond(route(request, body, failure, limit), response, callback, start);
              } else if (!people.run(
                  () -> respond(route(request, body, null, limit), response, callback, start))) {
                respond(
                    new Dispatcher.Routed("busy", PeopleWorkers.busy()), response, callback, start);
              }
            });
    return true;
  }

  /** Opens the live stream of {@code cluster} for those who may see every group. */
  private void openStream(
      String cluster, Request request, Response response, Callback callback, long start) {
    try {
      final Optional<Viewer> viewer = auth.viewer(token(request));
      // The stream carries every group's changes: for those who see every group.
      final Optional<Answer> refused =
          viewer.isEmpty()
              ? Optional.of(unauthenticated())
              : viewer.get().seesAll()
                  ? Optional.empty()
                  : Optional.of(
                      Answer.error(
                          403,
                          "the live stream is for users who may list pods in every namespace;"
                              + " the page reads your groups again every few seconds instead",
                          "forbidden"));
      if (refused.isPresent()) {
        respond(new Dispatcher.Routed("view-events", refused.get()), response, callback, start);
        return;
      }
      metrics.record("view-events", "ok", 200, System.nanoTime() - start);
      events.orElseThrow().handle(cluster, request, response, callback);
    } catch (RuntimeException e) {
      LOG.error("unexpected error opening a live stream", e);
      respond(
          new Dispatcher.Routed(
              "view-events", Answer.error(400, "the stream could not be opened", "error")),
          response,
          callback,
          start);
    }
  }

  /** Whether the machine doors refuse this caller (no client certificate where one is needed). */
  private boolean refused(Request request) {
    return policy.trust(
            caller(request), request.getHeaders().contains(CallerPolicy.JUDGED_ONLY_HEADER))
        == CallerPolicy.Trust.REFUSED;
  }

  private Dispatcher.Routed route(
      Request request, byte[] body, Throwable failure, BodyLimits.Limit limit) {
    if (failure instanceof TimeoutException) {
      return new Dispatcher.Routed(
          "any",
          Answer.error(
                  408,
                  "the request's body did not arrive within " + bodyTimeout.toMillis() + " ms",
                  "slow-body")
              .withHeader("Connection", "close"));
    }
    if (failure != null) {
      return new Dispatcher.Routed(
          "any",
          Answer.error(400, "the body could not be read: " + failure.getMessage(), "bad-body"));
    }
    if (body == null) {
      return new Dispatcher.Routed(
          limit.endpoint(),
          Answer.error(
              413,
              "the body is larger than "
                  + limit.bytes()
                  + " bytes, the most this endpoint reads (docs/admission.md, Errors)",
              "too-large"));
    }
    try {
      final String path = request.getHttpURI().getPath();
      final Optional<String> token = token(request);
      final Optional<Answer> crossSite =
          SameOriginPosts.refusal(
              request.getMethod(),
              path,
              request.getHeaders().get(HttpHeader.CONTENT_TYPE),
              request.getHeaders().get(HttpHeader.ORIGIN),
              request.getHttpURI().getAuthority(),
              token.isPresent() && request.getHeaders().get(HttpHeader.AUTHORIZATION) == null);
      if (crossSite.isPresent()) {
        return new Dispatcher.Routed("cross-site", crossSite.get());
      }
      Viewer viewer = Viewer.EVERYONE;
      if (path.equals(Sessions.PATH)) {
        return new Dispatcher.Routed(
            "session", Sessions.answer(request.getMethod(), body, token, auth, secure(request)));
      }
      if (path.equals(METRICS) && auth.enabled()) {
        // Metrics name groups: for token holders RBAC lets get /metrics (issue 39.8).
        final Optional<Viewer> known = auth.viewer(token);
        if (known.isEmpty()) {
          return new Dispatcher.Routed("unauthenticated", unauthenticated());
        }
        if (!known.get().mayGet(METRICS)) {
          return new Dispatcher.Routed(
              "metrics",
              Answer.error(
                  403,
                  "get on the non-resource URL /metrics is not allowed to you (RBAC"
                      + " nonResourceURLs); Prometheus scrapes the engine's metrics.port",
                  "forbidden"));
        }
      }
      if (path.startsWith(PEOPLE) && auth.enabled()) {
        final Optional<Viewer> known = auth.viewer(token);
        if (known.isEmpty()) {
          return new Dispatcher.Routed("unauthenticated", unauthenticated());
        }
        viewer = known.get();
      }
      final String query = request.getHttpURI().getQuery();
      final ClientCertificates.Caller caller = caller(request);
      final CallerPolicy.Trust trust =
          policy.trust(caller, request.getHeaders().contains(CallerPolicy.JUDGED_ONLY_HEADER));
      // Another instance's forwarding mark is believed from that instance only (or from a
      // caller who can hold nothing anyway).
      final boolean forwarded =
          request.getHeaders().contains(Call.FORWARDED_HEADER)
              && policy.believesForwardMark(caller, trust);
      return dispatcher.dispatch(
          new Call(
              request.getMethod(),
              request.getHttpURI().getPath(),
              query == null ? "" : query,
              body,
              forwarded,
              trust,
              viewer,
              token));
    } catch (RuntimeException e) {
      LOG.error("unexpected error outside any endpoint", e);
      return new Dispatcher.Routed(
          "any", Answer.error(400, "the request could not be read", "error"));
    }
  }

  /** The plugin's meters on the main port. */
  private static final String METRICS = "/metrics";

  /** The paths people call: the query API, the web view's data and its what-if. */
  private static final String PEOPLE = "/api/v1/";

  /** The paths answered on people's threads: all of {@code /api/}, the sign-in included. */
  private static final String PEOPLE_DOORS = "/api/";

  private static Optional<String> token(Request request) {
    return ApiAuth.token(
        request.getHeaders().get(HttpHeader.AUTHORIZATION),
        request.getHeaders().get(HttpHeader.COOKIE));
  }

  private static boolean secure(Request request) {
    return request.isSecure();
  }

  private static Answer unauthenticated() {
    return Answer.error(
            401,
            "sign in: send a Kubernetes bearer token (Authorization: Bearer TOKEN), e.g. kubectl"
                + " create token NAME, or sign in on the web view",
            "unauthenticated")
        .withHeader("WWW-Authenticate", "Bearer realm=\"quotaflow\"");
  }

  /** Who called, by the connection's verified client certificate. */
  private ClientCertificates.Caller caller(Request request) {
    if (callers == null) {
      return ClientCertificates.Caller.ANONYMOUS;
    }
    final Object tls = request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE);
    return callers.of(tls instanceof EndPoint.SslSessionData data ? data.peerCertificates() : null);
  }

  private void respond(Dispatcher.Routed routed, Response response, Callback callback, long start) {
    final Answer answer = routed.answer();
    response.setStatus(answer.status());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, answer.contentType());
    answer.headers().forEach((name, value) -> response.getHeaders().put(name, value));
    // What decided the answer (allowed, denied, fail-open, ...): a filter's pass by the failure
    // policy looks like any other pass in the extender protocol; this header and the metrics tell.
    response.getHeaders().put(OUTCOME_HEADER, answer.outcome());
    // Counted before the answer leaves: whoever has read it finds it counted.
    metrics.record(routed.endpoint(), answer.outcome(), answer.status(), System.nanoTime() - start);
    response.write(true, ByteBuffer.wrap(answer.body()), callback);
  }
}
