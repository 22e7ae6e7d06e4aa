package io.quotaflow.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.quotaflow.kube.ElasticQuotaApi;
import io.quotaflow.quota.Quantities;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The ElasticQuota CRD of {@code deploy/kubernetes/components/elasticquota-crd}, checked as a real
 * API server checks it (the fabric8 mock server checks nothing): the approval annotation a CRD of a
 * protected group needs, a structural schema, and the same definition as Koordinator's in every
 * part quotaflow reads or writes, so that quotaflow runs alike on Koordinator's CRD and on ours.
 */
class ElasticQuotaCrdTest {

  private static final Path KUBERNETES = Path.of("kubernetes");
  private static final Path COMPONENT = KUBERNETES.resolve("components/elasticquota-crd");
  private static final String APPROVAL = "api-approved.kubernetes.io";
  private static final KubernetesSerialization KUBERNETES_JSON = new KubernetesSerialization();
  // Strict as kubectl: a key repeated in a shipped file is an error here, not the last one winning.
  private static final ObjectMapper YAML =
      new ObjectMapper(
          YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());

  /** Koordinator's ElasticQuota CRD (config/crd/bases), as far as quotaflow depends on it. */
  private static final class Koordinator {
    /** Upstream's annotation: the scheduler-plugins review that approved the API. */
    static final String APPROVED_BY =
        "https://github.com/kubernetes-sigs/scheduler-plugins/pull/52";

    /** The schema of a resource.Quantity map value, as controller-gen writes it. */
    static final String QUANTITY_PATTERN =
        "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?"
            + "(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

    /** Upstream's openAPIV3Schema without its descriptions. */
    static final String SCHEMA =
        """
        {"type": "object",
         "properties": {
           "apiVersion": {"type": "string"},
           "kind": {"type": "string"},
           "metadata": {"type": "object"},
           "spec": {"type": "object", "properties": {
             "min": {"type": "object", "additionalProperties": QUANTITY},
             "max": {"type": "object", "additionalProperties": QUANTITY}}},
           "status": {"type": "object", "properties": {
             "used": {"type": "object", "additionalProperties": QUANTITY}}}}}
        """
            .replace(
                "QUANTITY",
                "{\"anyOf\": [{\"type\": \"integer\"}, {\"type\": \"string\"}],"
                    + " \"pattern\": \""
                    + QUANTITY_PATTERN.replace("\\", "\\\\")
                    + "\", \"x-kubernetes-int-or-string\": true}");
  }

  private final CustomResourceDefinition crd = crd();

  @Test
  void theCrdOfAProtectedGroupCarriesTheApprovalAnnotationAsTheApiServerRequires() {
    assertThat(crd.getSpec().getGroup()).isEqualTo(ElasticQuotaApi.GROUP);
    assertThat(isProtected(crd.getSpec().getGroup())).as("scheduling.sigs.k8s.io").isTrue();
    assertThat(approvalProblems(crd)).isEmpty();
    assertThat(crd.getMetadata().getAnnotations()).containsEntry(APPROVAL, Koordinator.APPROVED_BY);
  }

  @Test
  void theApprovalCheckRejectsWhatTheApiServerRejects() {
    final CustomResourceDefinition without =
        new CustomResourceDefinitionBuilder(crd)
            .editMetadata()
            .withAnnotations(Map.of())
            .endMetadata()
            .build();
    final CustomResourceDefinition notAUrl = approvedAs("approved by us");
    final CustomResourceDefinition unapproved = approvedAs("unapproved, experimental only");
    final CustomResourceDefinition elsewhere =
        new CustomResourceDefinitionBuilder(without)
            .editSpec()
            .withGroup("quotas.example.com")
            .endSpec()
            .build();

    assertThat(approvalProblems(without)).singleElement().asString().contains("protected group");
    assertThat(approvalProblems(notAUrl)).singleElement().asString().contains("URL");
    assertThat(approvalProblems(unapproved)).isEmpty();
    assertThat(approvalProblems(elsewhere)).isEmpty();
    assertThat(isProtected("k8s.io")).isTrue();
    assertThat(isProtected("x.kubernetes.io")).isTrue();
    assertThat(isProtected("k8s.io.example.com")).isFalse();
  }

  @Test
  void theSchemaIsStructural() {
    final CustomResourceDefinitionVersion version = onlyVersion();
    final List<String> problems = new ArrayList<>();
    final JSONSchemaProps root = version.getSchema().getOpenAPIV3Schema();

    structural(root, "openAPIV3Schema", problems);

    assertThat(problems).isEmpty();
    assertThat(root.getType()).isEqualTo("object");
    assertThat(root.getProperties().get("metadata").getProperties())
        .as("metadata may only restrict name and generateName")
        .isNullOrEmpty();
  }

