package io.quotaflow.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestReaderTest {

  private static final String DRA_KINDS =
      ", DeviceClass, ResourceClaim, ResourceClaimTemplate and ResourceSlice (resource.k8s.io/v1)";

  private static final String POD =
      """
      apiVersion: v1
      kind: Pod
      metadata: {name: %s, namespace: team}
      spec:
        containers:
        - name: app
          resources: {requests: {cpu: %s}}
      """;

  private static final String NODE =
      """
      apiVersion: v1
      kind: Node
      metadata: {name: %s}
      status: {allocatable: {cpu: "32", memory: 128Gi}}
      """;

  private static final String QUOTA =
      """
      apiVersion: scheduling.sigs.k8s.io/v1alpha1
      kind: ElasticQuota
      metadata: {name: %s, namespace: quotas}
      spec: {min: {cpu: 1}, max: {cpu: 2}}
      """;

  @TempDir Path dir;

  private final List<String> warnings = new ArrayList<>();
  private final ManifestReader reader = new ManifestReader(warnings::add);

  @Test
  void readsEveryDocumentOfAMultiDocumentFileInOrder() throws Exception {
    final Path file =
        write(
            "all.yaml",
            QUOTA.formatted("team")
                + "---\n"
                + POD.formatted("p1", "1")
                + "---\n"
                + NODE.formatted("n1"));

    final List<Manifest> manifests = reader.read(List.of(file));

    assertThat(manifests)
        .extracting(m -> m.object().getClass().getSimpleName(), Manifest::document)
        .containsExactly(tuple("GenericKubernetesResource", 1), tuple("Pod", 2), tuple("Node", 3));
    assertThat(manifests.get(1).object()).isInstanceOf(Pod.class);
    assertThat(((Pod) manifests.get(1).object()).getMetadata().getName()).isEqualTo("p1");
    assertThat(manifests.get(0).file()).isEqualTo(file.toString());
    assertThat(warnings).isEmpty();
  }

  @Test
  void emptyDocumentsAndALeadingSeparatorAreCountedButYieldNothing() throws Exception {
    final Path file =
        write(
            "pods.yaml",
            "---\n"
                + POD.formatted("p1", "1")
                + "---\n# nothing\n---\n"
                + POD.formatted("p2", "1"));

    assertThat(reader.read(List.of(file))).extracting(Manifest::document).containsExactly(1, 3);
  }

  @Test
  void aListContributesItsItemsWithTheirIndex() throws Exception {
    final Path file =
        write(
            "list.yaml",
            """
            apiVersion: v1
            kind: List
            items:
            - apiVersion: v1
              kind: Node
              metadata: {name: n1}
            - apiVersion: v1
              kind: Pod
              metadata: {name: p1}
            """);

    final List<Manifest> manifests = reader.read(List.of(file));

    assertThat(manifests)
        .extracting(Manifest::document, Manifest::item)
        .containsExactly(tuple(1, OptionalInt.of(1)), tuple(1, OptionalInt.of(2)));
    assertThat(manifests.get(1).location()).isEqualTo(file + ", document 1, item 2");
  }

  @Test
  void theItemsOfATypedListTakeTheirKindFromTheList() throws Exception {
    final Path file =
        write(
            "nodes.yaml",
            """
            apiVersion: v1
            kind: NodeList
            items:
            - metadata: {name: n1}
            """);

    assertThat(reader.read(List.of(file)).get(0).object()).isInstanceOf(Node.class);
  }

  @Test
  void aDirectoryContributesItsManifestFilesInNameOrderAndNotItsSubdirectories() throws Exception {
    write("b.yml", POD.formatted("p-b", "1"));
    write(
        "a.json", "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"n\"}}");
    write("c.yaml", QUOTA.formatted("q"));
    write("notes.txt", "not a manifest");
    Files.createDirectories(dir.resolve("sub"));
    write("sub/d.yaml", POD.formatted("p-d", "1"));

    final List<Manifest> manifests = reader.read(List.of(dir));

    assertThat(manifests)
        .extracting(m -> m.object().getMetadata().getName())
        .containsExactly("n", "p-b", "q");
    assertThat(manifests.get(2).object()).isInstanceOf(GenericKubernetesResource.class);
  }

  @Test
  void severalPathsAreReadInTheGivenOrder() throws Exception {
    final Path second = write("z.yaml", POD.formatted("second", "1"));
    final Path first = write("a.yaml", POD.formatted("first", "1"));

    assertThat(reader.read(List.of(second, first)))
        .extracting(m -> m.object().getMetadata().getName())
        .containsExactly("second", "first");
  }

  @Test
  void jsonFilesMayUseTabsAndSeparateDocumentsLikeYaml() throws Exception {
    final Path file =
        write(
            "pods.json",
            "{\n\t\"apiVersion\": \"v1\",\n\t\"kind\": \"Pod\",\n\t\"metadata\": {\"name\": \"a\"}\n}\n"
                + "---\n"
                + "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"b\"}}\n");

    assertThat(reader.read(List.of(file)))
        .extracting(m -> m.object().getMetadata().getName(), Manifest::document)
        .containsExactly(tuple("a", 1), tuple("b", 2));
  }

  @Test
  void otherKindsAreSkippedWithAWarningNamingTheDocument() throws Exception {
    final Path file =
        write(
            "mixed.yaml",
            POD.formatted("p", "1")
                + "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n"
                + "---\napiVersion: scheduling.x-k8s.io/v1alpha1\nkind: ElasticQuota\n"
                + "metadata: {name: q}\n"
                + "---\nmetadata: {name: nothing}\n");

    final List<Manifest> manifests = reader.read(List.of(file));

    assertThat(manifests).hasSize(1);
    assertThat(warnings)
        .containsExactly(
            file
                + ", document 2: skipped Deployment (apps/v1); simulate reads ElasticQuota"
                + " (scheduling.sigs.k8s.io/v1alpha1), PodGroup (scheduling.x-k8s.io/v1alpha1,"
                + " scheduling.volcano.sh/v1beta1), Pod, Node and Namespace (v1)"
                + DRA_KINDS,
            file
                + ", document 3: skipped ElasticQuota (scheduling.x-k8s.io/v1alpha1); simulate"
                + " reads ElasticQuota (scheduling.sigs.k8s.io/v1alpha1), PodGroup"
                + " (scheduling.x-k8s.io/v1alpha1, scheduling.volcano.sh/v1beta1), Pod, Node and"
                + " Namespace (v1)"
                + DRA_KINDS,
            file
                + ", document 4: skipped an object without kind; simulate reads ElasticQuota"
                + " (scheduling.sigs.k8s.io/v1alpha1), PodGroup (scheduling.x-k8s.io/v1alpha1,"
                + " scheduling.volcano.sh/v1beta1), Pod, Node and Namespace (v1)"
                + DRA_KINDS);
  }

  @Test
  void unparsableYamlNamesTheFileAndTheDocument() throws Exception {
    final Path file =
        write("broken.yaml", POD.formatted("ok", "1") + "---\nkind: Pod\nmetadata: {name: [\n");

    assertThatThrownBy(() -> reader.read(List.of(file)))
        .isInstanceOfSatisfying(
            BadInputException.class,
            e -> {
              assertThat(e.file()).isEqualTo(file.toString());
              assertThat(e.document()).hasValue(2);
              assertThat(e.getMessage())
                  .startsWith(file + ", document 2: not valid YAML: ")
                  .contains("line 11")
                  .doesNotContain("\n");
            });
  }

  @Test
  void unparsableYamlInTheFirstDocumentIsDocumentOne() throws Exception {
    final Path file = write("broken.yaml", "kind: Pod\n  metadata: x\n - y\n");

    assertThatThrownBy(() -> reader.read(List.of(file)))
        .isInstanceOfSatisfying(BadInputException.class, e -> assertThat(e.document()).hasValue(1));
  }

  @Test
  void unparsableJsonNamesTheDocumentAndTheLineInTheFile() throws Exception {
    final Path file =
        write(
            "broken.json",
            "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"n\"}}\n"
                + "---\n"
                + "{\"apiVersion\": \"v1\",\n \"kind\": }\n");

    assertThatThrownBy(() -> reader.read(List.of(file)))
        .isInstanceOfSatisfying(
            BadInputException.class,
            e -> {
              assertThat(e.document()).hasValue(2);
              assertThat(e.getMessage())
                  .startsWith(file + ", document 2: not valid JSON: ")
                  .contains("line 4");
            });
  }

  @Test
  void twoManifestsWithoutASeparatorAreRefusedNamingTheDocumentTheLineAndTheKey() throws Exception {
    // Lines 1-4 the quota, 5 "---", 6-9 the node, 10 the pod's apiVersion repeating the node's.
    final Path file =
        write(
            "cluster.yaml",
            QUOTA.formatted("team") + "---\n" + NODE.formatted("n1") + POD.formatted("p1", "1"));

    assertThatThrownBy(() -> reader.read(List.of(file)))
        .isInstanceOfSatisfying(
            BadInputException.class,
            e -> {
              assertThat(e.file()).isEqualTo(file.toString());
              assertThat(e.document()).hasValue(2);
              assertThat(e.getMessage())
                  .isEqualTo(
                      file
                          + ", document 2: repeated key apiVersion at line 10; a key may appear"
                          + " once in a mapping (is a --- missing between two manifests?)");
            });
  }

  @Test
  void theSameManifestsWithASeparatorAreRead() throws Exception {
    final Path file =
        write(
            "cluster.yaml",
            QUOTA.formatted("team")
                + "---\n"
                + NODE.formatted("n1")
                + "---\n"
                + POD.formatted("p1", "1"));

    assertThat(reader.read(List.of(file)))
        .extracting(m -> m.object().getKind(), Manifest::document)
        .containsExactly(tuple("ElasticQuota", 1), tuple("Node", 2), tuple("Pod", 3));
  }

  @Test
  void twoManifestsWithoutASeparatorOnStandardInputAreRefused() {
    final ManifestReader fromStandardInput =
        new ManifestReader(
            warnings::add,
            new ByteArrayInputStream(
                (NODE.formatted("n1") + POD.formatted("p1", "1"))
                    .getBytes(StandardCharsets.UTF_8)));

    assertThatThrownBy(
            () -> fromStandardInput.read(List.of(Path.of(ManifestReader.STANDARD_INPUT))))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("<stdin>, document 1: repeated key apiVersion at line 5;");
  }

  @Test
  void aKeyRepeatedInANestedMappingIsRefusedWithItsPath() throws Exception {
    final Path file =
        write(
            "list.yaml",
            """
            apiVersion: v1
            kind: List
            items:
            - apiVersion: v1
              kind: Pod
              metadata:
                name: p1
                labels:
                  app.kubernetes.io/name: a
                  app.kubernetes.io/name: b
            """);

    assertThatThrownBy(() -> reader.read(List.of(file)))
        .isInstanceOf(BadInputException.class)
        .hasMessage(
            file
                + ", document 1: repeated key items[0].metadata.labels[app.kubernetes.io/name]"
                + " at line 10; a key may appear once in a mapping");
  }

  @Test
  void aKeyRepeatedInJsonIsRefusedWithItsLineInTheFile() throws Exception {
    final Path file =
        write(
            "nodes.json",
            "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"a\"}}\n"
                + "---\n"
                + "{\"apiVersion\": \"v1\", \"kind\": \"Node\",\n"
                + " \"metadata\": {\"name\": \"b\",\n"
                + "   \"name\": \"c\"}}\n");

    assertThatThrownBy(() -> reader.read(List.of(file)))
        .isInstanceOf(BadInputException.class)
        .hasMessage(
            file
                + ", document 2: repeated key metadata.name at line 5; a key may appear once in a"
                + " mapping");
  }

  @Test
  void aDocumentThatIsNotAnObjectIsBadInput() throws Exception {
    final Path file = write("list.yaml", "- a\n- b\n");

    assertThatThrownBy(() -> reader.read(List.of(file)))
        .isInstanceOf(BadInputException.class)
        .hasMessage(file + ", document 1: expected a Kubernetes object, found a list");
  }

  @Test
  void aFieldOfTheWrongTypeNamesTheObjectAndTheFieldPath() throws Exception {
    final Path file =
        write(
            "pods.yaml",
            POD.formatted("ok", "1")
                + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: team}\n"
                + "spec: {priority: high}\n");

    assertThatThrownBy(() -> reader.read(List.of(file)))
        .isInstanceOfSatisfying(
            BadInputException.class,
            e -> {
              assertThat(e.document()).hasValue(2);
              assertThat(e.field()).contains("spec.priority");
              assertThat(e.getMessage())
                  .startsWith(file + ", document 2 (Pod team/p): spec.priority: ")
                  .contains("\"high\"");
            });
  }

  @Test
  void aQuantityTheModelCannotHoldNamesTheFieldAndTheValue() throws Exception {
    final Path file =
        write(
            "nodes.yaml",
            "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: ''}}\n");

    assertThatThrownBy(() -> reader.read(List.of(file)))
        .isInstanceOf(BadInputException.class)
        .hasMessage(
            file + ", document 1 (Node n): status.allocatable[cpu]: \"\" is not a valid quantity");
  }

  @Test
  void aMissingPathIsBadInput() {
    final Path missing = dir.resolve("nope.yaml");

    assertThatThrownBy(() -> reader.read(List.of(missing)))
        .isInstanceOf(BadInputException.class)
        .hasMessage(missing + ": no such file or directory");
  }

  @Test
  void anEmptyDirectoryIsAWarning() throws Exception {
    final Path empty = Files.createDirectories(dir.resolve("empty"));

    assertThat(reader.read(List.of(empty))).isEmpty();
    assertThat(warnings).singleElement().asString().contains("no *.yaml, *.yml or *.json files");
  }

  private Path write(String name, String content) throws IOException {
    final Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    return Files.writeString(file, content);
  }
}
