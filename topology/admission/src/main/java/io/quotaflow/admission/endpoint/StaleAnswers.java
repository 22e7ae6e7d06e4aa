package io.quotaflow.admission.endpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.state.Staleness;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * States, in an answer given from a cluster's last state instead of its live stores, how old that
 * state is. Only such answers pass here, so the live path writes its answers once.
 */
public final class StaleAnswers {

  /** Header of every answer from a last state: when that state was read (ISO-8601). */
  public static final String AS_OF_HEADER = "X-Quotaflow-State-As-Of";

  /** Header of every answer from a last state: its age in milliseconds. */
  public static final String AGE_HEADER = "X-Quotaflow-State-Age-Ms";

  /** Audit annotation key (the API server prefixes the webhook's name): when the state was read. */
  static final String AS_OF_ANNOTATION = "state-as-of";

  /** Audit annotation key: the age of the state in milliseconds. */
  static final String AGE_ANNOTATION = "state-age-ms";

  private StaleAnswers() {}

  /** The sentence stating the staleness, for people. */
  static String sentence(String cluster, Staleness staleness, String reason) {
    return "quotaflow answered from the last state of cluster "
        + cluster
        + " ("
        + staleness.describe()
        + "): "
        + reason;
  }

  /** The headers every answer from a last state carries. */
  public static Answer withHeaders(Answer answer, Staleness staleness) {
    return answer
        .withHeader(AS_OF_HEADER, staleness.asOf().toString())
        .withHeader(AGE_HEADER, Long.toString(staleness.age().toMillis()));
  }

  /** An AdmissionReview answer with a warning and audit annotations stating the staleness. */
  static Answer review(Answer answer, String cluster, Staleness staleness, String reason) {
    final ObjectNode root = object(answer);
    if (root == null || !(root.get("response") instanceof ObjectNode response)) {
      return answer;
    }
    final JsonNode existing = response.get("warnings");
    (existing instanceof ArrayNode warnings ? warnings : response.putArray("warnings"))
        .add(sentence(cluster, staleness, reason));
    final ObjectNode audit =
        response.get("auditAnnotations") instanceof ObjectNode annotations
            ? annotations
            : response.putObject("auditAnnotations");
    audit.put(AS_OF_ANNOTATION, staleness.asOf().toString());
    audit.put(AGE_ANNOTATION, Long.toString(staleness.age().toMillis()));
    return rewritten(answer, root);
  }

  /**
   * A scheduler filter answer whose failure reasons state the staleness. Passing nodes carry no
   * text in the extender protocol, and {@code Error} must stay empty (the scheduler would treat it
   * as the extender failing): there only the headers tell.
   */
  public static Answer filter(Answer answer, String cluster, Staleness staleness, String reason) {
    final ObjectNode root = object(answer);
    if (root == null) {
      return answer;
    }
    final String suffix = " (" + sentence(cluster, staleness, reason) + ")";
    boolean changed = false;
    for (final String field : new String[] {"FailedNodes", "FailedAndUnresolvableNodes"}) {
      if (root.get(field) instanceof ObjectNode failed) {
        final Iterator<Map.Entry<String, JsonNode>> nodes = failed.fields();
        while (nodes.hasNext()) {
          final Map.Entry<String, JsonNode> node = nodes.next();
          node.setValue(Json.MAPPER.getNodeFactory().textNode(node.getValue().asText() + suffix));
          changed = true;
        }
      }
    }
    return changed ? rewritten(answer, root) : answer;
  }

  /** A query API answer with {@code "staleness": {"asOf", "ageMillis", "reason"}}. */
  public static Answer query(Answer answer, Staleness staleness, String reason) {
    final ObjectNode root = object(answer);
    if (root == null) {
      return answer;
    }
    final ObjectNode field = root.putObject("staleness");
    field.put("asOf", staleness.asOf().toString());
    field.put("ageMillis", staleness.age().toMillis());
    field.put("reason", reason);
    return rewritten(answer, root);
  }

  private static ObjectNode object(Answer answer) {
    if (!answer.contentType().startsWith(Answer.JSON)) {
      return null;
    }
    try {
      return Json.MAPPER.readTree(answer.body()) instanceof ObjectNode root ? root : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static Answer rewritten(Answer answer, ObjectNode root) {
    return new Answer(
        answer.status(),
        answer.contentType(),
        Json.bytes(root),
        answer.outcome(),
        answer.headers());
  }
}
