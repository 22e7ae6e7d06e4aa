package io.quotaflow.admission.endpoint;

import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.Staleness;
import java.util.Optional;

/**
 * One endpoint under {@code /clusters/{cluster}/}: it reads its request, decides on the cluster's
 * state when this instance holds it, and knows its answer when nothing can be decided.
 *
 * @param <T> the parsed request
 */
public interface ClusterEndpoint<T> {

  /** The endpoint's name in metrics and logs. */
  String name();

  /** The request in {@code body}, or a 400. */
  T parse(byte[] body) throws BadRequestException;

  /** The answer from the cluster's state held here. */
  Answer decide(String cluster, T request, ClusterView view);

  /** The answer of the failure policy when the state cannot be read or reached. */
  Answer cannotDecide(String cluster, T request, String reason);

  /**
   * {@link #cannotDecide(String, Object, String)}, told the cluster's last state read here however
   * old ({@code lastTree}, empty when none): an endpoint with checks that need no live state runs
   * them first (issue 39). The default ignores it.
   */
  default Answer cannotDecide(
      String cluster, T request, String reason, Optional<ClusterView> lastTree) {
    return cannotDecide(cluster, request, reason);
  }

  /** The answer in mode {@code off}: allow without looking. */
  Answer allowUnchecked(T request);

  /**
   * {@code answer}, decided on the cluster's last state because the live one could not be read
   * ({@code reason}), stating its staleness. The default suits AdmissionReview answers: a warning
   * and audit annotations.
   */
  default Answer stale(Answer answer, String cluster, Staleness staleness, String reason) {
    return StaleAnswers.review(answer, cluster, staleness, reason);
  }
}
