package io.quotaflow.simulate;

import io.quotaflow.tree.TreeSnapshot;

/**
 * Makes {@code simulate}'s table available to {@code quotaflow local}, so both print a tree the
 * same way. {@link TableReport} is package-private in the topology module; this class shares its
 * package from the deploy module until the table becomes public there.
 */
public final class TableReports {

  private TableReports() {}

  /** The tree and pods of {@code snapshot}, as {@code simulate --output table} prints them. */
  public static String render(final TreeSnapshot snapshot) {
    return TableReport.render(snapshot);
  }
}
