package io.quotaflow.simulate;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.quotaflow.dra.DraApi;
import io.quotaflow.kube.ElasticQuotaApi;
import io.quotaflow.kube.ElasticQuotaProfileApi;
import io.quotaflow.kube.PodGroupApi;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads Kubernetes manifests from files and directories, as {@code kubectl apply -f} would take
 * them: a file holds one or more documents separated by {@code ---} (YAML, or JSON in a {@code
 * .json} file); a {@code kind: List} (or {@code PodList}, ...) document contributes its items; a
 * directory contributes its {@code *.yaml}, {@code *.yml} and {@code *.json} files in name order,
 * not recursively. The path {@value #STANDARD_INPUT} reads standard input instead (YAML, or JSON
 * when it starts with <code>{</code>), so that {@code kubectl get ... -o yaml} can be piped in.
 *
 * <p>Only the kinds quotaflow computes with are returned: ElasticQuota ({@value
 * ElasticQuotaApi#API_VERSION}), ElasticQuotaProfile ({@value ElasticQuotaProfileApi#API_VERSION}),
 * PodGroup ({@value PodGroupApi#SCHEDULER_PLUGINS_API_VERSION}, {@value
 * PodGroupApi#VOLCANO_API_VERSION}), Pod, Node and Namespace ({@code v1}), DeviceClass,
 * ResourceClaim, ResourceClaimTemplate and ResourceSlice ({@value DraApi#API_VERSION}; their other
 * versions are bad input). Any other object is skipped with a warning. Anything that cannot be read
 * is a {@link BadInputException} naming the file, the document and, where it applies, the field or
 * the line; a key repeated in one mapping is such input ({@link RepeatedKey}), as two manifests
 * concatenated without {@code ---} would otherwise merge silently.
 */
public final class ManifestReader {

  /** The path that names standard input, as in {@code kubectl apply -f -}. */
  public static final String STANDARD_INPUT = "-";

  /** How standard input is named in messages. */
  static final String STANDARD_INPUT_NAME = "<stdin>";

  private static final Pattern DOCUMENT_SEPARATOR = Pattern.compile("(?m)^---[ \\t]*(#.*)?$");
  private static final Pattern YAML_MARK = Pattern.compile("line (\\d+), column (\\d+)");

  // Repeated keys are refused (RepeatedKey): the last one winning would silently merge two
  // manifests concatenated without "---".
  private final ObjectMapper yaml =
      YAMLMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .build();
  private final ObjectMapper json =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();
  private final Consumer<String> warnings;
  private final InputStream standardInput;

  /**
   * A reader whose {@value #STANDARD_INPUT} is the process's standard input.
   *
   * @param warnings receives one line per skipped object or empty directory
   */
  public ManifestReader(Consumer<String> warnings) {
    this(warnings, System.in);
  }

  /**
   * @param warnings receives one line per skipped object or empty directory
   * @param standardInput what the path {@value #STANDARD_INPUT} reads
   */
  public ManifestReader(Consumer<String> warnings, InputStream standardInput) {
    this.warnings = Objects.requireNonNull(warnings, "warnings");
    this.standardInput = Objects.requireNonNull(standardInput, "standardInput");
  }

  /** Reads every path in order; the result keeps file and document order. */
  public List<Manifest> read(List<Path> paths) throws BadInputException {
    final List<Manifest> manifests = new ArrayList<>();
    boolean readStandardInput = false;
    for (final Path path : paths) {
      if (path.toString().equals(STANDARD_INPUT)) {
        // Standard input can be read once; a second "-" would silently read nothing.
        if (readStandardInput) {
          throw BadInputException.inFile(STANDARD_INPUT_NAME, "standard input is named twice");
        }
        readStandardInput = true;
        manifests.addAll(readStandardInput());
        continue;
      }
      for (final Path file : files(path)) {
        manifests.addAll(readFile(file));
      }
    }
    return List.copyOf(manifests);
  }

  private List<Manifest> readStandardInput() throws BadInputException {
    final String text;
    try {
      text = new String(standardInput.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw BadInputException.inFile(STANDARD_INPUT_NAME, "cannot read: " + e.getMessage());
    }
    if (text.isBlank()) {
      warnings.accept(STANDARD_INPUT_NAME + ": no manifests on standard input");
    }
    // kubectl -o json prints one JSON object; YAML would reject its tab indentation, if any.
    return readText(STANDARD_INPUT_NAME, text, text.stripLeading().startsWith("{"));
  }

  private List<Path> files(Path path) throws BadInputException {
    if (!Files.exists(path)) {
      throw BadInputException.inFile(path.toString(), "no such file or directory");
    }
    if (!Files.isDirectory(path)) {
      return List.of(path);
    }
    try (Stream<Path> entries = Files.list(path)) {
      final List<Path> files =
          entries
              .filter(Files::isRegularFile)
              .filter(ManifestReader::isManifestName)
              .sorted((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
              .toList();
      if (files.isEmpty()) {
        warnings.accept(path + ": no *.yaml, *.yml or *.json files in this directory");
      }
      return files;
    } catch (IOException e) {
      throw BadInputException.inFile(path.toString(), "cannot list directory: " + e.getMessage());
    }
  }

  private static boolean isManifestName(Path file) {
    final String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
  }

  private List<Manifest> readFile(Path path) throws BadInputException {
    final String file = path.toString();
    final String text;
    try {
      text = Files.readString(path, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw BadInputException.inFile(file, "no such file");
    } catch (IOException e) {
      throw BadInputException.inFile(file, "cannot read: " + e.getMessage());
    }
    return readText(file, text, file.toLowerCase(Locale.ROOT).endsWith(".json"));
  }

  private List<Manifest> readText(String file, String text, boolean isJson)
      throws BadInputException {
    final List<Manifest> manifests = new ArrayList<>();
    if (isJson) {
      readJsonDocuments(file, text, manifests);
    } else {
      readYamlDocuments(file, text, manifests);
    }
    return manifests;
  }

  private void readYamlDocuments(String file, String text, List<Manifest> manifests)
      throws BadInputException {
    int document = 0;
    // A parser loop rather than readValues: readValues would unwrap a document that is a list.
    try (JsonParser parser = yaml.getFactory().createParser(text)) {
      while (true) {
        final JsonNode node;
        try {
          if (parser.nextToken() == null) {
            break;
          }
          node = yaml.readTree(parser);
        } catch (IOException | RuntimeException e) {
          // SnakeYAML reports some syntax errors as unchecked exceptions.
          throw BadInputException.inDocument(
              file, document + 1, OptionalInt.empty(), syntaxError(e, 0, "YAML"));
        }
        document++;
        readDocument(file, document, node, manifests);
      }
    } catch (IOException e) {
      throw BadInputException.inDocument(
          file, document + 1, OptionalInt.empty(), syntaxError(e, 0, "YAML"));
    }
  }

  /**
   * JSON has no document separator of its own; a {@code .json} file may hold several JSON values
   * separated by {@code ---} lines, like YAML (JSON is read with a JSON parser because YAML rejects
   * the tab indentation common in JSON).
   */
  private void readJsonDocuments(String file, String text, List<Manifest> manifests)
      throws BadInputException {
    final Matcher separators = DOCUMENT_SEPARATOR.matcher(text);
    int start = 0;
    int document = 0;
    final List<int[]> chunks = new ArrayList<>();
    while (separators.find()) {
      chunks.add(new int[] {start, separators.start()});
      start = separators.end();
    }
    chunks.add(new int[] {start, text.length()});
    for (final int[] chunk : chunks) {
      final String body = text.substring(chunk[0], chunk[1]);
      if (body.isBlank() && chunk[0] == 0 && chunks.size() > 1) {
        // A leading "---" opens the first document rather than ending an empty one.
        continue;
      }
      document++;
      if (body.isBlank()) {
        continue;
      }
      final int firstLine =
          (int) text.substring(0, chunk[0]).chars().filter(c -> c == '\n').count();
      final JsonNode node;
      try {
        node = json.readTree(body);
      } catch (JsonProcessingException e) {
        throw BadInputException.inDocument(
            file, document, OptionalInt.empty(), syntaxError(e, firstLine, "JSON"));
      }
      readDocument(file, document, node, manifests);
    }
  }

  private void readDocument(String file, int document, JsonNode node, List<Manifest> manifests)
      throws BadInputException {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return; // an empty document, e.g. only comments
    }
    if (!node.isObject()) {
      throw BadInputException.inDocument(
          file,
          document,
          OptionalInt.empty(),
          "expected a Kubernetes object, found a " + type(node));
    }
    final String kind = node.path("kind").asText("");
    if (kind.endsWith("List") && node.has("items")) {
      final JsonNode items = node.get("items");
      if (!items.isArray()) {
        throw BadInputException.inField(
            file, document, OptionalInt.empty(), kind, "items", "expected a list of objects");
      }
      final String itemKind = kind.equals("List") ? "" : kind.substring(0, kind.length() - 4);
      final String listApiVersion = node.path("apiVersion").asText("");
      for (int i = 0; i < items.size(); i++) {
        final JsonNode item = items.get(i);
        if (!item.isObject()) {
          throw BadInputException.inDocument(
              file, document, OptionalInt.of(i + 1), "expected a Kubernetes object in items");
        }
        // Typed lists (PodList) leave kind and apiVersion out of their items.
        final ObjectNode typed = ((ObjectNode) item).deepCopy();
        if (!typed.hasNonNull("kind") && !itemKind.isEmpty()) {
          typed.put("kind", itemKind);
        }
        if (!typed.hasNonNull("apiVersion") && !listApiVersion.isEmpty()) {
          typed.put("apiVersion", listApiVersion);
        }
        readObject(file, document, OptionalInt.of(i + 1), typed, manifests);
      }
      return;
    }
    readObject(file, document, OptionalInt.empty(), node, manifests);
  }

  private void readObject(
      String file, int document, OptionalInt item, JsonNode node, List<Manifest> manifests)
      throws BadInputException {
    final String kind = node.path("kind").asText("");
    final String apiVersion = node.path("apiVersion").asText("");
    final Class<? extends HasMetadata> type;
    if (ElasticQuotaApi.isElasticQuota(apiVersion, kind)
        || ElasticQuotaProfileApi.isProfile(apiVersion, kind)
        || PodGroupApi.isPodGroup(apiVersion, kind)) {
      type = GenericKubernetesResource.class;
    } else if ("v1".equals(apiVersion) && "Pod".equals(kind)) {
      type = Pod.class;
    } else if ("v1".equals(apiVersion) && "Node".equals(kind)) {
      type = Node.class;
    } else if ("v1".equals(apiVersion) && "Namespace".equals(kind)) {
      type = Namespace.class;
    } else if (DraApi.isDraKind(apiVersion, kind)) {
      type =
          DraApi.modelClass(apiVersion, kind)
              .orElseThrow(
                  () ->
                      BadInputException.inDocument(
                          file,
                          document,
                          item,
                          kind
                              + " ("
                              + apiVersion
                              + "): simulate reads DRA objects in "
                              + DraApi.API_VERSION
                              + " only; a Kubernetes 1.34 or later server serves them in it"
                              + " (e.g. kubectl get resourceclaims.v1.resource.k8s.io -o yaml)"));
    } else {
      warnings.accept(
          Manifest.location(file, document, item)
              + ": skipped "
              + (kind.isEmpty() ? "an object without kind" : kind)
              + (apiVersion.isEmpty() ? "" : " (" + apiVersion + ")")
              + "; simulate reads ElasticQuota ("
              + ElasticQuotaApi.API_VERSION
              + "), PodGroup ("
              + PodGroupApi.SCHEDULER_PLUGINS_API_VERSION
              + ", "
              + PodGroupApi.VOLCANO_API_VERSION
              + "), Pod, Node and Namespace (v1), DeviceClass, ResourceClaim,"
              + " ResourceClaimTemplate and ResourceSlice ("
              + DraApi.API_VERSION
              + ")");
      return;
    }
    final HasMetadata object;
    try {
      object = yaml.treeToValue(node, type);
    } catch (JsonMappingException e) {
      final String field = fieldPath(e);
      throw BadInputException.inField(
          file, document, item, describe(kind, node), field, mappingError(e, node));
    } catch (JsonProcessingException e) {
      throw BadInputException.inDocument(file, document, item, firstLine(e.getOriginalMessage()));
    }
    manifests.add(new Manifest(file, document, item, object));
  }

  private static String describe(String kind, JsonNode node) {
    final String namespace = node.path("metadata").path("namespace").asText("");
    final String name = node.path("metadata").path("name").asText("(no name)");
    return kind + " " + (namespace.isEmpty() || "Node".equals(kind) ? "" : namespace + "/") + name;
  }

  /** A Kubernetes-style path: {@code spec.containers[0].resources.requests[cpu]}. */
  private static String fieldPath(JsonMappingException e) {
    final StringBuilder path = new StringBuilder();
    for (final JsonMappingException.Reference reference : e.getPath()) {
      if (reference.getFieldName() == null) {
        path.append('[').append(reference.getIndex()).append(']');
      } else if (reference.getFrom() instanceof Map<?, ?>) {
        path.append('[').append(reference.getFieldName()).append(']');
      } else {
        path.append(path.length() == 0 ? "" : ".").append(reference.getFieldName());
      }
    }
    return path.length() == 0 ? "(document)" : path.toString();
  }

  /** What went wrong mapping a field, with the offending value where it can be found. */
  private static String mappingError(JsonMappingException e, JsonNode document) {
    JsonNode value = document;
    for (final JsonMappingException.Reference reference : e.getPath()) {
      value =
          reference.getFieldName() == null
              ? value.path(reference.getIndex())
              : value.path(reference.getFieldName());
    }
    final String original = firstLine(e.getOriginalMessage());
    if (original.startsWith("Invalid quantity")) {
      return (value.isValueNode() ? "\"" + value.asText() + "\"" : "a " + type(value))
          + " is not a valid quantity";
    }
    return original;
  }

  /** One line from a parser error, with the line and column it points at. */
  private static String syntaxError(Exception e, int lineOffset, String language) {
    if (e instanceof JsonProcessingException processing) {
      final Optional<RepeatedKey> repeated = RepeatedKey.in(processing, lineOffset);
      if (repeated.isPresent()) {
        return repeated.get().describe()
            + (repeated.get().topLevel() ? " (is a --- missing between two manifests?)" : "");
      }
    }
    final String message =
        e instanceof JsonProcessingException processing
            ? processing.getOriginalMessage()
            : String.valueOf(e.getMessage());
    final List<String> parts = new ArrayList<>();
    for (final String line : message.split("\n")) {
      // SnakeYAML adds indented context lines (a snippet, a caret, "in 'reader'"): keep the text.
      if (!line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
        parts.add(line.trim());
      }
    }
    final String text = parts.isEmpty() ? "cannot be parsed" : String.join("; ", parts);
    final Matcher marks = YAML_MARK.matcher(message);
    String where = null;
    while (marks.find()) {
      where =
          "line " + (Integer.parseInt(marks.group(1)) + lineOffset) + ", column " + marks.group(2);
    }
    if (where == null && e instanceof JsonProcessingException processing) {
      if (processing.getLocation() != null && processing.getLocation().getLineNr() > 0) {
        where =
            "line "
                + (processing.getLocation().getLineNr() + lineOffset)
                + ", column "
                + processing.getLocation().getColumnNr();
      }
    }
    return "not valid " + language + ": " + text + (where == null ? "" : " (" + where + ")");
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "cannot be read";
    }
    final int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  private static String type(JsonNode node) {
    if (node.isArray()) {
      return "list";
    }
    if (node.isObject()) {
      return "map";
    }
    return node.isTextual() ? "string" : "scalar";
  }
}
