package io.quotaflow.rules;

import io.quotaflow.quota.QuotaGroup;
import java.util.Objects;

/** A proposed change of an ElasticQuota object, as the validating webhook receives it. */
public sealed interface QuotaChange {

  /** The name of the group the change is about. */
  String name();

  record Create(QuotaGroup group) implements QuotaChange {
    public Create {
      Objects.requireNonNull(group, "group");
    }

    @Override
    public String name() {
      return group.name();
    }
  }

  record Update(QuotaGroup old, QuotaGroup updated) implements QuotaChange {
    public Update {
      Objects.requireNonNull(old, "old");
      Objects.requireNonNull(updated, "updated");
    }

    @Override
    public String name() {
      return updated.name();
    }

    /**
     * Whether the update changes anything the quota tree reads: the spec, or a label or annotation
     * a {@link QuotaGroup} is read from (parent, is-parent, allow-lent-resource, shared-weight,
     * namespaces, lending and borrowing limits). A status write, or an annotation the tree does not
     * read (a runtime written by quotaflow or Koordinator), changes nothing.
     */
    public boolean changesTree() {
      return !old.equals(updated);
    }
  }

  record Delete(String name) implements QuotaChange {
    public Delete {
      Objects.requireNonNull(name, "name");
    }
  }
}
