package io.quotaflow.admission.machine.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.admission.endpoint.Answer;
import io.quotaflow.admission.endpoint.BadRequestException;
import io.quotaflow.admission.endpoint.ClusterEndpoint;
import io.quotaflow.admission.endpoint.Json;
import io.quotaflow.admission.endpoint.StaleAnswers;
import io.quotaflow.admission.inflight.ClusterAdmissions.Occasion;
import io.quotaflow.admission.machine.AdmissionMode;
import io.quotaflow.admission.machine.FailureAnswers;
import io.quotaflow.admission.machine.FailurePolicy;
import io.quotaflow.admission.machine.PodCheck;
import io.quotaflow.admission.machine.UnreadFields;
import io.quotaflow.admission.machine.denials.DeniedPods;
import io.quotaflow.admission.state.ClusterView;
import io.quotaflow.admission.state.Staleness;
import io.quotaflow.dra.ClaimedDevices;
import io.quotaflow.dra.DeviceCharge;
import io.quotaflow.kube.PodAdapter;
import io.quotaflow.profile.NodePools;
import io.quotaflow.quota.QuotaPod;
import io.quotaflow.reason.Reason;
import io.quotaflow.reservation.LockedNodes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kube-scheduler extender's filter verb (SPEC 10). kube-scheduler posts {@code ExtenderArgs}
 * ({@code Pod}, and {@code Nodes} or, with {@code nodeCacheCapable}, {@code NodeNames}) and reads
 * {@code ExtenderFilterResult} ({@code Nodes}, {@code NodeNames}, {@code FailedNodes}, {@code
 * FailedAndUnresolvableNodes}, {@code Error}); the field names are Go's, capitalised, as the
 * scheduler's types carry no JSON tags.
 *
 * <p>Quota does not depend on the node, so a pod passes every candidate node or fails every one
 * with the same reason. A pod over its quota fails as unresolvable: preempting pods on a node would
 * not give its group room. The pod already exists: when the state lists it, it is counted in its
 * group's request and is not added again ({@link Occasion#SCHEDULE}). A pod that fits has its
 * request held in flight (renewed on each filter) until it is seen as used, so two pods scheduled
 * one after the other cannot take the same room.
 *
 * <p>Node reservations (docs/semantics.md section 14) do depend on the node: a pod that fits its
 * quota passes every candidate except the nodes another group's reservation locks, which fail as
 * unresolvable with a reason naming that group. Pods of excluded namespaces, of the system group
 * and of DaemonSets pass locked nodes too, and so does every pod in {@code warn} mode.
 *
 * <p>Quota trees per node pool (docs/semantics.md section 15): a pod whose group is in a profile's
 * tree fails, as unresolvable, every candidate outside the nodes its profile selects, with a reason
 * naming the tree, the profile and the group; the same pods as above are exempt.
 */
public final class SchedulerFilter implements ClusterEndpoint<SchedulerFilter.Args> {

  /**
   * The parsed {@code ExtenderArgs}.
   *
   * @param pod the pod being scheduled
   * @param nodeList the {@code Nodes} object when sent
   * @param nodeNames the {@code NodeNames} when sent
   * @param candidates every candidate node's name, in the order sent
   * @param sentLabels the labels of each node sent in {@code Nodes}, by name
   */
  record Args(
      Pod pod,
      Optional<ObjectNode> nodeList,
      Optional<List<String>> nodeNames,
      List<String> candidates,
      Map<String, Map<String, String>> sentLabels) {}

  private final PodCheck check;
  private final DeniedPods denied;
  private final PendingPods pending;
  private final Clock clock;

  /**
   * @param denied counts the pods left without any node, by reason
   * @param pending keeps why each pod left without a node waits
   */
  public SchedulerFilter(PodCheck check, DeniedPods denied, PendingPods pending, Clock clock) {
    this.check = check;
    this.denied = denied;
    this.pending = pending;
    this.clock = clock;
  }

  /**
   * This filter for callers who proved nothing (issue 39.7): it answers as this one does, but holds
   * nothing in flight and records neither denials nor pending pods; its name in metrics and logs
   * says so.
   */
  public SchedulerFilter judgingOnly() {
    return new SchedulerFilter(check.judgingOnly(), denied, pending, clock);
  }

  @Override
  public String name() {
    return check.trusted() ? "scheduler-filter" : "scheduler-filter-unauthenticated";
  }

