package io.quotaflow.evict;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.evict.ApiAnswers.Answer;
import io.quotaflow.evict.ApiAnswers.Kind;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Issue 40: the API server's answers to an eviction, as a real one words them. */
class ApiAnswersTest {

  private static final String BUDGET =
      "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"Cannot evict"
          + " pod as it would violate the pod's disruption"
          + " budget.\",\"reason\":\"TooManyRequests\",\"details\":{\"causes\":[{\"reason\":"
          + "\"DisruptionBudget\",\"message\":\"The disruption budget web-pdb needs 2 healthy pods"
          + " and has 2 currently\"}]},\"code\":429}";
  private static final String THROTTLED =
      "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"Too many"
          + " requests, please try again"
          + " later.\",\"reason\":\"TooManyRequests\",\"details\":{\"retryAfterSeconds\":3},"
          + "\"code\":429}";
  private static final String TWO_BUDGETS =
      "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"Internal"
          + " error occurred: This pod has more than one PodDisruptionBudget, which the eviction"
          + " subresource does not support.\",\"reason\":\"InternalError\",\"code\":500}";

  @Test
  void aBudgetsRefusalIsARefusalWhateverElseItCarries() {
    final Answer answer = ApiAnswers.classify(429, null, BUDGET);

    assertThat(answer.kind()).isEqualTo(Kind.BUDGET_REFUSED);
    assertThat(answer.message())
        .isEqualTo("Cannot evict pod as it would violate the pod's disruption budget.");
  }

  @Test
  void throttlingIsTheApiServerUnavailableWithItsRetryAfter() {
    final Answer answer = ApiAnswers.classify(429, "3", THROTTLED);

    assertThat(answer.kind()).isEqualTo(Kind.UNAVAILABLE);
    assertThat(answer.retryAfter()).contains(Duration.ofSeconds(3));
  }

  @Test
  void a429WithoutABodyIsThrottlingNotABudget() {
    assertThat(ApiAnswers.classify(429, null, "").kind()).isEqualTo(Kind.UNAVAILABLE);
    assertThat(ApiAnswers.classify(429, "soon", "not json").retryAfter()).isEmpty();
  }

  @Test
  void aPodUnderTwoBudgetsFailsForGoodWhileOther5xxAreUnavailable() {
    assertThat(ApiAnswers.classify(500, null, TWO_BUDGETS).kind()).isEqualTo(Kind.FAILED);
    assertThat(ApiAnswers.classify(500, null, "{\"message\":\"etcdserver: request timed out\"}"))
        .extracting(Answer::kind)
        .isEqualTo(Kind.UNAVAILABLE);
    assertThat(ApiAnswers.classify(503, null, null).kind()).isEqualTo(Kind.UNAVAILABLE);
    assertThat(ApiAnswers.classify(0, null, "connection refused").kind())
        .isEqualTo(Kind.UNAVAILABLE);
  }

  @Test
  void theOtherAnswers() {
    assertThat(ApiAnswers.classify(201, null, "{}").kind()).isEqualTo(Kind.ACCEPTED);
    assertThat(ApiAnswers.classify(404, null, "{}").kind()).isEqualTo(Kind.GONE);
    assertThat(ApiAnswers.classify(409, null, "{}").kind()).isEqualTo(Kind.REPLACED);
    assertThat(ApiAnswers.classify(403, null, "{\"message\":\"forbidden\"}"))
        .extracting(Answer::kind, Answer::message)
        .containsExactly(Kind.FAILED, "forbidden");
  }
}
