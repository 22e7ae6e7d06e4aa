package io.quotaflow.admission.http;

import io.quotaflow.config.Parsers;
import io.quotaflow.config.Setting;
import java.time.Duration;

/**
 * The settings of the people's doors (the query API, explain, history, report, what-if, sessions
 * and the web view): how people sign in, how many of their requests are served at once and how
 * fast, the view's event streams and the what-if's size. Part of the plugin's catalogue, {@link
 * PluginSettings#ALL}.
 */
public final class PeopleSettings {
  /** Web view switch. */
  public static final Setting<Boolean> VIEW_ENABLED =
      new Setting<>(
          "admission.view.enabled",
          "boolean",
          "true",
          "Serve the web view of the quota tree (/ui/), its read-only endpoints, its live stream"
              + " and the what-if endpoint. The what-if never writes to a cluster.",
          Parsers::bool);

  /** Live stream bound. */
  public static final Setting<Integer> VIEW_MAX_STREAMS =
      new Setting<>(
          "admission.view.max.streams",
          "int",
          "16",
          "How many live streams of the web view (open pages) may be open at once, 1 to 1000; one"
              + " more is answered 503.",
          Parsers.atMost(1000));

  /** Activity bound. */
  public static final Setting<Integer> VIEW_RECENT_EVENTS =
      new Setting<>(
          "admission.view.recent.events",
          "int",
          "100",
          "How many recent evictions and how many recent denials the web view keeps per cluster, 1"
              + " to 10000 (in memory).",
          Parsers.atMost(10_000));

  /** Live streams per client. */
  public static final Setting<Integer> VIEW_STREAMS_PER_CLIENT =
      new Setting<>(
          "admission.view.streams.per.client",
          "int",
          "4",
          "How many live streams of the web view one client address may hold at once, 1 to 1000;"
              + " one more is answered 429.",
          Parsers.atMost(1000));

  /** How people are authenticated. */
  public static final Setting<String> API_AUTH =
      new Setting<>(
          "admission.api.auth",
          "none|kubernetes",
          "none",
          "How callers of the query API, the web view, its stream and the what-if are"
              + " authenticated: kubernetes asks each a bearer token, checked with TokenReview, and"
              + " shows each the groups bound to namespaces where SubjectAccessReview lets them list"
              + " pods (the manifests use it); none answers everyone everything.",
          text -> {
            final String mode = text.trim().toLowerCase(java.util.Locale.ROOT);
            if (!mode.equals("none") && !mode.equals("kubernetes")) {
              throw new IllegalArgumentException("expected none or kubernetes: " + text);
            }
            return mode;
          });

  /** How long token and access answers are kept. */
  public static final Setting<Duration> API_AUTH_CACHE_TTL =
      new Setting<>(
          "admission.api.auth.cache.ttl",
          "duration",
          "30s",
          "How long an answer of TokenReview or SubjectAccessReview is kept before the API server"
              + " is asked again (as kube-rbac-proxy keeps them).",
          Parsers::duration);

  /** The longest token asked about. */
  public static final Setting<Integer> API_AUTH_TOKEN_MAX_BYTES =
      new Setting<>(
          "admission.api.auth.token.max.bytes",
          "int",
          Integer.toString(io.quotaflow.admission.http.auth.ApiAuth.DEFAULT_MAX_TOKEN_BYTES),
          "The longest bearer token asked about, in bytes, 1 to 65536: a longer one is answered"
              + " 401 without a TokenReview. A browser keeps at most 4096 bytes in the web view's"
              + " cookie; Kubernetes' service-account tokens are about 1 KB.",
          Parsers.atMost(65_536));

  /** How many token and access answers are kept. */
  public static final Setting<Integer> API_AUTH_CACHE_ENTRIES =
      new Setting<>(
          "admission.api.auth.cache.entries",
          "int",
          "10000",
          "How many answers of TokenReview, and how many of SubjectAccessReview, are kept at most,"
              + " 1 to 1000000, the least recently used dropped beyond. Tokens are kept by their"
              + " SHA-256 digest: a refusal or a question takes at most 512 bytes, an accepted"
              + " token that plus its user's name and groups (10000: at most about 10 MB).",
          Parsers.atMost(1_000_000));

  /** Threads answering people. */
  public static final Setting<Integer> API_THREADS =
      new Setting<>(
          "admission.api.threads",
          "int",
          "4",
          "Threads answering people's requests (the query API, the web view, the sign-in, the"
              + " what-if), 1 to 256: apart from the webhooks' and the scheduler filter's, so that"
              + " however many people call, and however long the API server takes to review their"
              + " tokens, the webhooks keep answering.",
          Parsers.atMost(256));

  /** People's requests waiting. */
  public static final Setting<Integer> API_QUEUE =
      new Setting<>(
          "admission.api.queue",
          "int",
          "64",
          "People's requests waiting for a thread at most, 1 to 10000; one more is answered 503.",
          Parsers.atMost(10_000));

  /** People's rate per client. */
  public static final Setting<Integer> API_RATE_PER_CLIENT =
      new Setting<>(
          "admission.api.rate.per.client",
          "int",
          "20",
          "Requests a second one client address may make to /api/ (bursts of twice as many), 1 to"
              + " 100000; beyond, 429. Behind a proxy (oauth2-proxy) every person shares its"
              + " address: raise it.",
          Parsers.atMost(100_000));

  /** What-if size bound: pods. */
  public static final Setting<Integer> WHAT_IF_MAX_PODS =
      new Setting<>(
          "admission.whatif.max.pods",
          "int",
          "10000",
          "How many pods one what-if may add in total, 1 to 1000000; a larger one is answered 413.",
          Parsers.atMost(1_000_000));

  /** What-if size bound: group edits. */
  public static final Setting<Integer> WHAT_IF_MAX_EDITS =
      new Setting<>(
          "admission.whatif.max.edits",
          "int",
          "100",
          "How many group edits (min, max, weight) one what-if may make, 1 to 100000; more is"
              + " answered 413.",
          Parsers.atMost(100_000));

  private PeopleSettings() {}
}
