package io.quotaflow.connect;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.engine.liveness.Heartbeats;
import io.quotaflow.source.KubeSource;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plain-HTTP endpoint of {@code quotaflow connect}: {@code GET /metrics} answers the registry's
 * meters in the Prometheus text format, {@code GET /healthz} answers {@code ok} (the process is
 * alive) or 503 naming a loop silent too long ({@link #heartbeats}), {@code GET /readyz} answers
 * 503 while a watch of the source has been down for 30 s or while {@link #readiness} gives a reason
 * (the connectors wait for Kafka at start-up). Any other path is 404 and any other method 405 (the
 * JDK answers malformed requests with 400 before they get here). Served by the JDK's HTTP server on
 * two daemon threads, so a slow scraper cannot hold up the connectors.
 */
public final class MetricsEndpoint implements AutoCloseable {

  /** The content type of the Prometheus text exposition format. */
  public static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
  private static final String PLAIN_TEXT = "text/plain; charset=utf-8";
  private static final int THREADS = 2;

  private final HttpServer server;
  private final ExecutorService executor;
  private final PrometheusMeterRegistry registry;
  private volatile Supplier<Optional<String>> readiness = Optional::empty;
  private volatile Heartbeats loops = new Heartbeats(Clock.systemUTC());
  private boolean closed;

  private MetricsEndpoint(
      final HttpServer server,
      final ExecutorService executor,
      final PrometheusMeterRegistry registry) {
    this.server = server;
    this.executor = executor;
    this.registry = registry;
  }

  /**
   * Binds {@code port} on every interface and starts serving.
   *
   * @param port a TCP port, or 0 for any free one
   * @throws UncheckedIOException when the port cannot be bound
   */
  public static MetricsEndpoint start(final int port, final PrometheusMeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    final HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serve metrics on port " + port, e);
    }
    final ExecutorService executor = Executors.newFixedThreadPool(THREADS, daemonThreads());
    final MetricsEndpoint endpoint = new MetricsEndpoint(server, executor, registry);
    server.createContext("/", endpoint::handle);
    server.setExecutor(executor);
    server.start();
    LOG.info(
        "serving metrics over plain HTTP on port {} of every interface: GET /metrics, /healthz, /readyz",
        server.getAddress().getPort());
    return endpoint;
  }

  /**
   * Also answers {@code /readyz} with 503 while {@code check} gives a reason (e.g. the connectors
   * wait for Kafka at start-up); {@code /healthz} stays 200 meanwhile.
   */
  public void readiness(final Supplier<Optional<String>> check) {
    this.readiness = Objects.requireNonNull(check, "check");
  }

  /**
   * Answers {@code /healthz} with 503, naming the loop, while one of {@code heartbeats} has been
   * silent longer than it may be (a wedged loop: the liveness probe restarts the process).
   */
  public void heartbeats(final Heartbeats heartbeats) {
    this.loops = Objects.requireNonNull(heartbeats, "heartbeats");
  }

  /** The bound address; its port is the chosen one when 0 was asked for. */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  /** Stops accepting requests, frees the port and stops the threads. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    server.stop(0);
    executor.shutdownNow();
    LOG.info("metrics endpoint stopped");
  }

  /** How long a watch may be down before the connectors say they are not ready. */
  static final int DOWN_SECONDS = 30;

  /**
   * The watches down for {@link #DOWN_SECONDS} or more, as {@code cluster/kind (N s)}: read from
   * the source's gauges, so that readiness and the metric say the same.
   */
  private List<String> watchesDown() {
    final List<String> down = new ArrayList<>();
    for (final Gauge gauge : registry.find(KubeSource.WATCH_DOWN).gauges()) {
      final double seconds = gauge.value();
      if (seconds >= DOWN_SECONDS) {
        down.add(
            gauge.getId().getTag("cluster")
                + "/"
                + gauge.getId().getTag("kind")
                + " ("
                + Math.round(seconds)
                + " s)");
      }
    }
    Collections.sort(down);
    return down;
  }

  private void handle(final HttpExchange exchange) {
    try (exchange) {
      final String path = exchange.getRequestURI().getPath();
      final boolean get = exchange.getRequestMethod().equals("GET");
      switch (path) {
        case "/metrics" -> {
          if (get) {
            scrape(exchange);
          } else {
            notAllowed(exchange);
          }
        }
        case "/healthz" -> {
          final List<String> silent = loops.silent();
          if (get && !silent.isEmpty()) {
            respond(exchange, 503, PLAIN_TEXT, "wedged: " + String.join("; ", silent) + "\n");
          } else if (get) {
            respond(exchange, 200, PLAIN_TEXT, "ok\n");
          } else {
            notAllowed(exchange);
          }
        }
        case "/readyz" -> {
          if (get) {
            final Optional<String> problem = readiness.get();
            final List<String> down = watchesDown();
            if (problem.isPresent()) {
              respond(exchange, 503, PLAIN_TEXT, "not ready: " + problem.get() + "\n");
            } else if (down.isEmpty()) {
              respond(exchange, 200, PLAIN_TEXT, "ok\n");
            } else {
              respond(
                  exchange,
                  503,
                  PLAIN_TEXT,
                  "not watching for "
                      + DOWN_SECONDS
                      + " s or more: "
                      + String.join("; ", down)
                      + "\n");
            }
          } else {
            notAllowed(exchange);
          }
        }
        default ->
            respond(exchange, 404, PLAIN_TEXT, "not found; try /metrics, /healthz or /readyz\n");
      }
    } catch (IOException e) {
      // The client went away; closing the exchange is all that is left to do.
      LOG.debug("metrics request failed", e);
    }
  }

  private void scrape(final HttpExchange exchange) throws IOException {
    final String text;
    try {
      text = registry.scrape();
    } catch (RuntimeException e) {
      LOG.warn("scraping the meters failed", e);
      respond(exchange, 500, PLAIN_TEXT, "scraping the meters failed\n");
      return;
    }
    respond(exchange, 200, PROMETHEUS_TEXT, text);
  }

  private static void notAllowed(final HttpExchange exchange) throws IOException {
    exchange.getResponseHeaders().set("Allow", "GET");
    respond(exchange, 405, PLAIN_TEXT, "method not allowed; use GET\n");
  }

  private static void respond(
      final HttpExchange exchange, final int status, final String type, final String body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    if (exchange.getRequestMethod().equals("HEAD")) {
      // A HEAD answer has headers only; its body must stay empty.
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static ThreadFactory daemonThreads() {
    final AtomicInteger count = new AtomicInteger();
    return runnable -> {
      final Thread thread = new Thread(runnable, "quotaflow-metrics-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
