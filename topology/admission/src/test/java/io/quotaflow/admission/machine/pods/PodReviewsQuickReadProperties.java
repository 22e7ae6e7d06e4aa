package io.quotaflow.admission.machine.pods;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.endpoint.UniqueKeyParser;
import io.quotaflow.admission.http.Golden;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The pod webhook reads a review first with its own check of repeated keys ({@link
 * UniqueKeyParser}) and only falls back to Jackson's strict reading when that fails: whatever the
 * body (a key repeated in any object, read or skipped, values only data binding reads, broken
 * JSON), the result, or the error and its message, is the strict reading's.
 */
class PodReviewsQuickReadProperties {

  @Property(tries = 400)
  void readsAsTheStrictReadingReads(@ForAll("bodies") String base, @ForAll long seed)
      throws IOException {
    final Random random = new Random(seed);
    String body = base;
    final int edits = 1 + random.nextInt(3);
    for (int i = 0; i < edits; i++) {
      body = random.nextInt(4) == 0 ? mutate(body, random) : repeatAKey(body, random);
    }

    assertSameReading(body);
  }

  @Test
  void aKeyRepeatedAnywhereIsRefusedWithJacksonsMessage() {
    final String review = review(PodReviewsTest.pods().get(0));
    for (final String repeated :
        List.of(
            review.replace(
                "\"kind\":\"AdmissionReview\"", "\"kind\":\"x\",\"kind\":\"AdmissionReview\""),
            review.replace("\"username\":\"u\"", "\"username\":\"u\",\"username\":\"v\""),
            review.replace("\"operator\":\"Exists\"", "\"operator\":\"Exists\",\"operator\":\"x\""),
            review.replace("\"cpu\":\"10m\"", "\"cpu\":\"10m\",\"cpu\":\"20m\""))) {
      assertThat(repeated).isNotEqualTo(review);
      final Throwable thrown =
          catchThrowable(() -> PodReviews.read(repeated.getBytes(StandardCharsets.UTF_8)));
      assertThat(thrown)
          .isInstanceOf(BadRequestException.class)
          .hasMessageStartingWith("the body is not valid JSON: Duplicate field '");
    }
  }

  @Test
  void anObjectOfManyKeysIsCheckedToo() {
    final StringBuilder labels = new StringBuilder("{");
    for (int i = 0; i < 40; i++) {
      labels.append(i == 0 ? "" : ",").append("\"l").append(i).append("\":\"v\"");
    }
    final String unique = labels + "}";
    final String repeated = labels + ",\"l33\":\"w\"}";
    final String pod =
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"labels\":";

    assertSameReading(review(pod + unique + "}}"));
    assertSameReading(review(pod + repeated + "}}"));
    assertThat(catchThrowable(() -> PodReviews.read(bytes(review(pod + repeated + "}}")))))
        .hasMessageContaining("Duplicate field 'l33'");
  }

  @Provide
  Arbitrary<String> bodies() {
    final List<String> bodies = new ArrayList<>();
    PodReviewsTest.pods().forEach(pod -> bodies.add(review(pod)));
    bodies.add(Golden.text("review-create-pod.json"));
    return Arbitraries.of(bodies);
  }

  private static void assertSameReading(String body) {
    final Throwable strictError = catchThrowable(() -> PodReviews.readStrictly(bytes(body)));
    final Throwable error = catchThrowable(() -> PodReviews.read(bytes(body)));
    if (strictError != null) {
      assertThat(error).as(body).isNotNull().hasSameClassAs(strictError);
      assertThat(error.getMessage()).as(body).isEqualTo(strictError.getMessage());
      return;
    }
    assertThat(error).as(body).isNull();
    // As JSON: fabric8's Quantity cannot compare an unreadable amount ("lots").
    try {
      assertThat(Json.MAPPER.writeValueAsString(PodReviews.read(bytes(body))))
          .as(body)
          .isEqualTo(Json.MAPPER.writeValueAsString(PodReviews.readStrictly(bytes(body))));
    } catch (BadRequestException | IOException e) {
      throw new AssertionError(e);
    }
  }

  /** The body with one of its members (at any depth) written once more before itself. */
  private static String repeatAKey(String body, Random random) {
    final byte[] bytes = bytes(body);
    final List<Long> keys = new ArrayList<>();
    try (JsonParser parser = Json.quickParser(bytes)) {
      while (parser.nextToken() != null) {
        if (parser.currentToken() == JsonToken.FIELD_NAME) {
          keys.add(parser.currentTokenLocation().getByteOffset());
        }
      }
    } catch (IOException e) {
      // A body broken by a mutation: the keys before the break are enough.
    }
    if (keys.isEmpty()) {
      return body;
    }
    final long start = keys.get(random.nextInt(keys.size()));
    final long end;
    try (JsonParser parser = Json.quickParser(bytes)) {
      while (parser.nextToken() != JsonToken.FIELD_NAME
          || parser.currentTokenLocation().getByteOffset() != start) {
        // to the chosen key
      }
      if (parser.nextToken() == JsonToken.VALUE_STRING) {
        parser.getText(); // a string is read to its end only when asked for
      } else {
        parser.skipChildren();
      }
      end = parser.currentLocation().getByteOffset();
    } catch (IOException e) {
      return body;
    }
    final String member =
        new String(bytes, (int) start, (int) (end - start), StandardCharsets.UTF_8);
    return body.substring(0, (int) start) + member + "," + body.substring((int) start);
  }

  /** A random byte replaced, dropped or added; or a quantity or flag turned into another type. */
  private static String mutate(String body, Random random) {
    final String[] swaps = {
      "\"10m\"", "10", "\"Pending\"", "{}", "false", "\"false\"", "7", "\"7\""
    };
    final String from = swaps[random.nextInt(swaps.length)];
    if (random.nextBoolean() && body.contains(from)) {
      return body.replaceFirst(
          java.util.regex.Pattern.quote(from), swaps[random.nextInt(swaps.length)]);
    }
    final StringBuilder text = new StringBuilder(body);
    final int at = random.nextInt(text.length());
    final String chars = "{}[],:\"0a\\ -.e";
    switch (random.nextInt(3)) {
      case 0 -> text.setCharAt(at, chars.charAt(random.nextInt(chars.length())));
      case 1 -> text.deleteCharAt(at);
      default -> text.insert(at, chars.charAt(random.nextInt(chars.length())));
    }
    return text.toString();
  }

  private static String review(String object) {
    return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
        + "\"uid\":\"r-1\",\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
        + "\"name\":\"p\",\"namespace\":\"ns\",\"operation\":\"CREATE\","
        + "\"userInfo\":{\"username\":\"u\",\"groups\":[\"g\"]},\"object\":"
        + object
        + ",\"dryRun\":false}}";
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
