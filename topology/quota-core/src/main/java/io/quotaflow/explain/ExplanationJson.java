package io.quotaflow.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;

/**
 * Explanations as JSON for programs: every record's fields by name, amounts in canonical units, an
 * absent optional as null. The query API and {@code quotaflow explain --output json} answer with
 * it.
 */
public final class ExplanationJson {

  private static final JsonMapper JSON = JsonMapper.builder().addModule(new Jdk8Module()).build();

  private ExplanationJson() {}

  public static JsonNode of(RuntimeExplanation explanation) {
    return JSON.valueToTree(explanation);
  }

  public static JsonNode of(PodExplanation pod) {
    return JSON.valueToTree(pod);
  }

  public static JsonNode of(Reach reach) {
    return JSON.valueToTree(reach);
  }
}
