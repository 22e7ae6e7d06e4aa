package io.quotaflow.admission.people.view;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The web view's static files, read once from the jar ({@code
 * io/quotaflow/admission/people/view/ui/}): plain HTML, CSS and JavaScript, no build step, nothing
 * from elsewhere.
 */
public final class ViewAssets {

  /**
   * One file.
   *
   * @param contentType its content type
   * @param body its bytes
   */
  public record Asset(String contentType, byte[] body) {}

  private static final String ROOT = "/io/quotaflow/admission/people/view/ui/";
  private static final Map<String, String> FILES =
      Map.of(
          "index.html", "text/html; charset=utf-8",
          "app.js", "text/javascript; charset=utf-8",
          "app.css", "text/css; charset=utf-8");

  private final Map<String, Asset> assets = new HashMap<>();

  /**
   * Reads every file.
   *
   * @throws IllegalStateException when one is missing from the jar (a broken build)
   */
  public ViewAssets() {
    FILES.forEach((name, type) -> assets.put(name, new Asset(type, read(name))));
  }

  /** The file {@code name} ({@code ""} is {@code index.html}); empty when there is none. */
  public Optional<Asset> get(String name) {
    return Optional.ofNullable(assets.get(name.isEmpty() ? "index.html" : name));
  }

  private static byte[] read(String name) {
    try (InputStream in = ViewAssets.class.getResourceAsStream(ROOT + name)) {
      if (in == null) {
        throw new IllegalStateException("the web view's file " + name + " is missing from the jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
