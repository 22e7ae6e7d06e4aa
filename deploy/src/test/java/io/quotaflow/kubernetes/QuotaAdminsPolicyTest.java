package io.quotaflow.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.list;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.Validation;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.Variable;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.quotaflow.kube.QuotaLabels;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * docs/security.md ships the quotas webhook's admin rule as a ValidatingAdmissionPolicy
 * (components/quota-admins-policy). Its CEL is evaluated here as the API server would (Google's CEL
 * for Java with the strings extension Kubernetes enables): each attack a tenant tries on its
 * ElasticQuota is denied with a message naming what it changed, the writes quotaflow's connectors
 * and a quota admin make are not judged, and the keys it guards are the ones quotaflow reads.
 */
class QuotaAdminsPolicyTest {

  private static final Path POLICY =
      Path.of("kubernetes/components/quota-admins-policy/quota-admins-policy.yaml");
  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final CelCompiler COMPILER =
      CelCompilerFactory.standardCelCompilerBuilder()
          .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
          .addLibraries(CelExtensions.strings())
          .addVar("request", SimpleType.DYN)
          .addVar("object", SimpleType.DYN)
          .addVar("oldObject", SimpleType.DYN)
          .addVar("variables", SimpleType.DYN)
          .build();
  private static final CelRuntime RUNTIME =
      CelRuntimeFactory.standardCelRuntimeBuilder().addLibraries(CelExtensions.strings()).build();

  private static final String TENANT = "system:serviceaccount:team-b:deployer";

  private static final ValidatingAdmissionPolicy POLICY_OBJECT = policy();

