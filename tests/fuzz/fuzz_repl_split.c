/*
 * fuzz_repl_split.c - the REPL's shell-like line tokenizer (quotes,
 * escapes, unterminated quotes), which every typed line goes through.
 * It includes the source so that the fuzzer links nothing of the CLI.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../cli/repl/repl_split.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1), **argv = NULL, err[256];
	int argc = 0;
	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	if (repl_split(line, &argv, &argc, err, sizeof err) == 0) {
		/* Every word is a real string within the line's length. */
		for (int i = 0; i < argc; i++)
			if (strlen(argv[i]) > size)
				abort();
		if (argv[argc] != NULL)
			abort();
		free(argv);
	}
	free(line);
	return 0;
}
