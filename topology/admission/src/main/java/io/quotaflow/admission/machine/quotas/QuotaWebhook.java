package io.quotaflow.admission.machine.quotas;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.endpoint.ClusterEndpoint;
import io.quotaflow.admission.http.PluginConfig;
import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.machine.AdmissionReviews;
import io.quotaflow.admission.machine.FailureAnswers;
import io.quotaflow.admission.machine.FailurePolicy;
import io.quotaflow.admission.machine.UnreadFields;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.kube.ElasticQuotaAdapter;
import io.quotaflow.kube.ElasticQuotaApi;
import io.quotaflow.quota.QuotaGroup;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.quota.SpecialGroups;
import io.quotaflow.rules.ClusterFacts;
import io.quotaflow.rules.QuotaChange;
import io.quotaflow.rules.QuotaValidator;
import io.quotaflow.rules.Violation;
import io.quotaflow.tree.GroupStatus;
import io.quotaflow.tree.QuotaOptions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The validating webhook for ElasticQuota changes (SPEC 9): the change is applied to the cluster's
 * current groups and every rule it breaks is named in the answer.
 */
public final class QuotaWebhook implements ClusterEndpoint<QuotaWebhook.Review> {

  /** A parsed review: the request and the change it proposes (empty for CONNECT). */
  record Review(AdmissionRequest request, Optional<QuotaChange> change) {}

  private final PluginConfig config;
  private final QuotaOptions options;

  /** The options the engine computes with, which explanations re-run the splits with. */
  public QuotaOptions options() {
    return options;
  }

  public QuotaWebhook(PluginConfig config, QuotaOptions options) {
    this.config = config;
    this.options = options;
  }

  @Override
  public String name() {
    return "admission-quotas";
  }

  @Override
  public Review parse(byte[] body) throws BadRequestException {
    // A review may carry two ElasticQuotas of 1.5 MiB: what no check reads is left out.
    final AdmissionRequest request = AdmissionReviews.parse(body, UnreadFields.QUOTA_REVIEW);
    if (!AdmissionReviews.isAbout(request, ElasticQuotaApi.GROUP, ElasticQuotaApi.KIND)) {
      throw new BadRequestException(
          "this webhook validates "
              + ElasticQuotaApi.API_VERSION
              + " ElasticQuota objects; the review is about "
              + AdmissionReviews.describeKind(request));
    }
    final QuotaChange change =
        switch (request.getOperation()) {
          case "CREATE" -> new QuotaChange.Create(quota(request.getObject(), "request.object"));
          case "UPDATE" ->
              new QuotaChange.Update(
                  quota(request.getOldObject(), "request.oldObject"),
                  quota(request.getObject(), "request.object"));
          case "DELETE" -> new QuotaChange.Delete(deletedName(request));
          default -> null;
        };
    return new Review(request, Optional.ofNullable(change));
  }

  @Override
  public Answer decide(String cluster, Review review, ClusterView view) {
    final String uid = review.request().getUid();
    if (review.change().isEmpty()) {
      return Answer.json(200, AdmissionReviews.allowed(uid, List.of()), "not-checked");
    }
    final QuotaChange change = review.change().get();
    if (leavesTreeAsItWas(change)) {
      return unchanged(uid);
    }
    final Optional<Answer> refused = refusedWhoeverTheTree(review);
    if (refused.isPresent()) {
      return refused.get();
    }
    final Optional<String> shadowing = shadowing(change, view);
    if (shadowing.isPresent()) {
      return refusal(uid, 409, "AlreadyExists", shadowing.get());
    }
    final ClusterFacts facts =
        new ClusterFacts(
            podCounts(change, view), used(change, view), clusterTotal(view), options.parentPods());
    final List<Violation> violations = QuotaValidator.validate(change, view.quotas(), facts);
    if (violations.isEmpty()) {
      return Answer.json(200, AdmissionReviews.allowed(uid, List.of()), "allowed");
    }
    if (config.mode() == AdmissionMode.WARN) {
      return Answer.json(
          200,
          AdmissionReviews.allowed(uid, violations.stream().map(v -> "quotaflow: " + v).toList()),
          "warned");
    }
    final String message =
        "quotaflow: ElasticQuota "
            + change.name()
            + " breaks "
            + violations.size()
            + (violations.size() == 1 ? " rule: " : " rules: ")
            + String.join("; ", violations.stream().map(Violation::toString).toList());
    return Answer.json(200, AdmissionReviews.denied(uid, 422, "Invalid", message), "denied");
  }

