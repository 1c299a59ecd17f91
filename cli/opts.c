/*
 * cli/opts.c — the table-driven option parser of the porep actions
 * (cli/cmd_porep.c and cli/cmd_porep_seal.c), in a file of its own so that
 * neither of those calls into the other.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int cli_opts_parse(void *o, const cli_opt_t *vals, size_t nv, const cli_opt_t *flags, size_t nf, size_t pos_off,
                   int argc, char **argv, const char *cmd, void (*help)(FILE *))
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            help(stdout);
            return -1;
        }
        size_t f = 0;
        while (f < nf && strcmp(a, flags[f].name) != 0)
            f++;
        if (f < nf) {
            *(int *)((char *)o + flags[f].off) = 1;
            continue;
        }
        if (a[0] != '-' && pos_off != CLI_NO_POSITIONAL && !*(const char **)((char *)o + pos_off)) {
            *(const char **)((char *)o + pos_off) = a;
            continue;
        }
        size_t k = 0;
        const char *val = NULL;
        for (; k < nv; k++) {
            size_t len = strlen(vals[k].name);
            if (strncmp(a, vals[k].name, len) != 0)
                continue;
            if (a[len] == '=') {
                val = a + len + 1;
                break;
            }
            if (a[len] == '\0') {
                if (i + 1 >= argc) {
                    fprintf(stderr, "grothmpi porep %s: %s needs a value\n", cmd, a);
                    return 2;
                }
                val = argv[++i];
                break;
            }
        }
        if (k == nv) {
            fprintf(stderr, "grothmpi porep %s: unknown option '%s' (grothmpi porep --help)\n", cmd, a);
            return 2;
        }
        *(const char **)((char *)o + vals[k].off) = val;
    }
    return 0;
}
