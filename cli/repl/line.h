/*
 * line.h - reading command lines: GNU readline on a terminal (editing,
 * history, tab completion, Ctrl-C), plain getline() otherwise, so that a
 * script is read exactly as written, without prompts or echo.
 *
 * Readline is included by line.c only; the rest of the CLI sees these few
 * functions.
 */
#ifndef GS_LINE_H
#define GS_LINE_H

typedef struct line_reader line_reader;

/* The completion hook: `line` is the whole line being edited and the word
 * to complete runs from start to end. It offers candidates with
 * line_offer() (those that do not start with the word are dropped) and
 * returns 1 when, having offered nothing, file names should be completed
 * instead, else 0. */
typedef int (*line_complete_fn)(void *ud, const char *line, int start, int end,
                                line_reader *lr);

/* Opens a reader on stdin. With tty, lines come from readline, history is
 * read from and saved to history_path (NULL: no history; failures to read
 * or write it are ignored) and `complete` (may be NULL) completes words.
 * Returns 0, or -1 when out of memory. Release with line_close(). */
int line_open(line_reader **out, int tty, const char *history_path,
              line_complete_fn complete, void *ud);
/* Saves the history (on a terminal) and frees the reader. NULL is fine. */
void line_close(line_reader *lr);

/* Reads one line, without its newline, shown after `prompt` on a terminal.
 * Returns a string the caller frees, or NULL at the end of the input
 * (Ctrl-D on a terminal). Ctrl-C clears the line being typed. */
char *line_read(line_reader *lr, const char *prompt);
/* Adds a line to the history (on a terminal; blank lines and repeats of
 * the previous line are skipped). */
void line_remember(line_reader *lr, const char *line);

/* For the completion hook: offers one candidate. */
void line_offer(line_reader *lr, const char *word);

#endif
