package io.quotaflow.admission.http;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.admission.http.auth.ApiAuth;
import io.quotaflow.admission.http.limits.PeopleRateLimit;
import io.quotaflow.admission.http.limits.PeopleWorkers;
import io.quotaflow.admission.http.limits.ServerLimits;
import io.quotaflow.admission.http.limits.SlowClientGuard;
import io.quotaflow.admission.http.peers.ForwardPolicy;
import io.quotaflow.admission.http.peers.Forwarder;
import io.quotaflow.admission.http.peers.PeerBreakers;
import io.quotaflow.admission.http.tls.CertificateReloader;
import io.quotaflow.admission.http.tls.ClientCertificates;
import io.quotaflow.admission.http.tls.ServerTls;
import io.quotaflow.admission.inflight.InFlightHolds;
import io.quotaflow.admission.machine.PodCheck;
import io.quotaflow.admission.machine.denials.DenialLog;
import io.quotaflow.admission.machine.denials.DeniedPods;
import io.quotaflow.admission.machine.pods.PodWebhook;
import io.quotaflow.admission.machine.quotas.QuotaWebhook;
import io.quotaflow.admission.machine.scheduler.PendingPods;
import io.quotaflow.admission.machine.scheduler.SchedulerFilter;
import io.quotaflow.admission.people.LiveGangs;
import io.quotaflow.admission.people.view.EvictionSource;
import io.quotaflow.admission.people.view.RecentActivity;
import io.quotaflow.admission.people.view.ViewApi;
import io.quotaflow.admission.people.view.ViewAssets;
import io.quotaflow.admission.people.view.ViewEvents;
import io.quotaflow.admission.people.view.ViewFeed;
import io.quotaflow.admission.people.view.ViewStreams;
import io.quotaflow.admission.state.ClusterStateReader;
import io.quotaflow.admission.state.LastKnownState;
import io.quotaflow.tree.QuotaOptions;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admission plugin's HTTP(S) server: the pod and quota webhooks, the scheduler extender's
 * filter, the query API, the web view with its live stream and what-if, health, readiness and
 * metrics (docs/admission.md). Built with {@link #builder}, started with {@link #start}, stopped
 * with {@link #close} (idempotent).
 */
public final class AdmissionServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AdmissionServer.class);

  private final PluginConfig config;
  private final ClusterStateReader reader;
  private final QuotaOptions options;
  private final PrometheusMeterRegistry registry;
  private final Clock clock;
  private final boolean noopEndpoint;
  private final InFlightHolds holds;
  private final LastKnownState lastKnown;
  private final StalenessMetrics stalenessMetrics;
  private final DeniedPods deniedPods;
  private final DenialLog denialLog;
  private final PendingPods pendingPods;
  private final RecentActivity activity;
  private final ViewStreams streams;
  private final ViewFeed feed;
  private final EvictionSource evictionSource;
  private final ServerLimits limits;
  private final ApiAuth auth;
  private final CallerPolicy callerPolicy;
  private final PeerBreakers breakers;
  private AutoCloseable evictions;
  private SlowClientGuard slowClients;
  private PeopleWorkers people;
  private ClientCertificates callers;
  private ServerConnector healthConnector;
  private Server server;
  private ServerConnector connector;
  private CertificateReloader certificates;
  private Forwarder forwarder;
  private ScheduledExecutorService sweeper;
  private boolean closed;

  AdmissionServer(AdmissionServerBuilder builder) {
    this.config = builder.config;
    this.reader = builder.reader;
    this.options = builder.options;
    this.registry =
        builder.registry == null
            ? new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)
            : builder.registry;
    this.clock = builder.clock;
    this.noopEndpoint = builder.noopEndpoint;
    this.holds = new InFlightHolds(config.holdTtl(), config.gangHoldTtl());
    this.lastKnown = new LastKnownState(clock, config.staleness().max());
    this.stalenessMetrics = new StalenessMetrics(registry, lastKnown);
    this.breakers =
        new PeerBreakers(
            Objects.requireNonNullElseGet(
                builder.forwarding, () -> ForwardPolicy.withTimeout(config.forwardTimeout())),
            clock,
            registry);
    this.denialLog = builder.denials;
    this.deniedPods = new DeniedPods(registry, denialLog);
    this.pendingPods = new PendingPods(registry, builder.groupGaugesMax, builder.pendingTtl);
    this.activity = new RecentActivity(config.view().recentEvents());
    this.limits = builder.limits;
    this.auth = builder.auth.withNamesakeBinds(builder.options.namespaceBinding().namesakeBinds());
    this.callerPolicy = CallerPolicy.of(config, builder.allowUnauthenticatedWebhooks);
    this.streams = new ViewStreams(config.view().maxStreams(), limits.streamsPerClient());
    this.feed =
        new ViewFeed(
            reader,
            lastKnown,
            streams,
            activity,
            clock,
            builder.revokeDelay,
            // A copy is taken every refresh interval: three missed ones mean the state is stuck.
            config.staleness().refreshInterval().multipliedBy(3));
    this.evictionSource = builder.evictions;
  }

  /** A builder for a server with {@code config} answering from {@code reader}. */
  public static AdmissionServerBuilder builder(PluginConfig config, ClusterStateReader reader) {
    return new AdmissionServerBuilder(config, reader);
  }

  /**
   * Binds the port and starts serving.
   *
   * @throws IllegalStateException when the server cannot start (port taken, unreadable certificate)
   * @throws IllegalArgumentException when it would believe callers it cannot identify (issue 39.7)
   */
  public synchronized AdmissionServer start() {
    if (server != null || closed) {
      throw new IllegalStateException("an admission server starts once");
    }
    callerPolicy.requireSafe();
    try {
      final Supplier<SSLContext> trust;
      if (config.tls().isPresent()) {
        final ServerTls tls = ServerTls.of(config.tls().get(), this::refreshForwarder);
        certificates = tls.certificates();
        trust = tls.peerContext();
        callers = tls.callers();
      } else {
        trust = null;
      }
      forwarder = new Forwarder(trust, breakers);
      final PodCheck podCheck = new PodCheck(config, options, holds, clock, activity);
      final Optional<ViewApi> view =
          config.view().enabled()
              ? Optional.of(
                  new ViewApi(
                      new ViewAssets(), feed, activity, holds, options, clock, limits, registry))
              : Optional.empty();
      final Dispatcher dispatcher =
          new Dispatcher(
              config,
              reader,
              new PodWebhook(podCheck, deniedPods),
              new QuotaWebhook(config, options),
              new SchedulerFilter(podCheck, deniedPods, pendingPods, clock),
              forwarder,
              registry,
              lastKnown,
              stalenessMetrics,
              noopEndpoint,
              view,
              activity,
              clock,
              new LiveGangs(holds, options));
      // Slow clients are closed, and many clients wait to be accepted (idle ones closed sooner),
      // so that neither can take every worker nor every descriptor (docs/security.md).
      slowClients = new SlowClientGuard(limits.requestTimeout(), registry);
      final JettyAssembly.Parts jetty =
          JettyAssembly.assemble(config, limits, Optional.ofNullable(certificates), slowClients);
      server = jetty.server();
      connector = jetty.connector();
      healthConnector = jetty.health().orElse(null);
      // People get their own threads and a rate per client: the webhooks keep the server's.
      people = new PeopleWorkers(limits.people().threads(), limits.people().queue());
      final RequestMetrics requestMetrics = new RequestMetrics(registry);
      server.setHandler(
          PeopleRateLimit.around(
              new JettyHandler(
                  dispatcher,
                  requestMetrics,
                  view.map(
                      v ->
                          new ViewEvents(
                              streams,
                              feed,
                              lastKnown,
                              config.view().maxStreams(),
                              limits.streamsPerClient())),
                  limits.requestTimeout(),
                  healthConnector,
                  callers,
                  callerPolicy,
                  auth,
                  people),
              limits.people().ratePerClient(),
              requestMetrics));
      if (config.view().enabled()) {
        evictions = evictionSource.start(activity);
      }
      server.start();
      sweeper =
          Executors.newSingleThreadScheduledExecutor(
              runnable -> {
                final Thread thread = new Thread(runnable, "quotaflow-admission-sweeper");
                thread.setDaemon(true);
                return thread;
              });
      final long sweepMillis = config.sweepInterval().toMillis();
      sweeper.scheduleWithFixedDelay(
          () -> holds.sweep(reader, clock, breakers::reachable),
          sweepMillis,
          sweepMillis,
          TimeUnit.MILLISECONDS);
      sweeper.scheduleWithFixedDelay(
          this::refreshLastState,
          0,
          config.staleness().refreshInterval().toMillis(),
          TimeUnit.MILLISECONDS);
      LOG.info("admission webhooks and scheduler filter believe {}", callerPolicy.describe());
      LOG.info(
          "admission plugin serving {} on {}:{} (mode {}, failure policy {}, max staleness {})",
          certificates == null ? "plain HTTP" : "HTTPS",
          config.bindAddress(),
          port(),
          config.mode().id(),
          config.failurePolicy().id(),
          config.staleness().max());
      return this;
    } catch (Exception e) {
      close();
      throw new IllegalStateException("the admission plugin could not start: " + e.getMessage(), e);
    }
  }

  /** The port the server listens on (the chosen one when configured with 0). */
  public int port() {
    if (connector == null) {
      throw new IllegalStateException("not started");
    }
    return connector.getLocalPort();
  }

  /** The port serving only health and readiness, when one was configured. */
  public OptionalInt healthPort() {
    return healthConnector == null
        ? OptionalInt.empty()
        : OptionalInt.of(healthConnector.getLocalPort());
  }

  /** {@code https} or {@code http}. */
  public String scheme() {
    return config.tls().isPresent() ? "https" : "http";
  }

  /** The registry whose meters {@code /metrics} exposes. */
  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** The in-flight holds, for tests and diagnostics. */
  public InFlightHolds holds() {
    return holds;
  }

  /** The recent evictions and denials the web view shows. */
  public RecentActivity activity() {
    return activity;
  }

  /** How many live streams of the web view are open. */
  public int openStreams() {
    return streams.open();
  }

  /** The last state of each cluster, answered from while the stores cannot be read. */
  public LastKnownState lastKnownState() {
    return lastKnown;
  }

  /**
   * Reads again the last state of every cluster held here, and forgets the pending pods the state
   * shows placed or deleted (done every {@code admission.state.refresh.interval}; tests call it to
   * avoid waiting). Never throws.
   */
  public void refreshLastState() {
    try {
      lastKnown.refresh(reader);
      stalenessMetrics.track();
    } catch (RuntimeException e) {
      LOG.warn("the last state could not be refreshed", e);
    }
    pendingPods.sweep(reader, clock.instant());
    try {
      feed.publish();
    } catch (RuntimeException e) {
      LOG.warn("the web view's changes could not be sent", e);
    }
  }

  /** How many times the certificate was reloaded; 0 for plain HTTP. */
  public long certificateReloads() {
    return certificates == null ? 0 : certificates.reloads();
  }

  private void refreshForwarder() {
    if (forwarder != null) {
      forwarder.refresh();
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    // Open streams would hold the server's stop: end them first.
    streams.close();
    if (sweeper != null) {
      sweeper.shutdownNow();
    }
    if (evictions != null) {
      try {
        evictions.close();
      } catch (Exception e) {
        LOG.warn("the web view's eviction feed did not stop cleanly", e);
      }
    }
    if (server != null) {
      try {
        server.stop();
      } catch (Exception e) {
        LOG.warn("admission server did not stop cleanly", e);
      }
    }
    if (people != null) {
      people.close();
    }
    if (forwarder != null) {
      forwarder.close();
    }
    if (slowClients != null) {
      slowClients.close();
    }
    if (certificates != null) {
      certificates.close();
    }
    // After the server: no request thread writes any more.
    denialLog.close();
  }
}
