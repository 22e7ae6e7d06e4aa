package io.quotaflow.admission.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admission.endpoint.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Golden JSON files beside the tests, under {@code src/test/resources/io/quotaflow/admission/http}.
 */
public final class Golden {

  private Golden() {}

  public static String text(String name) {
    try (InputStream in = Golden.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new AssertionError("no golden file " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static JsonNode json(String name) {
    try {
      return Json.MAPPER.readTree(text(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
