package io.quotaflow.admission.http;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.admission.AdmissionDecision;
import io.quotaflow.admission.AdmissionRequest;
import io.quotaflow.admission.http.reservation.Reservations;
import io.quotaflow.admission.http.state.ClusterView;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.tree.QuotaOptions;
import java.time.Clock;
import java.util.List;

/**
 * The validating webhook for pod creation (SPEC 10): a pod is admitted when it fits its group and
 * every ancestor, counting what earlier admissions still hold; an admitted pod's request is then
 * held until the pod is seen as used. Other operations, pods of excluded namespaces and pods of the
 * system group are always admitted.
 */
final class PodWebhook
    implements ClusterEndpoint<io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest> {

  private final PluginConfig config;
  private final QuotaOptions options;
  private final Reservations reservations;
  private final Clock clock;

  PodWebhook(PluginConfig config, QuotaOptions options, Reservations reservations, Clock clock) {
    this.config = config;
    this.options = options;
    this.reservations = reservations;
    this.clock = clock;
  }

  @Override
  public String name() {
    return "admission-pods";
  }

  @Override
  public io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest parse(byte[] body)
      throws BadRequestException {
    final io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest request =
        AdmissionReviews.parse(body);
    if (!AdmissionReviews.isAbout(request, "", "Pod")) {
      throw new BadRequestException(
          "this webhook admits v1 Pods; the review is about "
              + AdmissionReviews.describeKind(request));
    }
    if ("CREATE".equals(request.getOperation())) {
      pod(request);
    }
    return request;
  }

  @Override
  public Answer decide(
      String cluster,
      io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest request,
      ClusterView view) {
    final String uid = request.getUid();
    if (!"CREATE".equals(request.getOperation())) {
      return Answer.json(200, AdmissionReviews.allowed(uid, List.of()), "not-checked");
    }
    final Pod pod = podOrNull(request);
    final QuotaPod quotaPod = PodAdapter.toQuotaPod(pod);
    if (config.excludedNamespaces().contains(quotaPod.ref().namespace())) {
      return Answer.json(200, AdmissionReviews.allowed(uid, List.of()), "excluded");
    }
    final AdmissionRequest admission = AdmissionRequest.of(quotaPod, view.directory(), options);
    if (SpecialGroups.SYSTEM.equals(admission.group())) {
      return Answer.json(200, AdmissionReviews.allowed(uid, List.of()), "system");
    }
    final boolean dryRun = Boolean.TRUE.equals(request.getDryRun());
    final AdmissionDecision decision =
        reservations.of(cluster).decide(admission, view::group, clock.instant(), !dryRun, false);
    if (decision.allowed()) {
      return Answer.json(200, AdmissionReviews.allowed(uid, List.of()), "allowed");
    }
    final String message =
        "quotaflow: pod "
            + quotaPod.ref()
            + " does not fit quota group "
            + admission.group()
            + ": "
            + decision.message();
    if (config.mode() == AdmissionMode.WARN) {
      return Answer.json(200, AdmissionReviews.allowed(uid, List.of(message)), "warned");
    }
    return Answer.json(200, AdmissionReviews.denied(uid, 403, "Forbidden", message), "denied");
  }

  @Override
  public Answer cannotDecide(
      String cluster,
      io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest request,
      String reason) {
    return FailureAnswers.review(config.failurePolicy(), request.getUid(), cluster, reason);
  }

  @Override
  public Answer allowUnchecked(
      io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest request) {
    return Answer.json(200, AdmissionReviews.allowed(request.getUid(), List.of()), "off");
  }

  /**
   * The pod of a CREATE review, its namespace filled in from the review when the object has none.
   */
  private static Pod pod(io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest request)
      throws BadRequestException {
    final Object object = request.getObject();
    if (object == null) {
      throw new BadRequestException("a CREATE review needs request.object");
    }
    if (!(object instanceof Pod pod)) {
      throw new BadRequestException("request.object must be a v1 Pod with apiVersion and kind set");
    }
    if (pod.getMetadata() == null) {
      pod.setMetadata(new ObjectMeta());
    }
    final ObjectMeta meta = pod.getMetadata();
    if (meta.getNamespace() == null || meta.getNamespace().isEmpty()) {
      meta.setNamespace(request.getNamespace());
    }
    if ((meta.getName() == null || meta.getName().isEmpty()) && request.getName() != null) {
      meta.setName(request.getName());
    }
    if (meta.getName() == null || meta.getName().isEmpty()) {
      // The API server names a pod before validating admission; without a name the reservation
      // would have no key the pod's later event could release.
      throw new BadRequestException("the pod has no name (neither metadata.name nor request.name)");
    }
    return pod;
  }

  private static Pod podOrNull(
      io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest request) {
    try {
      return pod(request);
    } catch (BadRequestException e) {
      // parse() accepted this request, so this cannot happen.
      throw new IllegalStateException(e);
    }
  }
}
