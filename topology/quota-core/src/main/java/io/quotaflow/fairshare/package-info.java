/**
 * Fair share with memory (docs/semantics.md section 24): each group's borrowing over time, decayed
 * with a half-life, lowers its weight in the split of surplus among borrowers, as Kueue's admission
 * fair sharing and SLURM's fair-share factor let past use count. Pure and exact: fixed-point
 * integer arithmetic, the same inputs always give the same bits.
 */
package io.quotaflow.fairshare;
