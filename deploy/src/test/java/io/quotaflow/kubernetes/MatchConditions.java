package io.quotaflow.kubernetes;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchCondition;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A webhook's {@code matchConditions} evaluated as the API server evaluates them, with Google's CEL
 * for Java: the variables {@code request} (the AdmissionRequest), {@code object} and {@code
 * oldObject}, each condition a bool, and the webhook called only when every condition is true. An
 * error in a condition is an error (the API server would then apply the failure policy).
 */
final class MatchConditions {

  private static final KubernetesSerialization KUBERNETES_JSON = new KubernetesSerialization();
  private static final MapType OBJECT = MapType.create(SimpleType.STRING, SimpleType.DYN);
  private static final CelCompiler COMPILER =
      CelCompilerFactory.standardCelCompilerBuilder()
          .addVar("request", OBJECT)
          .addVar("object", SimpleType.DYN)
          .addVar("oldObject", SimpleType.DYN)
          .setResultType(SimpleType.BOOL)
          .build();
  private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder().build();

  private final List<CelRuntime.Program> programs;

  private MatchConditions(final List<CelRuntime.Program> programs) {
    this.programs = programs;
  }

  /** The webhook's conditions, compiled and type-checked (a typo fails here, as on apply). */
  static MatchConditions of(final ValidatingWebhook webhook) {
    return new MatchConditions(
        webhook.getMatchConditions().stream().map(MatchConditions::compile).toList());
  }

  /** Whether the API server calls the webhook for {@code request}. */
  boolean calls(final AdmissionRequest request) {
    final Map<String, Object> variables = new HashMap<>();
    variables.put("request", KUBERNETES_JSON.convertValue(request, Map.class));
    variables.put("object", asMap(request.getObject()));
    variables.put("oldObject", asMap(request.getOldObject()));
    for (final CelRuntime.Program program : programs) {
      try {
        if (!Boolean.TRUE.equals(program.eval(variables))) {
          return false;
        }
      } catch (final CelEvaluationException e) {
        throw new AssertionError("a match condition failed to evaluate: " + e.getMessage(), e);
      }
    }
    return true;
  }

  private static Map<?, ?> asMap(final Object object) {
    return object == null ? Map.of() : KUBERNETES_JSON.convertValue(object, Map.class);
  }

  private static CelRuntime.Program compile(final MatchCondition condition) {
    try {
      final CelAbstractSyntaxTree ast = COMPILER.compile(condition.getExpression()).getAst();
      return RUNTIME.createProgram(ast);
    } catch (final CelValidationException | CelEvaluationException e) {
      throw new AssertionError(
          "match condition " + condition.getName() + " does not compile: " + e.getMessage(), e);
    }
  }
}
