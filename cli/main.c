/* cli/main.c — the grothmpi command: dispatch to one file per subcommand. */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "ff/ff.h"

int main(int argc, char **argv)
{
    gm_log_init();
    if (ff_init(FF_PATH_AUTO) != 0) {
        fprintf(stderr, "grothmpi: GROTHMPI_FF_PATH=adx asked for, but this CPU lacks BMI2/ADX\n");
        return 1;
    }
    (void)argc;
    (void)argv;
    printf("grothmpi (ff path: %s)\n", ff_path_name());
    return 0;
}
