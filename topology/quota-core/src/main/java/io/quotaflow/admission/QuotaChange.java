package io.quotaflow.admission;

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
  }

  record Delete(String name) implements QuotaChange {
    public Delete {
      Objects.requireNonNull(name, "name");
    }
  }
}
