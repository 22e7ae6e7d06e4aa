package io.quotaflow.simulate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.stream.StreamSupport;
import picocli.CommandLine;

/** One run of {@code simulate} as the launcher runs it, with stdout and stderr captured. */
record SimulateRun(int exitCode, String out, String err) {

  private static final JsonMapper JSON = new JsonMapper();

  static SimulateRun of(String... args) {
    return withInput("", args);
  }

  /** A run whose standard input ({@code -f -}) holds {@code input}. */
  static SimulateRun withInput(String input, String... args) {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final CommandLine commandLine =
        new CommandLine(
            new SimulateCommand(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8))));
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    final int exitCode = commandLine.execute(args);
    return new SimulateRun(exitCode, out.toString(), err.toString());
  }

  JsonNode json() {
    try {
      return JSON.readTree(out);
    } catch (Exception e) {
      throw new AssertionError("stdout is not one JSON object:\n" + out, e);
    }
  }

  /** The quota entry of one group. */
  JsonNode quota(String name) {
    return StreamSupport.stream(json().get("quotas").spliterator(), false)
        .filter(quota -> quota.get("name").asText().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no quota " + name + " in\n" + out));
  }

  /** One resource of one field of one group, in canonical units. */
  long value(String group, String field, String resource) {
    final JsonNode value = quota(group).get(field).get(resource);
    if (value == null) {
      throw new AssertionError(group + " has no " + field + "." + resource + " in\n" + out);
    }
    return value.asLong();
  }

  /** The pod entry of one pod. */
  JsonNode pod(String namespace, String name) {
    return StreamSupport.stream(json().get("pods").spliterator(), false)
        .filter(
            pod ->
                pod.get("namespace").asText().equals(namespace)
                    && pod.get("name").asText().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no pod " + namespace + "/" + name + " in\n" + out));
  }
}
