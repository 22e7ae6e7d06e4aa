package io.quotaflow.bench.admission;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Issue 39's floods against a running {@code quotaflow local --auth} (bench/run-local-auth-flood.sh
 * starts one): pod reviews at a fixed rate are timed alone, then while {@code --connections}
 * connections flood the people's doors with random tokens of 8 KB ({@code GET
 * /api/v1/clusters/demo/quotas} and {@code POST /api/v1/session}, every token unknown to the API
 * server) and 16 more send forged pod reviews (other namespaces, random pods) as fast as they go. A
 * pod review counts as answered in time when its 200 comes within the webhook's timeout (2 s in the
 * manifests), measured from its scheduled send time.
 *
 * <p>Usage: {@code LocalAuthFlood --url http://127.0.0.1:PORT [--rate 50] [--seconds 30]
 * [--connections 200] [--warmup 10]}. Only the given URL is contacted.
 */
public final class LocalAuthFlood {

  private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(2);
  private static final int FORGERS = 16;
  private static final int TOKEN_BYTES = 6_000; // 8,000 characters once base64url-encoded

  private LocalAuthFlood() {}

  public static void main(String[] args) throws Exception {
    final Map<String, String> options = options(args);
    final String url = options.get("url");
    final int rate = Integer.parseInt(options.get("rate"));
    final int seconds = Integer.parseInt(options.get("seconds"));
    final int connections = Integer.parseInt(options.get("connections"));
    final int warmup = Integer.parseInt(options.get("warmup"));
    final HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    final URI reviews = URI.create(url + "/clusters/demo/admission/pods");
    System.out.printf(
        "local --auth flood: pod reviews at %d/s for %d s alone, then beside %d connections of"
            + " random 8 KB tokens and %d of forged reviews; %d CPUs shared with local%n",
        rate, seconds, connections, FORGERS, Runtime.getRuntime().availableProcessors());

    reviewsAtRate(client, reviews, rate, warmup, "warm");
    final Outcome alone = reviewsAtRate(client, reviews, rate, seconds, "alone");

    final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds + 2L);
    final Map<String, LongAdder> flood = new ConcurrentHashMap<>();
    final ExecutorService flooders = Executors.newFixedThreadPool(connections + FORGERS);
    for (int c = 0; c < connections; c++) {
      final boolean session = c % 2 == 1;
      flooders.execute(() -> tokens(client, url, session, end, flood));
    }
    final AtomicLong forged = new AtomicLong();
    for (int f = 0; f < FORGERS; f++) {
      flooders.execute(() -> forge(client, reviews, end, forged, flood));
    }
    final Outcome flooded = reviewsAtRate(client, reviews, rate, seconds, "flood");
    flooders.shutdown();
    flooders.awaitTermination(60, TimeUnit.SECONDS);
    flooders.shutdownNow();

