package io.quotaflow.bench.admission;

import io.quotaflow.admission.http.AdmissionServer;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.http.PluginSettings;
import io.quotaflow.admission.http.tls.PemFiles;
import io.quotaflow.admission.state.SnapshotClusterState;
import io.quotaflow.quota.PodPhase;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.QuotaNode;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.tree.ClusterInputs;
import io.quotaflow.tree.QuotaOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Load on the admission plugin over TLS on loopback, callers presenting a client certificate (issue
 * 25): the pod webhook and, in the same run and the same server, a no-op endpoint, first at a fixed
 * rate (latency measured from each request's scheduled time, so a stall counts against every
 * request it delays), then as fast as N connections go (throughput). Client and server share the
 * machine's cores.
 *
 * <p>Usage: {@code AdmissionLoad [--rate 1000] [--seconds 20] [--warmup 20] [--connections 16]
 * [--max-seconds 10]}. Every loop is bounded by its phase's duration; only 127.0.0.1 is contacted.
 * The warm-up (each endpoint at the rate, one after the other) is long enough for the JIT to have
 * compiled the webhook's path: after 5 s (5,000 requests) its p99 was still 3.4-3.9 ms, after 20 s
 * 1.2 ms, while the no-op's hardly moved.
 */
public final class AdmissionLoad {

  private static final String CLUSTER = "bench";
  private static final int GROUPS = 20;
  private static final int DISTINCT_PODS = 5_000;

  private AdmissionLoad() {}

  public static void main(String[] args) throws Exception {
    final Map<String, Integer> options = options(args);
    final int rate = options.get("rate");
    final int seconds = options.get("seconds");
    final int warmup = options.get("warmup");
    final int connections = options.get("connections");
    final int maxSeconds = options.get("max-seconds");

    final Path dir = Files.createTempDirectory("quotaflow-admission-bench");
    LoopbackCertificate.write(dir);
    final boolean clientCertificates = options.get("client-certificates") == 1;
    final Map<String, String> settings = new java.util.HashMap<>();
    settings.put(PluginSettings.BIND_ADDRESS.key(), "127.0.0.1");
    settings.put(PluginSettings.PORT.key(), "0");
    settings.put(PluginSettings.TLS_CERT_FILE.key(), dir.resolve("tls.crt").toString());
    settings.put(PluginSettings.TLS_KEY_FILE.key(), dir.resolve("tls.key").toString());
    if (clientCertificates) {
      // Callers authenticated by client certificate, as with the client-certificates component:
      // here the loopback certificate is its own CA and the client's.
      settings.put(PluginSettings.TLS_CLIENT_CA_FILE.key(), dir.resolve("tls.crt").toString());
    }
    final PluginConfig config = PluginSettings.config(settings);
    final SnapshotClusterState state =
        new SnapshotClusterState().put(CLUSTER, cluster(), QuotaOptions.DEFAULTS);
    try (AdmissionServer server =
        AdmissionServer.builder(config, state).noopEndpoint(true).build().start()) {
      final HttpClient client =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .sslContext(
                  clientCertificates
                      ? PemFiles.clientContext(
                          dir.resolve("tls.crt"), dir.resolve("tls.key"), dir.resolve("tls.crt"))
                      : PemFiles.trusting(dir.resolve("tls.crt")))
              .connectTimeout(Duration.ofSeconds(5))
              .build();
      final String base = "https://localhost:" + server.port();
      final URI pods = URI.create(base + "/clusters/" + CLUSTER + "/admission/pods");
      final URI noop = URI.create(base + "/noop");
      final List<byte[]> bodies = bodies();

      System.out.printf(
          "admission plugin load: TLS%s on loopback, %d connections, %d req/s for %d s (after %d s"
              + " warm-up), then open throttle for %d s (after as long unreported); %d CPUs%n",
          clientCertificates ? " with client certificates" : " (no client certificates)",
          connections,
          rate,
          seconds,
          warmup,
          maxSeconds,
          Runtime.getRuntime().availableProcessors());
      fixedRate(client, pods, bodies, rate, warmup, connections);
      fixedRate(client, noop, bodies, rate, warmup, connections);
      final LatencyRecorder.Summary podsAtRate =
          fixedRate(client, pods, bodies, rate, seconds, connections);
      final LatencyRecorder.Summary noopAtRate =
          fixedRate(client, noop, bodies, rate, seconds, connections);
      // Each endpoint flat out once unreported first: the first flat-out phase used to pay the JIT
      // for the paths 16 busy connections take (Jetty, TLS, the client), which the second reused.
      flatOut(client, pods, bodies, maxSeconds, connections);
      flatOut(client, noop, bodies, maxSeconds, connections);
      final LatencyRecorder.Summary podsMax =
          flatOut(client, pods, bodies, maxSeconds, connections);
      final LatencyRecorder.Summary noopMax =
          flatOut(client, noop, bodies, maxSeconds, connections);

      System.out.println();
      System.out.println(podsAtRate.line("pod webhook @ rate"));
      System.out.println(noopAtRate.line("no-op @ rate"));
      System.out.println(podsMax.line("pod webhook, max"));
      System.out.println(noopMax.line("no-op, max"));
      final double ratio = podsMax.perSecond() / noopMax.perSecond();
      System.out.println();
      System.out.printf(
          "target p99 <= 2 ms at %d req/s: p99 %.3f ms, %s%n",
          rate,
          podsAtRate.p99() / 1e6,
          podsAtRate.p99() <= 2_000_000 && podsAtRate.errors() == 0 ? "MET" : "MISSED");
      System.out.printf(
          "target throughput >= 70%% of no-op: %.0f / %.0f req/s = %.0f%%, %s%n",
          podsMax.perSecond(), noopMax.perSecond(), ratio * 100, ratio >= 0.7 ? "MET" : "MISSED");
      System.out.printf("in-flight holds at the end: %d%n", server.holds().of(CLUSTER).held());
    }
  }

