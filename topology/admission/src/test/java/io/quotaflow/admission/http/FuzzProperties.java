package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.http.limits.ServerLimits;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Random and mutated bodies posted to every endpoint: the answer is always 200 or a 4xx, never a
 * 5xx or a stack trace, and the server keeps answering.
 */
class FuzzProperties {

  private static final Map<String, String> VALID =
      Map.of(
          "/clusters/east/admission/pods", Golden.text("review-create-pod.json"),
          "/clusters/east/admission/quotas",
              Reviews.quotaReview(
                  "u",
                  "UPDATE",
                  Reviews.quota("team-b").parent("research").min("cpu", "5").max("cpu", "8"),
                  Reviews.quota("team-b").parent("research").min("cpu", "2").max("cpu", "8")),
          "/clusters/east/scheduler/filter", Golden.text("extender-args-nodes.json"),
          "/api/v1/clusters/east/quotas", "",
          "/api/v1/clusters/east/quotas/team-a", "");

  private static Plugin plugin;

  @BeforeContainer
  static void start() {
    // Bodies, not rates, are fuzzed here: one client's 300 quick calls stay under the rate.
    plugin =
        Plugin.start(
            PluginConfig.plainHttpOnLoopback(0),
            ServerLimits.DEFAULTS.withPeople(new ServerLimits.People(4, 64, 100_000)),
            TestClusters.state());
  }

  @AfterContainer
  static void stop() {
    plugin.close();
  }

  @Property(tries = 300)
  void mutatedBodiesGetOnly200Or4xx(
      @ForAll("endpoints") String path, @ForAll("seeds") long seed, @ForAll("methods") String m) {
    final String body = mutate(VALID.get(path), new Random(seed));

    final Plugin.Reply reply = plugin.send(m, path, body.getBytes(StandardCharsets.UTF_8));

    assertThat(reply.status()).as(reply.body()).isIn(200, 400, 404, 405, 413);
    assertThat(reply.body()).doesNotContain("Exception", "\tat ");
    assertThat(plugin.get("/healthz").status()).isEqualTo(200);
  }

  @Property(tries = 200)
  void randomBytesGetOnly4xx(@ForAll("endpoints") String path, @ForAll("garbage") byte[] body) {
    final Plugin.Reply reply = plugin.post(path, body);

    assertThat(reply.status()).as(reply.body()).isBetween(200, 499);
    assertThat(plugin.get("/readyz").status()).isEqualTo(200);
  }

  @Provide
  Arbitrary<String> endpoints() {
    return Arbitraries.of(List.copyOf(VALID.keySet()));
  }

  @Provide
  Arbitrary<String> methods() {
    return Arbitraries.frequency(
        net.jqwik.api.Tuple.of(8, "POST"),
        net.jqwik.api.Tuple.of(2, "GET"),
        net.jqwik.api.Tuple.of(1, "PUT"),
        net.jqwik.api.Tuple.of(1, "DELETE"));
  }

  @Provide
  Arbitrary<Long> seeds() {
    return Arbitraries.longs();
  }

  @Provide
  Arbitrary<byte[]> garbage() {
    return Arbitraries.oneOf(
        Arbitraries.bytes().array(byte[].class).ofMaxSize(2_000),
        Arbitraries.strings()
            .withChars("{}[]\":,0123456789.-eE truefalsn\\u")
            .ofMaxLength(400)
            .map(s -> s.getBytes(StandardCharsets.UTF_8)));
  }

  /** One of: a structural change of the JSON tree, a textual cut or insertion, or both. */
  private static String mutate(String valid, Random random) {
    if (valid.isEmpty()) {
      return random.nextBoolean() ? "" : "{\"x\":" + random.nextInt() + "}";
    }
    String text = valid;
    if (random.nextInt(3) > 0) {
      try {
        final JsonNode tree = Json.MAPPER.readTree(valid);
        for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
          mutateTree(tree, random);
        }
        text = tree.toString();
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }
    if (random.nextInt(3) == 0) {
      final int at = random.nextInt(text.length());
      final int end = Math.min(text.length(), at + random.nextInt(20));
      final String inserted =
          List.of("", "{", "}", "\"", "null", "[", "]", ",", "1e999", "\\u0000")
              .get(random.nextInt(10));
      text = text.substring(0, at) + inserted + text.substring(end);
    }
    return text;
  }

  /** Replaces, removes or retypes one random node of the tree. */
  private static void mutateTree(JsonNode root, Random random) {
    final List<JsonNode> containers = new ArrayList<>();
    collect(root, containers);
    final JsonNode container = containers.get(random.nextInt(containers.size()));
    final JsonNode replacement =
        switch (random.nextInt(7)) {
          case 0 -> Json.MAPPER.getNodeFactory().nullNode();
          case 1 -> Json.MAPPER.getNodeFactory().numberNode(random.nextLong());
          case 2 -> Json.MAPPER.getNodeFactory().textNode("x" + random.nextInt(1000));
          case 3 -> Json.object();
          case 4 -> Json.array();
          case 5 -> Json.MAPPER.getNodeFactory().booleanNode(random.nextBoolean());
          default -> Json.MAPPER.getNodeFactory().textNode("-" + random.nextInt(100) + "Gi");
        };
    if (container instanceof ObjectNode object && object.size() > 0) {
      final List<String> names = new ArrayList<>();
      object.fieldNames().forEachRemaining(names::add);
      final String name = names.get(random.nextInt(names.size()));
      if (random.nextInt(4) == 0) {
        object.remove(name);
      } else {
        object.set(name, replacement);
      }
    } else if (container instanceof ArrayNode array && array.size() > 0) {
      array.set(random.nextInt(array.size()), replacement);
    }
  }

  private static void collect(JsonNode node, List<JsonNode> containers) {
    if (node.isContainerNode()) {
      containers.add(node);
      final Iterator<JsonNode> children = node.elements();
      children.forEachRemaining(child -> collect(child, containers));
    }
  }
}