  private static ValidatingAdmissionPolicy policy() {
    try (InputStream in = Files.newInputStream(POLICY)) {
      final List<HasMetadata> objects = JSON.unmarshal(in);
      assertThat(objects)
          .hasSize(2)
          .anySatisfy(o -> assertThat(o).isInstanceOf(ValidatingAdmissionPolicyBinding.class));
      return objects.stream()
          .filter(ValidatingAdmissionPolicy.class::isInstance)
          .map(ValidatingAdmissionPolicy.class::cast)
          .findFirst()
          .orElseThrow();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aTenantRaisingItsMaxIsDenied() {
    assertThat(judge(TENANT, "UPDATE", quota().max("20"), quota().max("10")))
        .contains("only quota admins may change spec.min or spec.max of an ElasticQuota");
  }

  @Test
  void aTenantReParentingItsGroupIsDeniedNamingTheLabel() {
    assertThat(
            judge(
                TENANT,
                "UPDATE",
                quota().label(QuotaLabels.PARENT, "koordinator-root-quota"),
                quota().label(QuotaLabels.PARENT, "dept-b")))
        .contains(
            "only quota admins may change the labels quota.scheduling.koordinator.sh/parent of an"
                + " ElasticQuota");
  }

  @Test
  void aTenantSettingPrivilegedAnnotationsIsDeniedNamingThem() {
    assertThat(
            judge(
                TENANT,
                "UPDATE",
                quota()
                    .annotation(QuotaLabels.SHARED_WEIGHT, "{\"cpu\":\"1000\"}")
                    .annotation(QuotaLabels.NAMESPACE_SELECTOR, "{}"),
                quota()))
        .contains(
            "only quota admins may change the annotations"
                + " quota.scheduling.koordinator.sh/shared-weight, quotaflow.io/namespace-selector"
                + " of an ElasticQuota");
  }

  @Test
  void aTenantSettingAllowForceUpdateIsDenied() {
    assertThat(
            judge(TENANT, "UPDATE", quota().label(QuotaLabels.ALLOW_FORCE_UPDATE, "true"), quota()))
        .hasValueSatisfying(m -> assertThat(m).contains(QuotaLabels.ALLOW_FORCE_UPDATE));
  }

  @Test
  void aTenantCreatingOrDeletingAQuotaIsDenied() {
    assertThat(judge(TENANT, "CREATE", quota(), null))
        .contains("only quota admins may create or delete ElasticQuotas");
    assertThat(judge(TENANT, "DELETE", null, quota()))
        .contains("only quota admins may create or delete ElasticQuotas");
  }

  @Test
  void statusAndRuntimeAnnotationsMayBeWrittenByAnyone() {
    assertThat(
            judge(
                TENANT,
                "UPDATE",
                quota().annotation("quota.scheduling.koordinator.sh/runtime", "{\"cpu\":\"3\"}"),
                quota()))
        .isEmpty();
  }

  @Test
  void quotaAdminsAndTheConnectorsAreNotJudged() {
    final Map<String, Object> admin =
        request("kubernetes-admin", List.of("system:masters"), "UPDATE");
    final Map<String, Object> connectors =
        request("system:serviceaccount:quotaflow:quotaflow-connectors", List.of(), "UPDATE");

    assertThat(matches(admin, quota().max("20").json(), quota().json())).isFalse();
    assertThat(matches(connectors, quota().max("20").json(), quota().json())).isFalse();
    assertThat(matches(request(TENANT, List.of(), "UPDATE"), quota().json(), quota().json()))
        .isTrue();
  }

  @Test
  void thePolicyGuardsEveryKeyQuotaflowReads() {
    final Map<String, Object> keys = variables(request(TENANT, List.of(), "UPDATE"), null, null);

    assertThat(keys.get("labelKeys"))
        .asInstanceOf(list(Object.class))
        .containsExactlyInAnyOrder(
            QuotaLabels.PARENT,
            QuotaLabels.PARENT_QUOTA_NAME,
            QuotaLabels.IS_PARENT,
            QuotaLabels.ALLOW_LENT_RESOURCE,
            QuotaLabels.TREE_ID,
            QuotaLabels.ALLOW_FORCE_UPDATE);
    assertThat(keys.get("annotationKeys"))
        .asInstanceOf(list(Object.class))
        .containsExactlyInAnyOrder(
            QuotaLabels.SHARED_WEIGHT,
            QuotaLabels.NAMESPACES,
            QuotaLabels.MAX_STRICT_CHECK_RESOURCE_KEYS,
            QuotaLabels.ALLOW_FORCE_UPDATE,
            QuotaLabels.LENDING_LIMIT,
            QuotaLabels.BORROWING_LIMIT,
            QuotaLabels.RESERVATION,
            QuotaLabels.NAMESPACE_SELECTOR);
  }

  // --- The API server's evaluation, as far as this policy needs it ------------------------------

  /** The first failed validation's message, or empty when the request is admitted. */
  private static Optional<String> judge(
      String user, String operation, QuotaJson object, QuotaJson oldObject) {
    final Map<String, Object> request = request(user, List.of(), operation);
    final Map<String, Object> newJson = object == null ? null : object.json();
    final Map<String, Object> oldJson = oldObject == null ? null : oldObject.json();
    if (!matches(request, newJson, oldJson)) {
      return Optional.empty();
    }
    final Map<String, Object> input = input(request, newJson, oldJson);
    input.put("variables", variables(request, newJson, oldJson));
    for (final Validation validation : POLICY_OBJECT.getSpec().getValidations()) {
      if (!Boolean.TRUE.equals(eval(validation.getExpression(), input))) {
        return Optional.of(
            validation.getMessageExpression() == null
                ? validation.getMessage()
                : (String) eval(validation.getMessageExpression(), input));
      }
    }
    return Optional.empty();
  }

  private static boolean matches(
      Map<String, Object> request, Map<String, Object> object, Map<String, Object> oldObject) {
    final Map<String, Object> input = input(request, object, oldObject);
    return POLICY_OBJECT.getSpec().getMatchConditions().stream()
        .allMatch(condition -> Boolean.TRUE.equals(eval(condition.getExpression(), input)));
  }

  private static Map<String, Object> variables(
      Map<String, Object> request, Map<String, Object> object, Map<String, Object> oldObject) {
    final Map<String, Object> input = input(request, object, oldObject);
    final Map<String, Object> variables = new LinkedHashMap<>();
    input.put("variables", variables);
    for (final Variable variable : POLICY_OBJECT.getSpec().getVariables()) {
      variables.put(variable.getName(), eval(variable.getExpression(), input));
    }
    return variables;
  }

  private static Map<String, Object> input(
      Map<String, Object> request, Map<String, Object> object, Map<String, Object> oldObject) {
    final Map<String, Object> input = new HashMap<>();
    input.put("request", request);
    input.put("object", object);
    input.put("oldObject", oldObject);
    input.put("variables", Map.of());
    return input;
  }

  private static Object eval(String expression, Map<String, Object> input) {
    try {
      final CelAbstractSyntaxTree ast = COMPILER.compile(expression).getAst();
      return RUNTIME.createProgram(ast).eval(input);
    } catch (CelValidationException | CelEvaluationException e) {
      throw new AssertionError("CEL " + expression + ": " + e.getMessage(), e);
    }
  }

  private static Map<String, Object> request(String user, List<String> groups, String operation) {
    final Map<String, Object> userInfo = new HashMap<>();
    userInfo.put("username", user);
    userInfo.put("groups", groups);
    final Map<String, Object> request = new HashMap<>();
    request.put("operation", operation);
    request.put("userInfo", userInfo);
    return request;
  }

  private static QuotaJson quota() {
    return new QuotaJson();
  }

  /** team-b's ElasticQuota as JSON, as the API server hands it to CEL. */
  private static final class QuotaJson {
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final Map<String, String> annotations = new LinkedHashMap<>();
    private String max = "10";

    QuotaJson max(String cpu) {
      max = cpu;
      return this;
    }

    QuotaJson label(String key, String value) {
      labels.put(key, value);
      return this;
    }

    QuotaJson annotation(String key, String value) {
      annotations.put(key, value);
      return this;
    }

    Map<String, Object> json() {
      final Map<String, Object> metadata = new HashMap<>();
      metadata.put("name", "team-b");
      metadata.put("namespace", "beta");
      if (!labels.isEmpty()) {
        metadata.put("labels", new HashMap<>(labels));
      }
      if (!annotations.isEmpty()) {
        metadata.put("annotations", new HashMap<>(annotations));
      }
      final Map<String, Object> spec = new HashMap<>();
      spec.put("min", Map.of("cpu", "5"));
      spec.put("max", Map.of("cpu", max));
      final Map<String, Object> quota = new HashMap<>();
      quota.put("apiVersion", "scheduling.sigs.k8s.io/v1alpha1");
      quota.put("kind", "ElasticQuota");
      quota.put("metadata", metadata);
      quota.put("spec", spec);
      return quota;
    }
  }
}
