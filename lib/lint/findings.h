/*
 * findings.h - the storage behind a gs_lint: its findings and the names
 * of the files they point into. For gs_lint_add (kit.c) and the
 * dispatcher (lint.c); the checkers never see it.
 */
#ifndef GS_LINT_FINDINGS_H
#define GS_LINT_FINDINGS_H

#include "base/base.h"
#include "lint/facts.h"

/* The options the gs_lint was made with. */
const gs_lint_opts *gs_lint_options(const gs_lint *l);
/* Appends a copy of f (its message is copied; file must be kept by
 * gs_lint_keep_name); -1 when out of memory. */
int gs_lint_record(gs_lint *l, const gs_finding *f);
/* A copy of name that lives as long as l; NULL when out of memory. */
const char *gs_lint_keep_name(gs_lint *l, const char *name);
/* Drops the findings from index first on (those of a file that failed). */
void gs_lint_truncate(gs_lint *l, size_t first);
/* Sorts the findings from index first on by position, in the order they
 * were added when at the same place. */
void gs_lint_sort(gs_lint *l, size_t first);

/* The facts of every file linted into l, for the cross-file rules. */
lint_facts *gs_lint_facts(gs_lint *l);
/* The findings of the cross-file rules: those from index first on are
 * marked as such; gs_lint_drop_cross removes every marked one (a second
 * gs_lint_finish replaces them); gs_lint_sort_files sorts those from first
 * on by file, in the order the files were linted, then by position. */
void gs_lint_mark_cross(gs_lint *l, size_t first);
void gs_lint_drop_cross(gs_lint *l);
void gs_lint_sort_files(gs_lint *l, size_t first);
/* Removes the findings of rule id at (file, line, col): one that other
 * files show to be wrong (a feature gate the driver values turn on). */
void gs_lint_drop_at(gs_lint *l, const char *id, lint_where at);

#endif