  /** {@code rate} requests per second for {@code seconds}, latency from the scheduled time. */
  private static LatencyRecorder.Summary fixedRate(
      HttpClient client, URI uri, List<byte[]> bodies, int rate, int seconds, int connections)
      throws InterruptedException {
    final LatencyRecorder recorder = new LatencyRecorder();
    final long total = (long) rate * seconds;
    final long interval = 1_000_000_000L / rate;
    final long start = System.nanoTime() + 50_000_000L;
    final AtomicLong next = new AtomicLong();
    final ExecutorService workers = Executors.newFixedThreadPool(connections);
    for (int w = 0; w < connections; w++) {
      workers.execute(
          () -> {
            for (long i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
              final long scheduled = start + i * interval;
              long wait;
              while ((wait = scheduled - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
              }
              send(client, uri, bodies.get((int) (i % bodies.size())), recorder, scheduled);
            }
          });
    }
    workers.shutdown();
    workers.awaitTermination(seconds + 120L, TimeUnit.SECONDS);
    workers.shutdownNow();
    return recorder.summary(seconds);
  }

  /** As many requests as {@code connections} connections carry in {@code seconds}. */
  private static LatencyRecorder.Summary flatOut(
      HttpClient client, URI uri, List<byte[]> bodies, int seconds, int connections)
      throws InterruptedException {
    final LatencyRecorder recorder = new LatencyRecorder();
    final long start = System.nanoTime();
    final long end = start + seconds * 1_000_000_000L;
    final AtomicLong next = new AtomicLong();
    final ExecutorService workers = Executors.newFixedThreadPool(connections);
    for (int w = 0; w < connections; w++) {
      workers.execute(
          () -> {
            while (System.nanoTime() < end) {
              final long i = next.getAndIncrement();
              send(client, uri, bodies.get((int) (i % bodies.size())), recorder, System.nanoTime());
            }
          });
    }
    workers.shutdown();
    workers.awaitTermination(seconds + 120L, TimeUnit.SECONDS);
    workers.shutdownNow();
    return recorder.summary((System.nanoTime() - start) / 1e9);
  }

  private static void send(
      HttpClient client, URI uri, byte[] body, LatencyRecorder recorder, long from) {
    try {
      final HttpResponse<byte[]> response =
          client.send(
              HttpRequest.newBuilder(uri)
                  .timeout(Duration.ofSeconds(10))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                  .build(),
              HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 200) {
        recorder.error();
        return;
      }
      recorder.record(System.nanoTime() - from);
    } catch (Exception e) {
      recorder.error();
    }
  }

  /** 1,000 cores; {@value #GROUPS} teams under two departments, each with running pods. */
  private static ClusterInputs cluster() {
    final List<QuotaGroup> groups = new ArrayList<>();
    final List<QuotaPod> pods = new ArrayList<>();
    for (int d = 0; d < 2; d++) {
      groups.add(
          QuotaGroup.builder("dept-" + d)
              .parentGroup(true)
              .min(ResourceList.of("cpu", 500_000L, "memory", 2_000L << 30))
              .max(ResourceList.of("cpu", 1_000_000L, "memory", 4_000L << 30))
              .build());
    }
    for (int t = 0; t < GROUPS; t++) {
      groups.add(
          QuotaGroup.builder("team-" + t)
              .parent("dept-" + (t % 2))
              .min(ResourceList.of("cpu", 50_000L, "memory", 200L << 30))
              .max(ResourceList.of("cpu", 100_000L, "memory", 400L << 30))
              .allowLent(false)
              .namespaces(List.of("ns-" + t))
              // Its ElasticQuota lives elsewhere: a pod's label is admitted by the binding
              // through the namespaces annotation, so each review runs the binding check.
              .namespace("quotas")
              .build());
      for (int p = 0; p < 10; p++) {
        pods.add(
            QuotaPod.builder("ns-" + t, "running-" + p)
                .request(ResourceList.of("cpu", 1_000L, "memory", 2L << 30))
                .phase(PodPhase.RUNNING)
                .nodeName("node-0")
                .build());
      }
    }
    final List<QuotaNode> nodes = new ArrayList<>();
    for (int n = 0; n < 10; n++) {
      nodes.add(
          QuotaNode.healthy("node-" + n, ResourceList.of("cpu", 100_000L, "memory", 400L << 30)));
    }
    return new ClusterInputs(groups, pods, nodes);
  }

  /** AdmissionReviews creating pods of about 2 KiB, as a ReplicaSet's pods look. */
  private static List<byte[]> bodies() {
    final List<byte[]> bodies = new ArrayList<>();
    for (int i = 0; i < DISTINCT_PODS; i++) {
      final String namespace = "ns-" + (i % GROUPS);
      final String group = "team-" + (i % GROUPS);
      final String name = "load-" + i;
      bodies.add(
          ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
                  + "\"uid\":\"bench-"
                  + i
                  + "\",\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
                  + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},"
                  + "\"name\":\""
                  + name
                  + "\",\"namespace\":\""
                  + namespace
                  + "\",\"operation\":\"CREATE\",\"userInfo\":{\"username\":"
                  + "\"system:serviceaccount:kube-system:replicaset-controller\","
                  + "\"groups\":[\"system:serviceaccounts\",\"system:authenticated\"]},"
                  + "\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
                  + name
                  + "\",\"generateName\":\"load-\",\"namespace\":\""
                  + namespace
                  + "\",\"labels\":{\"app\":\"load\",\"pod-template-hash\":\"6d4cf56db6\","
                  + "\"quota.scheduling.koordinator.sh/name\":\""
                  + group
                  + "\"},"
                  + "\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\","
                  + "\"name\":\"load-6d4cf56db6\",\"uid\":\"a3e1f0c2-5b6d-4e7f-8a9b-0c1d2e3f4a5b\","
                  + "\"controller\":true,\"blockOwnerDeletion\":true}]},\"spec\":{\"containers\":"
                  + "[{\"name\":\"app\",\"image\":\"registry.example/app:1.0\",\"resources\":"
                  + "{\"requests\":{\"cpu\":\"10m\",\"memory\":\"16Mi\"},\"limits\":"
                  + "{\"memory\":\"32Mi\"}},\"terminationMessagePath\":\"/dev/termination-log\","
                  + "\"imagePullPolicy\":\"IfNotPresent\"},{\"name\":\"sidecar\",\"image\":"
                  + "\"registry.example/proxy:2.1\",\"resources\":{\"requests\":{\"cpu\":\"5m\","
                  + "\"memory\":\"8Mi\"}}}],\"restartPolicy\":\"Always\",\"dnsPolicy\":"
                  + "\"ClusterFirst\",\"serviceAccountName\":\"default\",\"schedulerName\":"
                  + "\"default-scheduler\",\"priority\":0,\"tolerations\":[{\"key\":"
                  + "\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"effect\":"
                  + "\"NoExecute\",\"tolerationSeconds\":300}]},\"status\":{\"phase\":"
                  + "\"Pending\",\"qosClass\":\"Burstable\"}},\"oldObject\":null,\"dryRun\":false,"
                  + "\"options\":{\"kind\":\"CreateOptions\",\"apiVersion\":\"meta.k8s.io/v1\"}}}")
              .getBytes(StandardCharsets.UTF_8));
    }
    return bodies;
  }

  private static Map<String, Integer> options(String[] args) {
    final Map<String, Integer> options =
        new java.util.HashMap<>(
            Map.of(
                "rate",
                1000,
                "seconds",
                20,
                "warmup",
                20,
                "connections",
                16,
                "max-seconds",
                10,
                "client-certificates",
                1));
    for (int i = 0; i + 1 < args.length; i += 2) {
      final String key = args[i].replaceFirst("^--", "");
      if (!options.containsKey(key)) {
        throw new IllegalArgumentException(
            "unknown option " + args[i] + "; known: " + options.keySet());
      }
      options.put(key, Integer.parseInt(args[i + 1]));
    }
    return options;
  }
}
