package io.quotaflow.admission.machine.pods;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.endpoint.ClusterEndpoint;
import io.quotaflow.admission.inflight.ClusterAdmissions.Occasion;
import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.machine.AdmissionReviews;
import io.quotaflow.admission.machine.FailureAnswers;
import io.quotaflow.admission.machine.PodCheck;
import io.quotaflow.admission.machine.denials.DeniedPods;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.dra.ClaimedDevices;
import io.quotaflow.dra.DeviceCharge;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.kube.QuotaLabels;
import io.quotaflow.quota.Quantities;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.reason.Reason;
import io.quotaflow.rules.StatelessLabelChecks;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The validating webhook for pod creation (SPEC 10): a pod is admitted when it fits its group and
 * every ancestor, counting what earlier admissions still hold, against the runtimes they would have
 * with the pod counted (the pod is not in any request yet: {@link Occasion#CREATE}); an admitted
 * pod's request is then held until the pod is seen as used. An UPDATE that changes the pod's
 * quota-name label is denied (the label is immutable once set). An UPDATE that grows the pod's
 * requests (an in-place resize through {@code pods/resize}, Kubernetes 1.33+) is judged as a new
 * pod of the growth would be, without holding it (the pod is counted already, and with its new size
 * once the engine sees it). Other operations, pods of excluded namespaces and pods bound to the
 * system group are always admitted.
 */
public final class PodWebhook implements ClusterEndpoint<PodWebhook.Review> {

  /**
   * A parsed review.
   *
   * @param uid the review's uid, echoed in the answer
   * @param pod the pod to create, read as the core reads pods; for a resize, the pod with its
   *     growth as its request; empty for other operations
   * @param dryRun whether the API server will not persist the pod
   * @param relabelled for an UPDATE that changes the pod's quota-name label, what it changes
   * @param resize whether {@code pod} is the growth of a resized pod rather than a new pod
   * @param claiming the pod to create as read, when it names ResourceClaims: its devices are
   *     counted from the cluster's DRA objects (docs/semantics.md section 22)
   */
  record Review(
      String uid,
      Optional<QuotaPod> pod,
      boolean dryRun,
      Optional<String> relabelled,
      boolean resize,
      Optional<Pod> claiming) {}

  /**
   * Audit annotation key (the API server prefixes the webhook's name) of the code of the first
   * failing check (docs/semantics.md section 19), on a denial or a warning.
   */
  public static final String REASON_ANNOTATION = "reason";

  private final PodCheck check;
  private final DeniedPods denied;

  public PodWebhook(PodCheck check, DeniedPods denied) {
    this.check = check;
    this.denied = denied;
  }

  /**
   * This webhook for callers who proved nothing (issue 39.7): it answers as this one does, but
   * holds nothing in flight and records no denial; its name in metrics and logs says so.
   */
  public PodWebhook judgingOnly() {
    return new PodWebhook(check.judgingOnly(), denied);
  }

  @Override
  public String name() {
    return check.trusted() ? "admission-pods" : "admission-pods-unauthenticated";
  }

  @Override
  public Review parse(byte[] body) throws BadRequestException {
    // The hot path: read into the few fields used, not into fabric8's whole admission model.
    final PodReviews.Request request = PodReviews.parse(body);
    if (!request.isAbout("", "Pod")) {
      throw new BadRequestException(
          "this webhook admits v1 Pods; the review is about " + request.describeKind());
    }
    final boolean dryRun = Boolean.TRUE.equals(request.dryRun());
    if ("CREATE".equals(request.operation())) {
      final Pod created = pod(request);
      final QuotaPod pod = PodAdapter.toQuotaPod(created);
      final boolean claims =
          created.getSpec() != null
              && created.getSpec().getResourceClaims() != null
              && !created.getSpec().getResourceClaims().isEmpty();
      return new Review(
          request.uid(),
          Optional.of(pod),
          dryRun,
          Optional.empty(),
          false,
          claims ? Optional.of(created) : Optional.empty());
    }
    final Optional<String> relabelled = relabelled(request);
    final Optional<QuotaPod> growth = relabelled.isPresent() ? Optional.empty() : growth(request);
    // A pod's claims cannot change after creation: a resize grows containers only.
    return new Review(
        request.uid(), growth, dryRun, relabelled, growth.isPresent(), Optional.empty());
  }

  /**
   * For an UPDATE that grows the pod's requests in some resource (only an in-place resize can), the
   * pod with what it grows by as its request; empty otherwise. A resource that shrinks frees
   * nothing before the engine sees the pod's new size, so it does not offset another resource's
   * growth.
   */
  private static Optional<QuotaPod> growth(PodReviews.Request request) {
    if (!"UPDATE".equals(request.operation())
        || request.object() == null
        || request.oldObject() == null
        || !request.object().isPod()
        || !request.oldObject().isPod()) {
      return Optional.empty();
    }
    final QuotaPod before = PodAdapter.toQuotaPod(request.oldObject().toPod());
    final QuotaPod after = PodAdapter.toQuotaPod(request.object().toPod());
    final ResourceList delta = after.request().minus(before.request());
    final ResourceList.Builder growth = ResourceList.builder();
    for (int i = 0; i < delta.size(); i++) {
      if (delta.amountAt(i) > 0) {
        growth.put(delta.nameAt(i), delta.amountAt(i));
      }
    }
    final ResourceList grown = growth.build();
    return grown.isEmpty()
        ? Optional.empty()
        : Optional.of(after.toBuilder().request(grown).build());
  }

  /**
   * What an UPDATE does to the pod's quota-name label, when it changes it: quotaflow charges a pod
   * to the group it was admitted to, so the label is immutable once the pod exists (issue 24).
   */
  private static Optional<String> relabelled(PodReviews.Request request) {
    if (!"UPDATE".equals(request.operation())
        || request.object() == null
        || request.oldObject() == null) {
      return Optional.empty();
    }
    final String before = quotaLabel(request.oldObject());
    final String after = quotaLabel(request.object());
    return before.equals(after)
        ? Optional.empty()
        : Optional.of(
            "from "
                + (before.isEmpty() ? "none" : before)
                + " to "
                + (after.isEmpty() ? "none" : after));
  }

  private static String quotaLabel(PodReviews.PodObject object) {
    final Map<String, String> labels =
        object.metadata() == null || object.metadata().labels() == null
            ? Map.of()
            : object.metadata().labels();
    return labels.getOrDefault(QuotaLabels.QUOTA_NAME, "");
  }

  @Override
  public Answer decide(String cluster, Review review, ClusterView view) {
    final String uid = review.uid();
    if (review.relabelled().isPresent()) {
      return relabelRefused(review);
    }
    if (review.pod().isEmpty()) {
      return Answer.json(200, AdmissionReviews.allowed(uid, List.of()), "not-checked");
    }
    final QuotaPod read = review.pod().get();
    final DeviceCharge devices = review.claiming().map(view::claims).orElse(DeviceCharge.NONE);
    final QuotaPod pod = ClaimedDevices.withCharge(read, devices);
    // A resize's growth is judged, never held: the pod is counted with its old size already.
    final Occasion occasion =
        review.dryRun() || review.resize() ? Occasion.DRY_RUN : Occasion.CREATE;
    final PodCheck.Verdict verdict =
        check.check(cluster, pod, devices.unresolved(), view, occasion);
    if (verdict.outcome() != PodCheck.Outcome.WARNED
        && verdict.outcome() != PodCheck.Outcome.DENIED) {
      return Answer.json(200, AdmissionReviews.allowed(uid, List.of()), verdict.outcome().label());
    }
    final String what =
        review.resize()
            ? "pod " + pod.ref() + " growing by " + Quantities.format(pod.request())
            : "pod " + pod.ref();
    final String message =
        "quotaflow: "
            + what
            + " does not fit quota group "
            + verdict.group()
            + ": "
            + verdict.message();
    final Reason reason = verdict.reason().orElseThrow();
    // Scripts read the code here rather than parse the message; the audit log keeps it too.
    final Map<String, String> audit = Map.of(REASON_ANNOTATION, reason.code());
    if (verdict.outcome() == PodCheck.Outcome.WARNED) {
      return Answer.json(200, AdmissionReviews.allowed(uid, List.of(message), audit), "warned");
    }
    if (check.trusted()) {
      denied.denied(
          cluster,
          pod,
          verdict.group(),
          reason,
          message,
          DeniedPods.Occasion.WEBHOOK,
          review.dryRun());
    }
    final List<AdmissionReviews.Cause> causes =
        verdict.denials().stream()
            .map(denial -> new AdmissionReviews.Cause(denial.reason().code(), denial.message()))
            .toList();
    return Answer.json(
        200, AdmissionReviews.denied(uid, 403, "Forbidden", message, causes, audit), "denied");
  }

  /** A pod's quota-name label may not change: refused whatever the cluster's state. */
  private Answer relabelRefused(Review review) {
    final String message =
        "quotaflow: the label "
            + QuotaLabels.QUOTA_NAME
            + " of a pod cannot change ("
            + review.relabelled().get()
            + "): a pod stays charged to the group it was admitted to; create a new pod instead";
    if (check.config().mode() == AdmissionMode.WARN) {
      return Answer.json(200, AdmissionReviews.allowed(review.uid(), List.of(message)), "warned");
    }
    return Answer.json(
        200, AdmissionReviews.denied(review.uid(), 403, "Forbidden", message), "denied");
  }

  @Override
  public Answer cannotDecide(String cluster, Review review, String reason) {
    return cannotDecide(cluster, review, reason, Optional.empty());
  }

  /**
   * The failure policy's answer, after the checks that need no live state (issue 39): a relabel,
   * and a label the engine would ignore ({@link StatelessLabelChecks}), are refused whatever the
   * policy.
   */
  @Override
  public Answer cannotDecide(
      String cluster, Review review, String reason, Optional<ClusterView> lastTree) {
    if (review.relabelled().isPresent()) {
      return relabelRefused(review);
    }
    final Optional<StatelessLabelChecks.Refusal> refusal =
        review
            .pod()
            .filter(pod -> !check.config().excludedNamespaces().contains(pod.ref().namespace()))
            .flatMap(
                pod ->
                    StatelessLabelChecks.refusal(
                        pod, check.options(), lastTree.map(ClusterView::directory)));
    if (refusal.isPresent()) {
      return labelRefused(review, refusal.get());
    }
    return FailureAnswers.review(check.config().failurePolicy(), review.uid(), cluster, reason);
  }

  /** A label refused without the live state: denied (warned in warn mode), its reason audited. */
  private Answer labelRefused(Review review, StatelessLabelChecks.Refusal refusal) {
    final String message =
        "quotaflow: pod " + review.pod().orElseThrow().ref() + ": " + refusal.message();
    final Map<String, String> audit = Map.of(REASON_ANNOTATION, refusal.reason().code());
    if (check.config().mode() == AdmissionMode.WARN) {
      return Answer.json(
          200, AdmissionReviews.allowed(review.uid(), List.of(message), audit), "warned");
    }
    return Answer.json(
        200,
        AdmissionReviews.denied(
            review.uid(),
            403,
            "Forbidden",
            message,
            List.of(new AdmissionReviews.Cause(refusal.reason().code(), refusal.message())),
            audit),
        "denied");
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
      // The API server names a pod before validating admission; without a name the in-flight hold
      // would have no key the pod's later event could release.
      throw new BadRequestException("the pod has no name (neither metadata.name nor request.name)");
    }
    return pod;
  }
}
