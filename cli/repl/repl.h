/*
 * repl.h - the interactive what-if session, `gpushare repl`: its state and
 * what its files share. The session lives in this folder; the `repl`
 * command (../cmd_repl.c) starts it, and the session runs the CLI's
 * commands from the same table as main.c (../commands.c).
 *
 *   repl.c          the loop: reading lines, running each, the history
 *   repl_cmds.c     the session commands and their table
 *   repl_show.c     show, compare, and `plan`/`emit` on the session's
 *                   scenario
 *   repl_sweep.c    sweep: one key's values planned in turn
 *   repl_state.c    the session's state: scenario snapshots, scenarios
 *                   kept by name, re-planning, the one-line summary
 *   repl_complete.c tab completion
 *   repl_split.c    splitting a line into words
 *   line.c          reading lines: readline on a terminal, else getline()
 *
 * They depend on each other one way: repl.c and repl_complete.c on the
 * commands, repl_cmds.c on repl_show.c, and the commands on
 * repl_state.c, which calls none of them.
 *
 * Files here include each other relatively ("repl.h", "../cli.h"), so
 * that repl_split.c also compiles inside its fuzzer, which sees no -Icli.
 */
#ifndef GS_REPL_H
#define GS_REPL_H

#include <stdio.h>

#include "../cli.h"
#include "line.h"

#define REPL_LINE_MAX 65536 /* longest line a session reads */
#define REPL_UNDO_MAX 100   /* snapshots kept for undo (and for redo) */
#define REPL_PROMPT "gpushare> "

/* A scenario kept by `scenario save NAME`. */
typedef struct repl_saved {
	char *name;
	gs_scenario *scn;
	gs_plan_summary sum; /* its plan when saved, if `planned` */
	int planned;
} repl_saved;

typedef struct repl {
	gs_catalog *cat;        /* the session's catalog (owned) */
	gs_scenario *cur;       /* the scenario being edited (never NULL) */
	gs_plan *plan;          /* cur's plan; NULL while stale */
	int plan_partial;       /* plan holds its summary alone */
	gs_plan_cache *cache;   /* what the session's plans found, for the
	                         * next (owned) */
	gs_error stale;         /* why cur cannot be planned */
	gs_plan_summary last;   /* the last plan that succeeded ("vs last") */
	int have_last;
	gs_scenario *undo[REPL_UNDO_MAX], *redo[REPL_UNDO_MAX];
	size_t n_undo, n_redo;
	repl_saved *saved;
	size_t n_saved;
	gs_scenario *mark;      /* what `show diff` compares with */
	gs_plan_summary mark_sum;
	int mark_planned;
	int mark_is_plan;       /* 1: the last `plan`; 0: the load */
	int dirty;              /* changed since load or save */
	int interactive;        /* on a terminal: errors never end the session */
	int keep_going;         /* in a script: run on after a failure */
	unsigned long lineno;   /* of the line being run */
	int quit;
	int status;             /* the first failure's exit status */
	FILE *cap;              /* script mode: a command's captured stderr */
} repl;

/* A session command. Its synopsis drives completion as well as help:
 * FILE, NAME (a workload), NEW, SCENARIO, COMMAND, KEY=VALUE and a|b
 * choices are understood by repl_complete.c. */
typedef struct repl_cmd {
	const char *name;
	int (*run)(repl *r, int argc, char **argv);
	const char *synopsis; /* after the name */
	const char *brief;
	const char *summary;
	const cli_opt *opts;  /* besides --help; NULL: none */
	int min_args, max_args; /* operands; max -1: any */
} repl_cmd;

/* repl_state.c: the session owns cat from repl_init on, and repl_release
 * frees everything, also after repl_init failed. */
int repl_init(repl *r, gs_catalog *cat, int interactive, int keep_going);
void repl_release(repl *r);
/* Loads a workload file as the current scenario (undoably). */
int repl_load(repl *r, const char *path);
/* Makes next (owned from now on) the current scenario: the old one goes
 * to the undo stack, redo is cleared, and the new one is planned. */
void repl_commit(repl *r, gs_scenario *next);
/* Plans cur and prints the one-line summary (or why it is stale). */
void repl_replan(repl *r);
/* Reports why the scenario cannot be planned; returns the exit status. */
int repl_stale_error(const repl *r);
/* The whole current plan, with its records and texts, for a command
 * that shows more than the summary (an edit's re-plan makes the summary
 * alone); EXIT_OK, or the status after reporting why there is none. */
int repl_plan_full(repl *r);
/* undo (back = 1) or redo: restores a snapshot and plans it. */
int repl_step(repl *r, int back);
/* Remembers cur (and its plan) as what `show diff` compares with; is_plan
 * says it is the last `plan` rather than the load. */
void repl_mark(repl *r, int is_plan);
/* Copies cur for an edit; reports and returns NULL when out of memory. */
gs_scenario *repl_clone(const gs_scenario *s);
/* "$18.42/h" and "+$3.06/h" into buf. */
char *repl_per_hour(gs_micros m, int sign, char *buf, size_t size);
/* A scenario kept by `scenario save`, or NULL. */
repl_saved *repl_saved_find(repl *r, const char *name);
/* A saved scenario by name, or cur for "current"; reports and returns
 * NULL when there is none. */
const gs_scenario *repl_scenario_named(repl *r, const char *name);

/* repl.c: reads and runs lines until the end, `quit` or, in a script,
 * the first failure (unless keep_going). Returns the exit status. */
int repl_run(repl *r, line_reader *lr);
/* Runs one line. Returns its exit status. */
int repl_exec(repl *r, const char *line);
/* Where history lives: $XDG_STATE_HOME/gpushare/history (the directory is
 * created), else ~/.gpushare_history. Returns 0, or -1 when neither is
 * known. */
int repl_history_path(char *buf, size_t size);

/* repl_cmds.c */
extern const repl_cmd repl_commands[];
const repl_cmd *repl_find(const char *name);
/* Runs a session command: --help, operand counts, then its function. */
int repl_session(repl *r, const repl_cmd *c, int argc, char **argv);
/* repl_show.c: runs a CLI command; `plan` and `emit` take the session's
 * scenario when their FILE is left out, the others run as on the command
 * line. */
int repl_run_cli(repl *r, const cli_cmd *cmd, int argc, char **argv);
int repl_cmd_show(repl *r, int argc, char **argv);
/* repl_sweep.c: `sweep`. */
int repl_cmd_sweep(repl *r, int argc, char **argv);
int repl_cmd_compare(repl *r, int argc, char **argv);
/* Whether the CLI command takes the session's scenario without FILE. */
int repl_takes_scenario(const cli_cmd *cmd);
/* Keys of `set`, for completion and diffs: of a workload and of the
 * scenario (`set *`). NULL-terminated. */
extern const char *const repl_workload_keys[];
extern const char *const repl_scenario_keys[];

/* repl_complete.c: the line_complete_fn of a session (ud is the repl). */
int repl_complete(void *ud, const char *line, int start, int end, line_reader *lr);

/* repl_split.c: splits line into words, shell-like (blanks, quotes,
 * backslashes, # comments; no expansion). On success *argv is a
 * NULL-terminated array the caller frees with one free(). On error
 * returns -1 with the reason in err (n bytes) and *argv NULL. */
int repl_split(const char *line, char ***argv, int *argc, char *err, size_t n);

#endif