  @Test
  void theStructuralCheckFindsWhatTheApiServerRejects() {
    final List<String> problems = new ArrayList<>();
    final JSONSchemaProps untyped = new JSONSchemaProps();
    untyped.setProperties(Map.of("min", new JSONSchemaProps()));
    final JSONSchemaProps typedInAnyOf = new JSONSchemaProps();
    typedInAnyOf.setType("object");
    final JSONSchemaProps branch = new JSONSchemaProps();
    branch.setType("string");
    branch.setDescription("no descriptions in junctors");
    typedInAnyOf.setAnyOf(List.of(branch));

    structural(untyped, "a", problems);
    structural(typedInAnyOf, "b", problems);

    assertThat(problems)
        .anySatisfy(problem -> assertThat(problem).contains("a", "must have a type"))
        .anySatisfy(problem -> assertThat(problem).contains("a.properties[min]", "type"))
        .anySatisfy(problem -> assertThat(problem).contains("b.anyOf[0]"));
  }

  @Test
  void theDefinitionIsKoordinatorsInNamesSchemaColumnsAndSubresources() throws IOException {
    final CustomResourceDefinitionVersion version = onlyVersion();

    assertThat(crd.getMetadata().getName()).isEqualTo("elasticquotas." + ElasticQuotaApi.GROUP);
    assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
    assertThat(crd.getSpec().getNames().getKind()).isEqualTo(ElasticQuotaApi.KIND);
    assertThat(crd.getSpec().getNames().getListKind()).isEqualTo("ElasticQuotaList");
    assertThat(crd.getSpec().getNames().getPlural()).isEqualTo("elasticquotas");
    assertThat(crd.getSpec().getNames().getSingular()).isEqualTo("elasticquota");
    assertThat(crd.getSpec().getNames().getShortNames())
        .as("upstream has none: scripts must not depend on one")
        .isNullOrEmpty();
    assertThat(ElasticQuotaApi.API_VERSION)
        .isEqualTo(crd.getSpec().getGroup() + "/" + version.getName());
    assertThat(version.getServed()).isTrue();
    assertThat(version.getStorage()).isTrue();
    assertThat(version.getSubresources())
        .as("no status subresource: status.used is written on the object, as on Koordinator's")
        .isNull();
    assertThat(version.getAdditionalPrinterColumns()).as("upstream has none").isNullOrEmpty();

    final JsonNode schema =
        withoutDescriptions(
            KUBERNETES_JSON.convertValue(version.getSchema().getOpenAPIV3Schema(), JsonNode.class));
    assertThat(schema).isEqualTo(new ObjectMapper().readTree(Koordinator.SCHEMA));
  }

  @Test
  void everyQuantityQuotaflowWritesMatchesTheSchemasPattern() {
    final Pattern quantity = Pattern.compile(Koordinator.QUANTITY_PATTERN);
    for (final long amount : List.of(0L, 1L, 1500L, 2000L, 3L << 30, 1_000_000_000L, 7L << 40)) {
      for (final String resource : List.of("cpu", "memory", "nvidia.com/gpu", "pods")) {
        final String text = Quantities.format(resource, amount);
        assertThat(quantity.matcher(text).matches()).as("%s %s", resource, text).isTrue();
      }
    }
  }

  @Test
  void onlyOverlaysThatIncludeTheComponentInstallTheCrd() throws IOException {
    final JsonNode component = YAML.readTree(COMPONENT.resolve("kustomization.yaml").toFile());
    assertThat(component.path("kind").asText()).isEqualTo("Component");
    assertThat(component.path("resources").get(0).asText()).isEqualTo("elasticquota-crd.yaml");
    try (Stream<Path> files = Files.list(KUBERNETES.resolve("base"))) {
      assertThat(files.filter(file -> read(file).contains("kind: CustomResourceDefinition")))
          .as("base installs no CRD")
          .isEmpty();
    }
    // Dev and production issue the callers' client certificates too (issue 39.7).
    assertThat(components("dev"))
        .containsExactly(
            "../../components/elasticquota-crd", "../../components/client-certificates");
    // Production uses Koordinator's CRD; its components are Kafka over TLS (issue 25) and the
    // callers' client certificates (issue 39.7).
    assertThat(components("production"))
        .containsExactly(
            "../../components/kafka-scram-tls", "../../components/client-certificates");
    assertThat(components("shadow")).isEmpty();
  }

  /** What the API server says about the approval annotation; empty when it is accepted. */
  static List<String> approvalProblems(final CustomResourceDefinition definition) {
    if (!isProtected(definition.getSpec().getGroup())) {
      return List.of();
    }
    final Map<String, String> annotations = definition.getMetadata().getAnnotations();
    final String value = annotations == null ? null : annotations.get(APPROVAL);
    if (value == null) {
      return List.of(
          "a CRD in the protected group "
              + definition.getSpec().getGroup()
              + " must have the annotation "
              + APPROVAL);
    }
    if (value.startsWith("unapproved")) {
      return List.of();
    }
    try {
      final URI url = new URI(value);
      if (url.getScheme() != null && url.getHost() != null) {
        return List.of();
      }
    } catch (URISyntaxException e) {
      // Reported below.
    }
    return List.of(APPROVAL + " must be a URL or start with \"unapproved\": " + value);
  }

