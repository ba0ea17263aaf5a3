/*
 * line.c - the one file that includes readline: line editing, history and
 * completion on a terminal, plain getline() on anything else.
 *
 * Global state, because readline's callbacks take no user data: `active`,
 * the terminal reader whose hook completes words (at most one reader uses
 * readline at a time).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "line.h"

#define LINE_HISTORY_MAX 1000

struct line_reader {
	int tty;
	char *history;       /* file, or NULL */
	int added;           /* lines added to the history this session */
	line_complete_fn complete;
	void *ud;
	const char *prefix;  /* the word being completed */
	size_t prefix_len;
	char **offers;       /* candidates for it */
	size_t n, cap, next;
	struct sigaction old_int;
};

static line_reader *active;

/* ---- Ctrl-C ------------------------------------------------------------- */

/* While a line is edited, Ctrl-C is a key like the others, bound to this,
 * rather than a SIGINT: a signal that arrives while readline is between
 * two reads is only seen after the next key, so a Ctrl-C typed just after
 * a completion would otherwise be lost (tests/repl/pty_test.py caught it). */
static int cancel_line(int count, int key)
{
	(void)count, (void)key;
	rl_echo_signal_char(SIGINT);
	rl_replace_line("", 1);
	rl_point = rl_mark = 0;
	rl_crlf();
	rl_on_new_line();
	return 0;
}

/* rl_prep_terminal() saves the terminal's settings and readline restores
 * them when the line is read, so Ctrl-C sends SIGINT again (ignored) while
 * a command runs. */
static void prep_terminal(int meta)
{
	struct termios t;
	int fd = fileno(rl_instream ? rl_instream : stdin);
	rl_prep_terminal(meta);
	if (tcgetattr(fd, &t) == 0) {
		t.c_cc[VINTR] = _POSIX_VDISABLE;
		tcsetattr(fd, TCSADRAIN, &t);
	}
}

static void signal_ignore(line_reader *lr)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &lr->old_int);
}

static void bind_cancel(void)
{
	static const char *const maps[] = { "emacs", "vi-insert", "vi-command" };
	for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
		Keymap map = rl_get_keymap_by_name(maps[i]);
		if (map)
			rl_bind_key_in_map(CTRL('C'), cancel_line, map);
	}
}

/* ---- completion ---------------------------------------------------------- */

void line_offer(line_reader *lr, const char *word)
{
	char *copy;
	if (!lr->prefix || strncmp(word, lr->prefix, lr->prefix_len) != 0)
		return;
	if (lr->n == lr->cap) {
		size_t cap = lr->cap ? 2 * lr->cap : 32;
		char **o = realloc(lr->offers, cap * sizeof *o);
		if (!o)
			return;
		lr->offers = o;
		lr->cap = cap;
	}
	if ((copy = strdup(word)))
		lr->offers[lr->n++] = copy;
}

static void offers_clear(line_reader *lr)
{
	for (size_t i = 0; i < lr->n; i++)
		free(lr->offers[i]);
	lr->n = lr->next = 0;
}

/* Readline frees what this returns. */
static char *next_offer(const char *text, int state)
{
	(void)text;
	if (!active)
		return NULL;
	if (state == 0)
		active->next = 0;
	return active->next < active->n ? strdup(active->offers[active->next++]) : NULL;
}

/* A key= or a list's a, still needs its value: no space after it. */
static int needs_more(const char *word)
{
	size_t n = strlen(word);
	return n > 0 && (word[n - 1] == '=' || word[n - 1] == ',');
}

static char **attempt(const char *text, int start, int end)
{
	line_reader *lr = active;
	int files;

	if (!lr || !lr->complete)
		return NULL;
	offers_clear(lr);
	lr->prefix = text;
	lr->prefix_len = strlen(text);
	files = lr->complete(lr->ud, rl_line_buffer, start, end, lr);
	lr->prefix = NULL;
	/* Readline completes file names itself unless told it is over. */
	rl_attempted_completion_over = lr->n > 0 || !files;
	if (lr->n == 0)
		return NULL;
	if (lr->n == 1 && needs_more(lr->offers[0]))
		rl_completion_append_character = '\0';
	return rl_completion_matches(text, next_offer);
}

/* ---- history -------------------------------------------------------------- */

static void history_load(line_reader *lr)
{
	using_history();
	stifle_history(LINE_HISTORY_MAX);
	if (lr->history)
		read_history(lr->history); /* none yet is fine */
}

/* Appends this session's lines, so that two sessions do not overwrite
 * each other's, then trims the file. Errors are ignored on purpose: a
 * read-only home must not cost the user the session. */
static void history_save(line_reader *lr)
{
	int n = lr->added < history_length ? lr->added : history_length;
	if (!lr->history || n <= 0)
		return;
	if (access(lr->history, F_OK) == 0)
		append_history(n, lr->history);
	else
		write_history(lr->history);
	history_truncate_file(lr->history, LINE_HISTORY_MAX);
}

/* ---- the reader ------------------------------------------------------------ */

int line_open(line_reader **out, int tty, const char *history_path,
              line_complete_fn complete, void *ud)
{
	line_reader *lr = calloc(1, sizeof *lr);
	if (!lr || (history_path && !(lr->history = strdup(history_path)))) {
		free(lr);
		return -1;
	}
	lr->tty = tty;
	lr->complete = complete;
	lr->ud = ud;
	if (tty) {
		rl_readline_name = "gpushare";
		rl_attempted_completion_function = attempt;
		/* '=' and ',' end a word too: "gpus=A10G,T4" completes each name. */
		rl_completer_word_break_characters = " \t\n\"'=,";
		rl_completer_quote_characters = "\"'";
		rl_prep_term_function = prep_terminal;
		bind_cancel();
		/* Pasted lines run one by one, as typed (an inputrc may differ). */
		rl_variable_bind("enable-bracketed-paste", "off");
		history_load(lr);
		/* Between lines, a Ctrl-C must not end the session either. */
		signal_ignore(lr);
		active = lr;
	}
	*out = lr;
	return 0;
}

void line_close(line_reader *lr)
{
	if (!lr)
		return;
	if (lr->tty) {
		history_save(lr);
		clear_history();
		sigaction(SIGINT, &lr->old_int, NULL);
		rl_prep_term_function = rl_prep_terminal;
		rl_attempted_completion_function = NULL;
		active = NULL;
	}
	offers_clear(lr);
	free(lr->offers);
	free(lr->history);
	free(lr);
}

static char *read_plain(void)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n = getline(&buf, &cap, stdin);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '\r')
		buf[--n] = '\0';
	return buf;
}

char *line_read(line_reader *lr, const char *prompt)
{
	if (!lr->tty)
		return read_plain();
	char *line;
	const char *paste;
	line = readline(prompt ? prompt : "");
	/* Ctrl-D leaves the cursor after the prompt, unless readline ended the
	 * line itself (it does when bracketed paste is on). */
	paste = rl_variable_value("enable-bracketed-paste");
	if (!line && !(paste && strcmp(paste, "on") == 0))
		fputc('\n', rl_outstream ? rl_outstream : stdout);
	return line;
}

void line_remember(line_reader *lr, const char *line)
{
	HIST_ENTRY *last;
	if (!lr->tty || !line[strspn(line, " \t")])
		return;
	last = history_length > 0 ? history_get(history_base + history_length - 1) : NULL;
	if (last && strcmp(last->line, line) == 0)
		return;
	add_history(line);
	lr->added++;
}
