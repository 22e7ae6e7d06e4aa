package io.quotaflow.admission.http.auth;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * {@link Access} whose answers are kept for a while, as kube-rbac-proxy keeps them: a token and a
 * question are asked of the API server once per {@code ttl}, not once per request. Refusals are
 * kept too, so that a flood of bad tokens does not become a flood of TokenReviews. Tokens are kept
 * by their SHA-256 digest, never whole (issue 39: 100,000 kept 8 KB tokens were 800 MB): each cache
 * keeps at most {@code maxEntries} answers, the least recently used dropped beyond, each about
 * {@link #ENTRY_BYTES} bytes plus, for a token the API server accepted, its user's name and groups.
 */
public final class CachedAccess implements Access {

  /**
   * What one kept answer takes at most, a refusal or a question about a namespace name (at most 253
   * characters): the map's node, the digest or question, the answer and its expiry.
   */
  public static final int ENTRY_BYTES = 512;

  /** A token's SHA-256 digest: 32 bytes, whatever the token's length. */
  private record TokenDigest(long a, long b, long c, long d) {
    static TokenDigest of(String token) {
      try {
        final ByteBuffer digest =
            ByteBuffer.wrap(
                MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        return new TokenDigest(
            digest.getLong(), digest.getLong(), digest.getLong(), digest.getLong());
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("every Java has SHA-256", e);
      }
    }
  }

  private record Question(
      User user, String verb, String group, String resource, String namespace) {}

  private final Access access;
  private final BoundedCache<TokenDigest, Optional<User>> tokens;
  private final BoundedCache<Question, Boolean> answers;

  public CachedAccess(Access access, Duration ttl, Clock clock, int maxEntries) {
    this.access = access;
    this.tokens = new BoundedCache<>(ttl, clock, maxEntries);
    this.answers = new BoundedCache<>(ttl, clock, maxEntries);
  }

  @Override
  public Optional<User> authenticate(String token) {
    return tokens.get(TokenDigest.of(token), () -> access.authenticate(token));
  }

  @Override
  public boolean allowed(User user, String verb, String group, String resource, String namespace) {
    return answers.get(
        new Question(user, verb, group, resource, namespace),
        () -> access.allowed(user, verb, group, resource, namespace));
  }

  @Override
  public boolean allowedPath(User user, String verb, String path) {
    // No API group has a space in its name: the question cannot be taken for a resource's.
    return answers.get(
        new Question(user, verb, " path", path, ""), () -> access.allowedPath(user, verb, path));
  }

  /** How many token answers are kept now (at most {@code maxEntries}). */
  public int tokensKept() {
    return tokens.size();
  }
}