  @Override
  public Answer cannotDecide(String cluster, Review review, String reason) {
    // Nothing to decide: such an update is allowed whatever the state, even under fail-closed.
    if (review.change().filter(QuotaWebhook::leavesTreeAsItWas).isPresent()) {
      return unchanged(review.request().getUid());
    }
    final Optional<Answer> refused = refusedWhoeverTheTree(review);
    if (refused.isPresent()) {
      return refused.get();
    }
    // A quota change that cannot be checked is refused whatever admission.failure.policy says
    // (that setting is the pod webhook's): letting an unchecked tree in during a restore or an
    // outage would let any tenant who may edit an ElasticQuota break the tree's rules. In warn
    // mode (shadow) nothing is ever refused, so the change is let in with the reason as a warning.
    return FailureAnswers.review(
        config.mode() == AdmissionMode.WARN ? FailurePolicy.FAIL_OPEN : FailurePolicy.FAIL_CLOSED,
        review.request().getUid(),
        cluster,
        reason);
  }

  @Override
  public Answer allowUnchecked(Review review) {
    return Answer.json(200, AdmissionReviews.allowed(review.request().getUid(), List.of()), "off");
  }

  /**
   * An UPDATE that changes neither the spec nor a label or annotation the tree reads: a status
   * write, or the runtime annotations quotaflow's connectors and Koordinator write. It is allowed
   * unchecked, so that such writes are never denied, even when the tree is already invalid.
   */
  private static boolean leavesTreeAsItWas(QuotaChange change) {
    return change instanceof QuotaChange.Update update && !update.changesTree();
  }

  /**
   * A refusal that does not depend on the tree: the change is not a quota admin's, it puts a
   * special group in a namespace where it may not be, or its namespace selector is keyed on labels
   * tenants may set (see {@link QuotaAdmins}).
   */
  private Optional<Answer> refusedWhoeverTheTree(Review review) {
    final QuotaChange change = review.change().orElseThrow();
    final String uid = review.request().getUid();
    final UserInfo user = review.request().getUserInfo();
    final QuotaAdmins admins = config.quotaAdmins();
    if (!admins.includes(user)) {
      final String who = QuotaAdmins.describe(user);
      final String what;
      if (change instanceof QuotaChange.Update update) {
        final List<String> fields = QuotaAdmins.changedFields(update.old(), update.updated());
        what =
            "may not change "
                + (fields.isEmpty() ? "the fields quotaflow reads" : String.join(", ", fields))
                + " of ElasticQuota "
                + update.name();
      } else {
        what =
            (change instanceof QuotaChange.Create ? "may not create" : "may not delete")
                + " ElasticQuota "
                + change.name();
      }
      return Optional.of(
          refusal(
              uid,
              403,
              "Forbidden",
              "quotaflow: "
                  + who
                  + " "
                  + what
                  + ": only quota admins (admission.quota.admins: "
                  + String.join(", ", new TreeSet<>(admins.names()))
                  + ") may change the quota tree"));
    }
    final Optional<QuotaGroup> written;
    if (change instanceof QuotaChange.Create create) {
      written = Optional.of(create.group());
    } else if (change instanceof QuotaChange.Update update) {
      written = Optional.of(update.updated());
    } else {
      written = Optional.empty();
    }
    if (written.isPresent()
        && (SpecialGroups.isSpecial(written.get().name())
            || SpecialGroups.ROOT.equals(written.get().name()))
        && !admins.specialNamespaces().contains(written.get().namespace())) {
      return Optional.of(
          refusal(
              uid,
              403,
              "Forbidden",
              "quotaflow: the special group "
                  + written.get().name()
                  + " may only be an ElasticQuota of namespace "
                  + String.join(" or ", new TreeSet<>(admins.specialNamespaces()))
                  + " (admission.quota.special.namespaces), not of namespace "
                  + written.get().namespace()));
    }
    return SelectorKeyCheck.refusal(change, admins.selectorKeys())
        .map(message -> refusal(uid, 403, "Forbidden", message));
  }

