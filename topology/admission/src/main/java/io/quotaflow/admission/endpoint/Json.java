package io.quotaflow.admission.endpoint;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.filter.TokenFilter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.admission.machine.UnreadFields;
import io.quotaflow.quota.ResourceList;
import io.quotaflow.simulate.StatusJson;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The one JSON mapper of the plugin, and small helpers around it. */
public final class Json {

  public static final JsonMapper MAPPER =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .build();

  // Converting an already parsed tree: fabric8's deserializers read nested trees, which the
  // trailing-token check of MAPPER would misreport.
  private static final JsonMapper CONVERTER =
      JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  // The same reading rules but for repeated keys, which the pod webhook checks itself
  // (UniqueKeyParser), reading a body again with CONVERTER when it finds one.
  private static final JsonFactory QUICK = JsonMapper.builder().build().getFactory();

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private Json() {}

  public static ObjectNode object() {
    return NODES.objectNode();
  }

  public static ArrayNode array() {
    return NODES.arrayNode();
  }

  /** The body as a JSON object, or a 400 naming what is wrong with it. */
  public static ObjectNode parseObject(byte[] body) throws BadRequestException {
    return parseObject(body, null);
  }

  /**
   * The body as a JSON object without what {@code unread} leaves out ({@link UnreadFields}; null:
   * nothing), or a 400 naming what is wrong with it.
   */
  public static ObjectNode parseObject(byte[] body, TokenFilter unread) throws BadRequestException {
    if (body.length == 0) {
      throw new BadRequestException("the request has no body; expected a JSON object");
    }
    final JsonNode node;
    try {
      if (unread == null) {
        node = MAPPER.readTree(body);
      } else {
        try (JsonParser parser = UnreadFields.filtered(MAPPER.createParser(body), unread)) {
          node = MAPPER.readTree(parser);
        }
      }
    } catch (IOException e) {
      throw new BadRequestException("the body is not valid JSON: " + shortMessage(e));
    }
    if (node == null || !node.isObject()) {
      throw new BadRequestException("expected a JSON object");
    }
    return (ObjectNode) node;
  }

  /**
   * The body read as {@code type} in one pass (no intermediate tree), or a 400 naming {@code what};
   * the body must be one JSON object and nothing after it.
   */
  public static <T> T read(byte[] body, Class<T> type, String what) throws BadRequestException {
    return read(body, type, what, null);
  }

  /**
   * As {@link #read(byte[], Class, String)}, without what {@code unread} leaves out ({@link
   * UnreadFields}; null: nothing).
   */
  public static <T> T read(byte[] body, Class<T> type, String what, TokenFilter unread)
      throws BadRequestException {
    if (body.length == 0) {
      throw new BadRequestException("the request has no body; expected a JSON object");
    }
    try (JsonParser parser =
        unread == null
            ? CONVERTER.createParser(body)
            : UnreadFields.filtered(CONVERTER.createParser(body), unread)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new BadRequestException("expected a JSON object");
      }
      final T value = CONVERTER.readValue(parser, type);
      if (parser.nextToken() != null) {
        throw new BadRequestException(
            "the body is not valid JSON: trailing content after the object");
      }
      return value;
    } catch (JsonProcessingException e) {
      throw new BadRequestException(
          (e instanceof com.fasterxml.jackson.core.JsonParseException
                  ? "the body is not valid JSON: "
                  : what + " cannot be read: ")
              + shortMessage(e));
    } catch (IOException | IllegalArgumentException e) {
      throw new BadRequestException(what + " cannot be read: " + shortMessage(e));
    }
  }

  /**
   * A parser over {@code body} with the plugin's reading rules (duplicate keys rejected) and a
   * codec for reading a value with data binding mid-stream.
   */
  public static JsonParser parser(byte[] body) throws IOException {
    return CONVERTER.createParser(body);
  }

  /** A parser over {@code body} with the plugin's reading rules but for repeated keys. */
  public static JsonParser quickParser(byte[] body) throws IOException {
    return QUICK.createParser(body);
  }

  /** {@code node} read as {@code type}, or a 400 naming {@code what}. */
  public static <T> T convert(JsonNode node, Class<T> type, String what)
      throws BadRequestException {
    try {
      return CONVERTER.treeToValue(node, type);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new BadRequestException(what + " cannot be read: " + shortMessage(e));
    }
  }

  public static byte[] bytes(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A resource list as {@code {resource: integer}}, by resource name. */
  public static ObjectNode resources(ResourceList list) {
    return StatusJson.resources(list);
  }

  /** The first line of a parser's message, without the source excerpt Jackson appends. */
  public static String shortMessage(Exception e) {
    final String message =
        e instanceof JsonProcessingException processing
            ? processing.getOriginalMessage()
            : e.getMessage();
    if (message == null) {
      return e.getClass().getSimpleName();
    }
    final String firstLine = message.lines().findFirst().orElse(message);
    return firstLine.length() > 200 ? firstLine.substring(0, 200) + "..." : firstLine;
  }
}