  /** Groups the API server protects: k8s.io, kubernetes.io and their subdomains. */
  static boolean isProtected(final String group) {
    return List.of("k8s.io", "kubernetes.io").stream()
        .anyMatch(domain -> group.equals(domain) || group.endsWith("." + domain));
  }

  /**
   * The rules of a structural schema: every node has a type (int-or-string and
   * preserve-unknown-fields excepted); the only junctor is int-or-string's {@code anyOf} of integer
   * and string, and nothing in a junctor carries a type, description or default; a node has
   * properties or additionalProperties, not both.
   */
  static void structural(final JSONSchemaProps node, final String path, final List<String> out) {
    final boolean intOrString = Boolean.TRUE.equals(node.getXKubernetesIntOrString());
    final boolean preserve = Boolean.TRUE.equals(node.getXKubernetesPreserveUnknownFields());
    if (!intOrString && !preserve && (node.getType() == null || node.getType().isEmpty())) {
      out.add(path + " must have a type");
    }
    if (node.getAnyOf() != null && !node.getAnyOf().isEmpty()) {
      final boolean intOrStringJunctor =
          intOrString
              && node.getAnyOf().size() == 2
              && "integer".equals(node.getAnyOf().get(0).getType())
              && "string".equals(node.getAnyOf().get(1).getType());
      for (int i = 0; i < node.getAnyOf().size(); i++) {
        final JSONSchemaProps branch = node.getAnyOf().get(i);
        if ((!intOrStringJunctor && branch.getType() != null)
            || branch.getDescription() != null
            || branch.getDefault() != null
            || branch.getAdditionalProperties() != null) {
          out.add(path + ".anyOf[" + i + "] may not carry a type, description or default");
        }
      }
    }
    if ((node.getAllOf() != null && !node.getAllOf().isEmpty())
        || (node.getOneOf() != null && !node.getOneOf().isEmpty())
        || node.getNot() != null) {
      out.add(path + " uses allOf, oneOf or not, which this CRD does not need");
    }
    final boolean hasProperties = node.getProperties() != null && !node.getProperties().isEmpty();
    if (hasProperties && node.getAdditionalProperties() != null) {
      out.add(path + " has both properties and additionalProperties");
    }
    if (hasProperties) {
      node.getProperties()
          .forEach((name, child) -> structural(child, path + ".properties[" + name + "]", out));
    }
    if (node.getAdditionalProperties() != null
        && node.getAdditionalProperties().getSchema() != null) {
      structural(node.getAdditionalProperties().getSchema(), path + ".additionalProperties", out);
    }
    if (node.getItems() != null && node.getItems().getSchema() != null) {
      structural(node.getItems().getSchema(), path + ".items", out);
    }
  }

  private CustomResourceDefinition approvedAs(final String value) {
    return new CustomResourceDefinitionBuilder(crd)
        .editMetadata()
        .withAnnotations(Map.of(APPROVAL, value))
        .endMetadata()
        .build();
  }

  private CustomResourceDefinitionVersion onlyVersion() {
    assertThat(crd.getSpec().getVersions()).hasSize(1);
    return crd.getSpec().getVersions().get(0);
  }

  private static JsonNode withoutDescriptions(final JsonNode node) {
    if (node instanceof ObjectNode object) {
      object.remove("description");
      object.forEach(ElasticQuotaCrdTest::withoutDescriptions);
    } else if (node.isArray()) {
      node.forEach(ElasticQuotaCrdTest::withoutDescriptions);
    }
    return node;
  }

  private static List<String> components(final String overlay) throws IOException {
    final JsonNode kustomization =
        YAML.readTree(
            KUBERNETES.resolve("overlays").resolve(overlay).resolve("kustomization.yaml").toFile());
    final List<String> components = new ArrayList<>();
    kustomization.path("components").forEach(node -> components.add(node.asText()));
    return components;
  }

  private static CustomResourceDefinition crd() {
    try (InputStream in = Files.newInputStream(COMPONENT.resolve("elasticquota-crd.yaml"))) {
      return KUBERNETES_JSON.unmarshal(in, CustomResourceDefinition.class);
    } catch (final IOException e) {
      throw new AssertionError("cannot read the CRD", e);
    }
  }

  private static String read(final Path file) {
    try {
      return Files.readString(file);
    } catch (final IOException e) {
      throw new AssertionError("cannot read " + file, e);
    }
  }
}
