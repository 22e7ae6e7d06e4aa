package io.quotaflow.admission.http;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.admission.http.reservation.ClusterAdmissions.Occasion;
import io.quotaflow.admission.http.state.ClusterView;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.quota.QuotaPod;
import java.util.List;
import java.util.Optional;

/**
 * The validating webhook for pod creation (SPEC 10): a pod is admitted when it fits its group and
 * every ancestor, counting what earlier admissions still hold, against the runtimes they would have
 * with the pod counted (the pod is not in any request yet: {@link Occasion#CREATE}); an admitted
 * pod's request is then held until the pod is seen as used. Other operations, pods of excluded
 * namespaces and pods of the system group are always admitted.
 */
final class PodWebhook implements ClusterEndpoint<PodWebhook.Review> {

  /**
   * A parsed review.
   *
   * @param uid the review's uid, echoed in the answer
   * @param pod the pod to create, read as the core reads pods; empty for other operations
   * @param dryRun whether the API server will not persist the pod
   */
  record Review(String uid, Optional<QuotaPod> pod, boolean dryRun) {}

  private final PodCheck check;

  PodWebhook(PodCheck check) {
    this.check = check;
  }

  @Override
  public String name() {
    return "admission-pods";
  }

  @Override
  public Review parse(byte[] body) throws BadRequestException {
    // The hot path: read into the few fields used, not into fabric8's whole admission model.
    final PodReviews.Request request = PodReviews.parse(body);
    if (!request.isAbout("", "Pod")) {
      throw new BadRequestException(
          "this webhook admits v1 Pods; the review is about " + request.describeKind());
    }
    final Optional<QuotaPod> pod =
        "CREATE".equals(request.operation())
            ? Optional.of(PodAdapter.toQuotaPod(pod(request)))
            : Optional.empty();
    return new Review(request.uid(), pod, Boolean.TRUE.equals(request.dryRun()));
  }

  @Override
  public Answer decide(String cluster, Review review, ClusterView view) {
    final String uid = review.uid();
    if (review.pod().isEmpty()) {
      return Answer.json(200, AdmissionReviews.allowed(uid, List.of()), "not-checked");
    }
    final QuotaPod pod = review.pod().get();
    final PodCheck.Verdict verdict =
        check.check(cluster, pod, view, review.dryRun() ? Occasion.DRY_RUN : Occasion.CREATE);
    if (verdict.outcome() != PodCheck.Outcome.WARNED
        && verdict.outcome() != PodCheck.Outcome.DENIED) {
      return Answer.json(200, AdmissionReviews.allowed(uid, List.of()), verdict.outcome().label());
    }
    final String message =
        "quotaflow: pod "
            + pod.ref()
            + " does not fit quota group "
            + verdict.group()
            + ": "
            + verdict.reason();
    if (verdict.outcome() == PodCheck.Outcome.WARNED) {
      return Answer.json(200, AdmissionReviews.allowed(uid, List.of(message)), "warned");
    }
    return Answer.json(200, AdmissionReviews.denied(uid, 403, "Forbidden", message), "denied");
  }

  @Override
  public Answer cannotDecide(String cluster, Review review, String reason) {
    return FailureAnswers.review(check.config().failurePolicy(), review.uid(), cluster, reason);
  }

  @Override
  public Answer allowUnchecked(Review review) {
    return Answer.json(200, AdmissionReviews.allowed(review.uid(), List.of()), "off");
  }

  /** The pod of a CREATE review, its namespace and name filled in from the review if missing. */
  private static Pod pod(PodReviews.Request request) throws BadRequestException {
    final PodReviews.PodObject object = request.object();
    if (object == null) {
      throw new BadRequestException("a CREATE review needs request.object");
    }
    if (!object.isPod()) {
      throw new BadRequestException("request.object must be a v1 Pod with apiVersion and kind set");
    }
    final Pod pod = object.toPod();
    if (pod.getMetadata() == null) {
      pod.setMetadata(new ObjectMeta());
    }
    final ObjectMeta meta = pod.getMetadata();
    if (meta.getNamespace() == null || meta.getNamespace().isEmpty()) {
      meta.setNamespace(request.namespace());
    }
    if ((meta.getName() == null || meta.getName().isEmpty()) && request.name() != null) {
      meta.setName(request.name());
    }
    if (meta.getName() == null || meta.getName().isEmpty()) {
      // The API server names a pod before validating admission; without a name the reservation
      // would have no key the pod's later event could release.
      throw new BadRequestException("the pod has no name (neither metadata.name nor request.name)");
    }
    return pod;
  }
}
