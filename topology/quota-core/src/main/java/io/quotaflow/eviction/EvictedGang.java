package io.quotaflow.eviction;

import java.util.Objects;

/**
 * The gang a victim is evicted with (issue 28): its running members go together.
 *
 * @param name the gang's name in the victim's namespace
 * @param members how many of its members are evicted (every running one)
 */
public record EvictedGang(String name, int members) {
  public EvictedGang {
    Objects.requireNonNull(name, "name");
    if (members < 1) {
      throw new IllegalArgumentException("a gang evicts at least one member, got " + members);
    }
  }
}
