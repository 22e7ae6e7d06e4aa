package io.quotaflow.local;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.quotaflow.cluster.ElasticQuotaProfiles;
import io.quotaflow.cluster.ElasticQuotas;
import io.quotaflow.cluster.KubeCluster;
import io.quotaflow.cluster.PodGroups;
import io.quotaflow.kube.ElasticQuotaProfileApi;
import io.quotaflow.kube.PodGroupApi;
import io.quotaflow.quota.PodRef;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntConsumer;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo cluster of {@code quotaflow local}: fabric8's mock Kubernetes API server in CRUD mode on
 * loopback, with the one thing CRUD mode lacks, the eviction subresource. An accepted eviction
 * deletes the pod, as the real API server does; the delete runs on another thread, because calling
 * the mock from inside its own reply deadlocks it. Its objects are indexed by name, and {@link
 * #load} fills it without HTTP, so that an organisation of thousands of groups loads in seconds.
 */
final class DemoCluster implements AutoCloseable {

  /** The name records and the query API use for the demo cluster. */
  static final String NAME = "demo";

  private static final Logger LOG = LoggerFactory.getLogger(DemoCluster.class);

  /** The mock logs every request through java.util.logging; held here so the level sticks. */
  private static final java.util.logging.Logger MOCK_LOG =
      java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

  private static final Pattern EVICTION =
      Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/?]+)/eviction(\\?.*)?");

  private static final String TOKEN_REVIEWS = "/apis/authentication.k8s.io/v1/tokenreviews";
  private static final String ACCESS_REVIEWS = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

  private final KubernetesMockServer server;
  private final EvictingDispatcher dispatcher;
  private final KubernetesClient client;
  private final ExecutorService deleter;
  private final List<PodRef> evicted = new CopyOnWriteArrayList<>();
  private final Runnable onEviction;
  private final DemoPeople people = new DemoPeople();
  private boolean closed;
  private volatile Runnable afterRead = () -> {};

  private DemoCluster(final Runnable onEviction) {
    this.onEviction = onEviction;
    MOCK_LOG.setLevel(Level.WARNING);
    // Canned responses (server.expect()) are not used: every request goes to the dispatcher.
    final Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    this.deleter =
        Executors.newSingleThreadExecutor(
            runnable -> {
              final Thread thread = new Thread(runnable, "quotaflow-demo-evictions");
              thread.setDaemon(true);
              return thread;
            });
    this.dispatcher = new EvictingDispatcher();
    servePodGroups(dispatcher);
    serveDra(dispatcher);
    this.server =
        new KubernetesMockServer(new Context(), new MockWebServer(), responses, dispatcher, false);
    server.init(InetAddress.getLoopbackAddress(), 0);
    this.client = server.createClient();
  }

  /** The people who may sign in to local's web view with {@code --auth}. */
  DemoPeople people() {
    return people;
  }

  /** Starts an empty demo cluster on a free loopback port. */
  static DemoCluster start() {
    return start(() -> {});
  }

  /** Starts an empty demo cluster that calls {@code onEviction} at each eviction it accepts. */
  static DemoCluster start(final Runnable onEviction) {
    final DemoCluster cluster = new DemoCluster(onEviction);
    LOG.info("Demo cluster '{}' (mock API server) at {}", NAME, cluster.url());
    return cluster;
  }

  /** Creates {@code objects} (pods, nodes, ElasticQuotas) in the cluster, in order. */
  void create(final List<HasMetadata> objects) {
    objects.forEach(this::create);
  }

  /**
   * Creates {@code objects} in order, as {@link #create(List)} does (same metadata, resource
   * versions and watch events) but in this process, without an HTTP request each.
   *
   * @param loaded told how many objects are in after each one
   * @throws IllegalArgumentException when the API server refuses one, e.g. a name taken twice
   */
  void load(final List<HasMetadata> objects, final IntConsumer loaded) {
    int count = 0;
    for (final HasMetadata object : objects) {
      final MockResponse response =
          dispatcher.create(collectionPath(object), Serialization.asJson(object));
      if (response.code() / 100 != 2) {
        throw new IllegalArgumentException(
            "The demo cluster refused %s %s: %s"
                .formatted(object.getKind(), qualifiedName(object), refusal(response)));
      }
      loaded.accept(++count);
    }
  }

  /** The API path of the collection {@code object} is created in, as the client would post it. */
  private String collectionPath(final HasMetadata object) {
    final ResourceDefinitionContext context =
        object instanceof GenericKubernetesResource generic
            ? context(generic)
            : ResourceDefinitionContext.fromResourceType(object.getClass());
    final String group = context.getGroup();
    final StringBuilder path =
        new StringBuilder(
            group == null || group.isEmpty()
                ? "/api/" + context.getVersion()
                : "/apis/" + group + "/" + context.getVersion());
    if (context.isNamespaceScoped()) {
      final String namespace = object.getMetadata().getNamespace();
      path.append("/namespaces/")
          .append(namespace == null || namespace.isEmpty() ? client.getNamespace() : namespace);
    }
    return path.append('/').append(context.getPlural()).toString();
  }

  private static String qualifiedName(final HasMetadata object) {
    final String namespace = object.getMetadata().getNamespace();
    return (namespace == null || namespace.isEmpty() ? "" : namespace + "/")
        + object.getMetadata().getName();
  }

  private static String refusal(final MockResponse response) {
    final String body = response.getBody() == null ? "" : response.getBody().readUtf8();
    try {
      final String message = Serialization.unmarshal(body, Status.class).getMessage();
      return message == null ? "HTTP " + response.code() : message;
    } catch (final RuntimeException notStatus) {
      return "HTTP " + response.code();
    }
  }

  /** Creates one object: a pod, node, ElasticQuota or ElasticQuotaProfile. */
  void create(final HasMetadata object) {
    if (object instanceof GenericKubernetesResource quota) {
      client.genericKubernetesResources(context(quota)).resource(quota).create();
    } else {
      client.resource(object).create();
    }
  }

  /**
   * Creates {@code object}, or replaces it when it exists: an ElasticQuota given a new spec. The
   * connectors' status writer patches the same ElasticQuotas, so a replace that meets its write is
   * done again on a fresh read ({@link ConflictRetry}).
   */
  void apply(final HasMetadata object) {
    ConflictRetry.write(qualifiedName(object), () -> createOrReplace(object));
  }

  private HasMetadata createOrReplace(final HasMetadata object) {
    final Resource<? extends HasMetadata> existing = resource(object);
    final HasMetadata current = existing.get();
    if (current == null) {
      return resource(object).create();
    }
    afterRead.run();
    final HasMetadata replacement = client.getKubernetesSerialization().clone(object);
    replacement.getMetadata().setResourceVersion(current.getMetadata().getResourceVersion());
    return resource(replacement).update();
  }

  private Resource<? extends HasMetadata> resource(final HasMetadata object) {
    return object instanceof GenericKubernetesResource generic
        ? client.genericKubernetesResources(context(generic)).resource(generic)
        : client.resource(object);
  }

  /**
   * Runs {@code hook} between the read and the write of each replace {@link #apply} makes: a test
   * writes the object there to make the conflict a concurrent writer would.
   */
  void betweenReadAndReplace(final Runnable hook) {
    this.afterRead = hook;
  }

  /**
   * The demo cluster has both PodGroup CRDs installed: its API discovery lists {@code podgroups}
   * under both group versions, so the connectors' {@code source.podgroups=auto} watches them and
   * local's gangs take their PodGroups' minMember as on a real cluster (issue 28).
   */
  private static void servePodGroups(final KubernetesCrudDispatcher crud) {
    for (final ResourceDefinitionContext api : PodGroups.ALL) {
      crud.expectCustomResource(
          new CustomResourceDefinitionContext.Builder()
              .withGroup(api.getGroup())
              .withVersion(api.getVersion())
              .withKind(api.getKind())
              .withPlural(api.getPlural())
              .withScope("Namespaced")
              .build());
    }
  }

  /**
   * The demo cluster is a Kubernetes 1.34 one with DRA: its API discovery lists DeviceClasses,
   * ResourceClaims, ResourceClaimTemplates and ResourceSlices in resource.k8s.io/v1, so the
   * connectors' {@code source.dra=auto} watches them and pods are charged the devices they claim
   * (issue 29).
   */
  private static void serveDra(final KubernetesCrudDispatcher crud) {
    for (final Class<? extends HasMetadata> type :
        List.of(
            DeviceClass.class,
            ResourceClaim.class,
            ResourceClaimTemplate.class,
            ResourceSlice.class)) {
      final ResourceDefinitionContext kind = ResourceDefinitionContext.fromResourceType(type);
      crud.expectCustomResource(
          new CustomResourceDefinitionContext.Builder()
              .withGroup(kind.getGroup())
              .withVersion(kind.getVersion())
              .withKind(kind.getKind())
              .withPlural(kind.getPlural())
              .withScope(kind.isNamespaceScoped() ? "Namespaced" : "Cluster")
              .build());
    }
  }

  /**
   * The custom resource a generic object is: a PodGroup (of either API), an ElasticQuotaProfile or
   * an ElasticQuota.
   */
  private static ResourceDefinitionContext context(final GenericKubernetesResource resource) {
    if (PodGroupApi.isPodGroup(resource.getApiVersion(), resource.getKind())) {
      return PodGroupApi.VOLCANO_API_VERSION.equals(resource.getApiVersion())
          ? PodGroups.VOLCANO
          : PodGroups.SCHEDULER_PLUGINS;
    }
    return ElasticQuotaProfileApi.isProfile(resource.getApiVersion(), resource.getKind())
        ? ElasticQuotaProfiles.CONTEXT
        : ElasticQuotas.CONTEXT;
  }

  /** The cluster as the connectors take it. */
  KubeCluster cluster() {
    return new KubeCluster(NAME, client);
  }

  /** A client of the demo cluster. */
  KubernetesClient client() {
    return client;
  }

  /** Where the mock API server listens. */
  String url() {
    return client.getMasterUrl().toString();
  }

  /** The pods evicted through the eviction subresource so far, in order. */
  List<PodRef> evicted() {
    return List.copyOf(evicted);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    deleter.shutdownNow();
    client.close();
    try {
      server.destroy();
    } catch (final IllegalStateException e) {
      // The mock server waits a bounded time for its connections to end; on a loaded machine a
      // watch of an already closed client can outlast it. Its port goes with the process.
      LOG.warn("The demo API server did not close in time: {}", e.getMessage());
    }
  }

  /** CRUD mode plus {@code POST .../pods/{name}/eviction}, answered 201 and the pod deleted. */
  private final class EvictingDispatcher extends IndexedCrudDispatcher {

    @Override
    public MockResponse dispatch(final RecordedRequest request) {
      if ("POST".equals(request.getMethod()) && request.getPath().startsWith(TOKEN_REVIEWS)) {
        return new MockResponse()
            .setResponseCode(201)
            .setBody(people.tokenReview(request.getBody().readUtf8()));
      }
      if ("POST".equals(request.getMethod()) && request.getPath().startsWith(ACCESS_REVIEWS)) {
        return new MockResponse()
            .setResponseCode(201)
            .setBody(people.accessReview(request.getBody().readUtf8()));
      }
      final Matcher eviction = EVICTION.matcher(request.getPath());
      if ("POST".equals(request.getMethod()) && eviction.matches()) {
        final PodRef pod = new PodRef(eviction.group(1), eviction.group(2));
        evicted.add(pod);
        onEviction.run();
        LOG.debug("Demo cluster: evicting {}", pod);
        CompletableFuture.runAsync(
            () -> client.pods().inNamespace(pod.namespace()).withName(pod.name()).delete(),
            deleter);
        return new MockResponse()
            .setResponseCode(201)
            .setBody(
                Serialization.asJson(
                    new StatusBuilder().withCode(201).withStatus("Success").build()));
      }
      return super.dispatch(request);
    }
  }
}
