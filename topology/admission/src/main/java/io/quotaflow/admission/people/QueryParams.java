package io.quotaflow.admission.people;

import io.quotaflow.admission.endpoint.BadRequestException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** The query string of a people's door ({@code ?tree=...&limit=...}), decoded. */
public final class QueryParams {

  private QueryParams() {}

  /** The query's parameters, decoded; a repeated one keeps its last value. */
  public static Map<String, String> of(String query) throws BadRequestException {
    final Map<String, String> params = new HashMap<>();
    if (query.isEmpty()) {
      return params;
    }
    for (final String pair : query.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      final int equals = pair.indexOf('=');
      try {
        final String key =
            URLDecoder.decode(
                equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
        final String value =
            equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
        params.put(key, value);
      } catch (IllegalArgumentException e) {
        throw new BadRequestException("the query string cannot be decoded: " + e.getMessage());
      }
    }
    return params;
  }
}