  @Override
  public Args parse(byte[] body) throws BadRequestException {
    // The pod may be as large as the API server stores: what no check reads is left out.
    final ObjectNode root = Json.parseObject(body, UnreadFields.EXTENDER_ARGS);
    final JsonNode podNode = root.get("Pod");
    if (podNode == null || !podNode.isObject()) {
      throw new BadRequestException("ExtenderArgs.Pod is missing");
    }
    final Pod pod = Json.convert(podNode, Pod.class, "ExtenderArgs.Pod");
    if (pod.getMetadata() == null
        || pod.getMetadata().getName() == null
        || pod.getMetadata().getName().isEmpty()) {
      throw new BadRequestException("ExtenderArgs.Pod.metadata.name is missing");
    }
    final List<String> candidates = new ArrayList<>();
    final Map<String, Map<String, String>> sentLabels = new HashMap<>();
    final JsonNode nodes = root.get("Nodes");
    Optional<ObjectNode> nodeList = Optional.empty();
    if (nodes != null && !nodes.isNull()) {
      if (!nodes.isObject() || !(nodes.path("items").isArray() || nodes.path("items").isNull())) {
        throw new BadRequestException("ExtenderArgs.Nodes must be a NodeList with items");
      }
      for (final JsonNode item : nodes.path("items")) {
        final JsonNode name = item.path("metadata").path("name");
        if (!name.isTextual() || name.asText().isEmpty()) {
          throw new BadRequestException("a node of ExtenderArgs.Nodes has no metadata.name");
        }
        candidates.add(name.asText());
        final JsonNode labels = item.path("metadata").path("labels");
        if (labels.isObject()) {
          final Map<String, String> read = new HashMap<>();
          labels
              .fields()
              .forEachRemaining(label -> read.put(label.getKey(), label.getValue().asText()));
          sentLabels.put(name.asText(), Map.copyOf(read));
        }
      }
      nodeList = Optional.of((ObjectNode) nodes);
    }
    final JsonNode names = root.get("NodeNames");
    Optional<List<String>> nodeNames = Optional.empty();
    if (names != null && !names.isNull()) {
      if (!names.isArray()) {
        throw new BadRequestException("ExtenderArgs.NodeNames must be a list of node names");
      }
      final List<String> list = new ArrayList<>();
      for (final JsonNode name : names) {
        if (!name.isTextual()) {
          throw new BadRequestException("ExtenderArgs.NodeNames must be a list of node names");
        }
        list.add(name.asText());
      }
      nodeNames = Optional.of(List.copyOf(list));
      if (nodeList.isEmpty()) {
        candidates.addAll(list);
      }
    }
    if (nodeList.isEmpty() && nodeNames.isEmpty()) {
      throw new BadRequestException("ExtenderArgs has neither Nodes nor NodeNames");
    }
    return new Args(pod, nodeList, nodeNames, List.copyOf(candidates), Map.copyOf(sentLabels));
  }

  @Override
  public Answer decide(String cluster, Args args, ClusterView view) {
    final DeviceCharge devices = view.claims(args.pod());
    final QuotaPod pod = ClaimedDevices.withCharge(PodAdapter.toQuotaPod(args.pod()), devices);
    final PodCheck.Verdict verdict =
        check.check(cluster, pod, devices.unresolved(), view, Occasion.SCHEDULE);
    if (verdict.outcome() == PodCheck.Outcome.ALLOWED
        && check.config().mode() == AdmissionMode.ENFORCE
        && !isDaemonSetPod(args.pod())) {
      final Map<String, String> refused = new LinkedHashMap<>();
      final NodePools pools = view.nodePools();
      if (!pools.isEmpty()) {
        final String tree = view.treeOf(verdict.group());
        for (final String node : args.candidates()) {
          pools
              .refusal(verdict.group(), tree, node, labels(args, node, view))
              .ifPresent(reason -> refused.put(node, reason));
        }
      }
      final boolean outsidePool = !refused.isEmpty();
      final LockedNodes locks = view.lockedNodes();
      if (!locks.isEmpty()) {
        for (final String node : args.candidates()) {
          if (!refused.containsKey(node)) {
            locks.refusal(verdict.group(), node).ifPresent(reason -> refused.put(node, reason));
          }
        }
      }
      if (!refused.isEmpty()) {
        final Reason reason = outsidePool ? Reason.OUTSIDE_POOL : Reason.NODE_RESERVED;
        if (refused.size() == args.candidates().size()) {
          // No node is left: the pod waits, for the first check that refused nodes.
          noNodeLeft(
              cluster,
              pod,
              verdict.group(),
              reason,
              "no candidate node is left: " + reason.code() + " refused every one");
        } else {
          passed(cluster, pod);
        }
        return Answer.json(
            200, failSome(args, refused), outsidePool ? "outside-pool" : "locked-nodes");
      }
    }
    if (verdict.outcome() != PodCheck.Outcome.DENIED) {
      passed(cluster, pod);
      return Answer.json(200, passAll(args), verdict.outcome().label());
    }
    final Reason reason = verdict.reason().orElseThrow();
    final String message = failedNodeMessage(verdict);
    noNodeLeft(cluster, pod, verdict.group(), reason, message);
    // Devices not known yet are known by a later attempt: the scheduler should ask again.
    return Answer.json(200, failAll(args, message, reason != Reason.DEVICES_UNKNOWN), "denied");
  }

