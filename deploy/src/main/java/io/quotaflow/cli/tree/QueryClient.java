package io.quotaflow.cli.tree;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

/**
 * Reads the admission plugin's query API ({@code docs/admission.md}, "Query API"): the clusters a
 * server knows, a cluster's tree, and one group with its pods. Every failure is a {@link
 * QueryException} whose message names the URL and what went wrong.
 */
public final class QueryClient {

  private static final JsonMapper JSON = new JsonMapper();
  private static final String CLUSTERS = "/api/v1/clusters";

  private final URI base;
  private final HttpClient http;
  private final Duration timeout;

  private QueryClient(final URI base, final HttpClient http, final Duration timeout) {
    this.base = base;
    this.http = http;
    this.timeout = timeout;
  }

  /**
   * A client for the server at {@code server}.
   *
   * @throws IllegalArgumentException when {@code server} is not an http or https URL
   */
  public static QueryClient of(
      final String server, final Optional<SSLContext> tls, final Duration timeout) {
    final HttpClient.Builder builder =
        HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER);
    tls.ifPresent(builder::sslContext);
    return new QueryClient(base(server), builder.build(), timeout);
  }

  /** {@code server} without a trailing slash, checked to be an absolute http(s) URL. */
  static URI base(final String server) {
    final URI uri;
    try {
      uri = new URI(server.trim());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "--server '" + server + "' is not a URL: " + e.getReason() + " at index " + e.getIndex());
    }
    final String scheme = Objects.toString(uri.getScheme(), "").toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException(
          "--server '"
              + server
              + "' is not an http:// or https:// URL, e.g. http://127.0.0.1:8080");
    }
    if (uri.getHost() == null) {
      throw new IllegalArgumentException("--server '" + server + "' names no host");
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw new IllegalArgumentException(
          "--server '" + server + "' has a query or fragment; give the server's base URL only");
    }
    final String path = Objects.toString(uri.getRawPath(), "");
    return URI.create(
        uri.getScheme()
            + "://"
            + uri.getRawAuthority()
            + (path.endsWith("/") ? path.substring(0, path.length() - 1) : path));
  }

  /** The clusters every instance holds, and the instances that did not answer. */
  public Clusters clusters() {
    final JsonNode body = get(CLUSTERS);
    final JsonNode names = body.path("clusters");
    if (!names.isArray()) {
      throw notQuotaflow(CLUSTERS);
    }
    final List<String> clusters = new ArrayList<>();
    names.forEach(name -> clusters.add(name.asText()));
    final List<String> unreachable = new ArrayList<>();
    body.path("unreachable").forEach(peer -> unreachable.add(peer.asText()));
    return new Clusters(List.copyOf(clusters), List.copyOf(unreachable));
  }

  /** {@code GET /api/v1/clusters/{cluster}/quotas}: the cluster's tree. */
  JsonNode tree(final String cluster) {
    return get(CLUSTERS + "/" + segment(cluster) + "/quotas");
  }

  /** {@code GET /api/v1/clusters/{cluster}/quotas?tree=ID}: one quota tree of the cluster. */
  JsonNode tree(final String cluster, final String tree) {
    return get(CLUSTERS + "/" + segment(cluster) + "/quotas?tree=" + segment(tree));
  }

  /** {@code GET /api/v1/clusters/{cluster}/quotas/{group}}: one group with its pods. */
  JsonNode group(final String cluster, final String group) {
    return get(CLUSTERS + "/" + segment(cluster) + "/quotas/" + segment(group));
  }

  /**
   * {@code GET /api/v1/clusters/{cluster}/quotas/{group}/explain?resource=R[&target=Q]}: how the
   * group's runtime came about.
   */
  public JsonNode explain(
      final String cluster,
      final String group,
      final String resource,
      final Optional<String> target) {
    return get(
        CLUSTERS
            + "/"
            + segment(cluster)
            + "/quotas/"
            + segment(group)
            + "/explain?resource="
            + segment(resource)
            + target.map(t -> "&target=" + segment(t)).orElse(""));
  }

  /** {@code GET /api/v1/clusters/{cluster}/pods/{namespace}/{name}/explain}: why a pod is there. */
  public JsonNode explainPod(final String cluster, final String namespace, final String name) {
    return get(
        CLUSTERS
            + "/"
            + segment(cluster)
            + "/pods/"
            + segment(namespace)
            + "/"
            + segment(name)
            + "/explain");
  }

  /**
   * {@code GET /api/v1/clusters/{cluster}/report?from=F&to=T}: every group's totals over the
   * period.
   */
  public JsonNode report(final String cluster, final String from, final String to) {
    return get(
        CLUSTERS + "/" + segment(cluster) + "/report?from=" + segment(from) + "&to=" + segment(to));
  }

  /** What {@code GET /api/v1/clusters} says. */
  public record Clusters(List<String> names, List<String> unreachable) {}

  private JsonNode get(final String path) {
    final URI uri = URI.create(base + path);
    final HttpResponse<String> response;
    try {
      response =
          http.send(
              HttpRequest.newBuilder(uri)
                  .timeout(timeout)
                  .header("Accept", "application/json")
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (HttpConnectTimeoutException e) {
      throw new QueryException("cannot reach " + uri + ": no connection within " + timeout, e);
    } catch (HttpTimeoutException e) {
      throw new QueryException("no answer from " + uri + " within " + timeout, e);
    } catch (ConnectException e) {
      throw new QueryException(
          "cannot reach "
              + uri
              + (e.getCause() instanceof UnresolvedAddressException
                  ? ": unknown host " + uri.getHost()
                  : ": connection refused"),
          e);
    } catch (SSLException e) {
      throw new QueryException(
          "TLS with "
              + uri
              + " failed: "
              + e.getMessage()
              + " (trust its CA with --cacert FILE, or --insecure through a port-forward)",
          e);
    } catch (IOException e) {
      throw new QueryException("cannot reach " + uri + ": " + describe(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueryException("interrupted while asking " + uri, e);
    }
    final JsonNode body = parse(response.body());
    if (response.statusCode() != 200) {
      final String error =
          body != null && body.path("error").isTextual()
              ? body.path("error").asText()
              : "HTTP " + response.statusCode();
      throw new QueryException(uri + " answered " + response.statusCode() + ": " + error);
    }
    if (body == null || !body.isObject()) {
      throw notQuotaflow(path);
    }
    return body;
  }

  private QueryException notQuotaflow(final String path) {
    return new QueryException(
        base
            + path
            + " did not answer with quotaflow's JSON: is --server the admission plugin's base URL?");
  }

  private static JsonNode parse(final String body) {
    try {
      return JSON.readTree(body);
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  private static String describe(final IOException e) {
    final String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }

  /** One path segment, percent-encoded (a space as %20, not +). */
  private static String segment(final String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