    System.out.println();
    System.out.println(alone.line("pod reviews, alone"));
    System.out.println(flooded.line("pod reviews, flooded"));
    System.out.println("flood answers by door and status: " + new TreeMap<>(sums(flood)));
    System.out.println();
    final boolean met = alone.inTime() == alone.sent() && flooded.inTime() == flooded.sent();
    System.out.printf(
        "every pod review answered within 2 s: %d of %d alone, %d of %d flooded: %s%n",
        alone.inTime(), alone.sent(), flooded.inTime(), flooded.sent(), met ? "MET" : "MISSED");
  }

  /** Pod reviews of namespace vision at {@code rate} a second for {@code seconds}. */
  private static Outcome reviewsAtRate(
      HttpClient client, URI uri, int rate, int seconds, String phase) throws InterruptedException {
    final LatencyRecorder recorder = new LatencyRecorder();
    final long total = (long) rate * seconds;
    final long interval = 1_000_000_000L / rate;
    final long start = System.nanoTime() + 50_000_000L;
    final AtomicLong next = new AtomicLong();
    final LongAdder inTime = new LongAdder();
    final ExecutorService workers = Executors.newFixedThreadPool(8);
    for (int w = 0; w < 8; w++) {
      workers.execute(
          () -> {
            for (long i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
              final long scheduled = start + i * interval;
              long wait;
              while ((wait = scheduled - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
              }
              final int status =
                  post(
                      client, uri, review("vision", phase + "-" + i, "1m"), Duration.ofSeconds(10));
              final long took = System.nanoTime() - scheduled;
              if (status == 200) {
                recorder.record(took);
                if (took <= TIMEOUT_NANOS) {
                  inTime.increment();
                }
              } else {
                recorder.error();
              }
            }
          });
    }
    workers.shutdown();
    workers.awaitTermination(seconds + 120L, TimeUnit.SECONDS);
    workers.shutdownNow();
    return new Outcome(total, inTime.sum(), recorder.summary(seconds));
  }

  /** Random tokens at one of the people's doors until {@code end}. */
  private static void tokens(
      HttpClient client, String url, boolean session, long end, Map<String, LongAdder> counts) {
    final SecureRandom random = new SecureRandom();
    final byte[] bytes = new byte[TOKEN_BYTES];
    while (System.nanoTime() < end) {
      random.nextBytes(bytes);
      final String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      final int status;
      if (session) {
        status =
            post(
                client,
                URI.create(url + "/api/v1/session"),
                ("{\"token\":\"" + token + "\"}").getBytes(StandardCharsets.UTF_8),
                Duration.ofSeconds(10));
      } else {
        status = get(client, URI.create(url + "/api/v1/clusters/demo/quotas"), token);
      }
      counts
          .computeIfAbsent((session ? "session " : "quotas ") + status, k -> new LongAdder())
          .increment();
    }
  }

  /** Pod reviews of random pods in namespaces of other teams, as fast as they go. */
  private static void forge(
      HttpClient client, URI uri, long end, AtomicLong forged, Map<String, LongAdder> counts) {
    final String[] namespaces = {"research", "platform", "team-a", "team-b", "default"};
    while (System.nanoTime() < end) {
      final long n = forged.incrementAndGet();
      final int status =
          post(
              client,
              uri,
              review(namespaces[(int) (n % namespaces.length)], "forged-" + n, "100m"),
              Duration.ofSeconds(10));
      counts.computeIfAbsent("forged review " + status, k -> new LongAdder()).increment();
    }
  }

  private static int post(HttpClient client, URI uri, byte[] body, Duration timeout) {
    try {
      return client
          .send(
              HttpRequest.newBuilder(uri)
                  .timeout(timeout)
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (Exception e) {
      return -1;
    }
  }

  private static int get(HttpClient client, URI uri, String token) {
    try {
      return client
          .send(
              HttpRequest.newBuilder(uri)
                  .timeout(Duration.ofSeconds(10))
                  .header("Authorization", "Bearer " + token)
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (Exception e) {
      return -1;
    }
  }

  /** An AdmissionReview creating pod {@code name} in {@code namespace}, asking {@code cpu}. */
  private static byte[] review(String namespace, String name, String cpu) {
    return ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
            + "\"uid\":\""
            + name
            + "\",\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
            + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},"
            + "\"name\":\""
            + name
            + "\",\"namespace\":\""
            + namespace
            + "\",\"operation\":\"CREATE\",\"userInfo\":{\"username\":\"bench\"},"
            + "\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
            + name
            + "\",\"namespace\":\""
            + namespace
            + "\"},\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"app:1\","
            + "\"resources\":{\"requests\":{\"cpu\":\""
            + cpu
            + "\",\"memory\":\"16Mi\"}}}]},\"status\":{\"phase\":\"Pending\"}},"
            + "\"dryRun\":false}}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static Map<String, Long> sums(Map<String, LongAdder> counts) {
    final Map<String, Long> sums = new TreeMap<>();
    counts.forEach((key, adder) -> sums.put(key, adder.sum()));
    return sums;
  }

  /** A phase's reviews: how many were sent, how many answered 200 within the timeout, latency. */
  private record Outcome(long sent, long inTime, LatencyRecorder.Summary latency) {
    String line(String name) {
      return latency.line(name) + String.format("   in 2 s: %d of %d", inTime, sent);
    }
  }

  private static Map<String, String> options(String[] args) {
    final Map<String, String> options =
        new java.util.HashMap<>(
            Map.of("url", "", "rate", "50", "seconds", "30", "connections", "200", "warmup", "10"));
    for (int i = 0; i + 1 < args.length; i += 2) {
      final String key = args[i].replaceFirst("^--", "");
      if (!options.containsKey(key)) {
        throw new IllegalArgumentException(
            "unknown option " + args[i] + "; known: " + options.keySet());
      }
      options.put(key, args[i + 1]);
    }
    if (options.get("url").isEmpty()) {
      throw new IllegalArgumentException("--url http://127.0.0.1:PORT of a local --auth is needed");
    }
    return options;
  }
}