  /**
   * What every node fails with when the pod does not fit its quota: the code of the first failing
   * check first, for scripts (as the node refusals of {@code NodePools} and {@code LockedNodes}),
   * then the whole verdict for people.
   */
  static String failedNodeMessage(PodCheck.Verdict verdict) {
    return "quotaflow: "
        + verdict.reason().orElseThrow().code()
        + ": pod does not fit quota group "
        + verdict.group()
        + ": "
        + verdict.message();
  }

  /** The pod is no longer pending for a reason of quotaflow's (recorded for trusted callers). */
  private void passed(String cluster, QuotaPod pod) {
    if (check.trusted()) {
      pending.allowed(cluster, pod.ref());
    }
  }

  /** The pod is left without a node: recorded for trusted callers only. */
  private void noNodeLeft(
      String cluster, QuotaPod pod, String group, Reason reason, String message) {
    if (!check.trusted()) {
      return;
    }
    denied.denied(cluster, pod, group, reason, message, DeniedPods.Occasion.FILTER, false);
    pending.refused(cluster, pod.ref(), group, reason, clock.instant());
  }

  @Override
  public Answer cannotDecide(String cluster, Args args, String reason) {
    final String message = FailureAnswers.reason(cluster, reason);
    if (check.config().failurePolicy() == FailurePolicy.FAIL_OPEN) {
      return Answer.json(200, passAll(args), "fail-open");
    }
    // Resolvable: the scheduler tries the pod again later, when the state may be back.
    return Answer.json(
        200, failAll(args, message + " (failure policy fail-closed)", false), "fail-closed");
  }

  @Override
  public Answer allowUnchecked(Args args) {
    return Answer.json(200, passAll(args), "off");
  }

  @Override
  public Answer stale(Answer answer, String cluster, Staleness staleness, String reason) {
    return StaleAnswers.filter(answer, cluster, staleness, reason);
  }

  /**
   * A candidate's labels: those the scheduler sent with the node (the freshest), else those the
   * engine last read.
   */
  private static Optional<Map<String, String>> labels(Args args, String node, ClusterView view) {
    final Map<String, String> sent = args.sentLabels().get(node);
    return sent != null ? Optional.of(sent) : view.nodeLabels(node);
  }

  /** A pod of a DaemonSet runs on every node it selects, locked or outside its pool. */
  private static boolean isDaemonSetPod(Pod pod) {
    return pod.getMetadata().getOwnerReferences() != null
        && pod.getMetadata().getOwnerReferences().stream()
            .anyMatch(owner -> "DaemonSet".equals(owner.getKind()));
  }

  /** The candidates of {@code refused} fail as unresolvable with their reasons; the rest pass. */
  static ObjectNode failSome(Args args, Map<String, String> refused) {
    final ObjectNode result = Json.object();
    if (args.nodeList().isPresent()) {
      final ObjectNode list = args.nodeList().get().deepCopy();
      final ArrayNode items = list.putArray("items");
      for (final JsonNode item : args.nodeList().get().path("items")) {
        if (!refused.containsKey(item.path("metadata").path("name").asText())) {
          items.add(item.deepCopy());
        }
      }
      result.set("Nodes", list);
    } else {
      result.putNull("Nodes");
    }
    if (args.nodeNames().isPresent()) {
      final ArrayNode names = result.putArray("NodeNames");
      args.nodeNames().get().stream()
          .filter(name -> !refused.containsKey(name))
          .forEach(names::add);
    } else {
      result.putNull("NodeNames");
    }
    result.putObject("FailedNodes");
    final ObjectNode unresolvable = result.putObject("FailedAndUnresolvableNodes");
    refused.forEach(unresolvable::put);
    result.put("Error", "");
    return result;
  }

  /** Every candidate passes. */
  static ObjectNode passAll(Args args) {
    final ObjectNode result = Json.object();
    if (args.nodeList().isPresent()) {
      result.set("Nodes", args.nodeList().get().deepCopy());
    } else {
      result.putNull("Nodes");
    }
    if (args.nodeNames().isPresent()) {
      final ArrayNode names = result.putArray("NodeNames");
      args.nodeNames().get().forEach(names::add);
    } else {
      result.putNull("NodeNames");
    }
    result.putObject("FailedNodes");
    result.putObject("FailedAndUnresolvableNodes");
    result.put("Error", "");
    return result;
  }

  /** Every candidate fails with {@code reason}, as unresolvable or not. */
  static ObjectNode failAll(Args args, String reason, boolean unresolvable) {
    final ObjectNode result = Json.object();
    if (args.nodeList().isPresent()) {
      final ObjectNode list = args.nodeList().get().deepCopy();
      list.putArray("items");
      result.set("Nodes", list);
    } else {
      result.putNull("Nodes");
    }
    if (args.nodeNames().isPresent()) {
      result.putArray("NodeNames");
    } else {
      result.putNull("NodeNames");
    }
    final ObjectNode failed = result.putObject("FailedNodes");
    final ObjectNode unresolvableNodes = result.putObject("FailedAndUnresolvableNodes");
    for (final String node : args.candidates()) {
      (unresolvable ? unresolvableNodes : failed).put(node, reason);
    }
    result.put("Error", "");
    return result;
  }
}
