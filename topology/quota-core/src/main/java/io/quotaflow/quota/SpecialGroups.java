package io.quotaflow.quota;

import java.util.Set;

/** The names of Koordinator's built-in quota groups (SPEC 8), kept for compatibility. */
public final class SpecialGroups {

  /** Virtual root; first-level groups have it as parent. Its runtime is the cluster total. */
  public static final String ROOT = "koordinator-root-quota";

  /** Never limited; its used is carved out of the total before distribution. */
  public static final String SYSTEM = "koordinator-system-quota";

  /** Collects pods that match no group; limited by its own max only. */
  public static final String DEFAULT = "koordinator-default-quota";

  public static final Set<String> ALL = Set.of(ROOT, SYSTEM, DEFAULT);

  private SpecialGroups() {}

  public static boolean isSpecial(String name) {
    return ALL.contains(name);
  }
}
