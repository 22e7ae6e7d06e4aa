package io.quotaflow.admission.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.machine.AdmissionReviews;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An "allowed" answer is written byte for byte as the JSON tree it replaced wrote it. */
class AdmissionAnswersTest {

  @ParameterizedTest
  @ValueSource(
      strings = {"r-1", "quote \" and back\\slash", "tab\tand\u0001control", "ünïcødé ✓", ""})
  void anAllowedAnswerIsTheTreesJson(String uid) {
    for (final List<String> warnings :
        List.of(List.<String>of(), List.of("quotaflow: a \"warning\"", "second ✓"))) {
      assertThat(
              new String(
                  AdmissionReviews.allowed(uid, warnings), java.nio.charset.StandardCharsets.UTF_8))
          .isEqualTo(new String(asTree(uid, warnings), java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  /** How the answer was written before: a tree, then its bytes. */
  private static byte[] asTree(String uid, List<String> warnings) {
    final ObjectNode response = Json.object();
    response.put("allowed", true);
    response.put("uid", uid);
    if (!warnings.isEmpty()) {
      final ArrayNode list = response.putArray("warnings");
      warnings.forEach(list::add);
    }
    final ObjectNode review = Json.object();
    review.put("apiVersion", AdmissionReviews.API_VERSION);
    review.put("kind", AdmissionReviews.KIND);
    review.set("response", response);
    return Json.bytes(review);
  }
}