  /**
   * Why a new ElasticQuota would shadow an existing one: quota names are cluster-wide, so a second
   * ElasticQuota of a name in another namespace is refused.
   */
  private static Optional<String> shadowing(QuotaChange change, ClusterView view) {
    if (!(change instanceof QuotaChange.Create create)) {
      return Optional.empty();
    }
    return view.quota(create.name())
        .filter(existing -> !existing.namespace().isEmpty())
        .filter(existing -> !existing.namespace().equals(create.group().namespace()))
        .map(
            existing ->
                "quotaflow: an ElasticQuota named "
                    + create.name()
                    + " already exists in namespace "
                    + existing.namespace()
                    + "; quota names are cluster-wide, so this one would shadow it");
  }

  /** A denial, or in warn mode an allowance with the same message as a warning. */
  private Answer refusal(String uid, int code, String reason, String message) {
    if (config.mode() == AdmissionMode.WARN) {
      return Answer.json(200, AdmissionReviews.allowed(uid, List.of(message)), "warned");
    }
    return Answer.json(200, AdmissionReviews.denied(uid, code, reason, message), "denied");
  }

  private static Answer unchanged(String uid) {
    return Answer.json(200, AdmissionReviews.allowed(uid, List.of()), "unchanged");
  }

  /**
   * The cluster total a reservation is checked against: the system group's runtime, which is
   * reported as exactly that total (docs/semantics.md, special groups).
   */
  private static Optional<ResourceList> clusterTotal(ClusterView view) {
    return view.group(SpecialGroups.SYSTEM).map(GroupStatus::runtime);
  }

  /** The engine's used amount of the changed group, for its strict max keys. */
  private static Map<String, ResourceList> used(QuotaChange change, ClusterView view) {
    return view.group(change.name())
        .map(status -> Map.of(change.name(), status.used()))
        .orElse(Map.of());
  }

  /** Pods of the groups the rules about pods look at: the changed group and its new parent. */
  private static Map<String, Integer> podCounts(QuotaChange change, ClusterView view) {
    final Set<String> names = new TreeSet<>();
    names.add(change.name());
    if (change instanceof QuotaChange.Create create) {
      names.add(create.group().parent());
    } else if (change instanceof QuotaChange.Update update) {
      names.add(update.updated().parent());
    }
    final Map<String, Integer> counts = new HashMap<>();
    for (final String name : names) {
      counts.put(name, view.podsOf(name).size());
    }
    return counts;
  }

  private static QuotaGroup quota(Object object, String field) throws BadRequestException {
    if (object == null) {
      throw new BadRequestException("this operation needs " + field);
    }
    if (!(object instanceof GenericKubernetesResource resource)
        || !ElasticQuotaApi.isElasticQuota(resource.getApiVersion(), resource.getKind())) {
      throw new BadRequestException(
          field + " must be an " + ElasticQuotaApi.API_VERSION + " ElasticQuota");
    }
    if (resource.getMetadata() == null
        || resource.getMetadata().getName() == null
        || resource.getMetadata().getName().isEmpty()) {
      throw new BadRequestException(field + ".metadata.name is missing");
    }
    return ElasticQuotaAdapter.toQuotaGroup(resource);
  }

  private static String deletedName(AdmissionRequest request) throws BadRequestException {
    if (request.getName() != null && !request.getName().isEmpty()) {
      return request.getName();
    }
    if (request.getOldObject() instanceof GenericKubernetesResource old
        && old.getMetadata() != null
        && old.getMetadata().getName() != null
        && !old.getMetadata().getName().isEmpty()) {
      return old.getMetadata().getName();
    }
    throw new BadRequestException("a DELETE review needs request.name or request.oldObject");
  }
}
