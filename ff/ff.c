/*
 * ff.c — kernel selection. ff_init reads CPUID once, from main, before any
 * thread starts; ff_path_selected is the project's one global and is
 * read-only afterwards.
 */
#include <cpuid.h>
#include <stdlib.h>
#include <string.h>

#include "ff/ff_internal.h"

ff_path_t ff_path_selected = FF_PATH_PORTABLE;

static bool cpu_has_adx(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return false;
    return (b & bit_BMI2) && (b & bit_ADX);
}

int ff_init(ff_path_t path)
{
    if (path == FF_PATH_AUTO) {
        const char *env = getenv("GROTHMPI_FF_PATH");
        if (env && strcmp(env, "portable") == 0)
            path = FF_PATH_PORTABLE;
        else if (env && strcmp(env, "adx") == 0)
            path = FF_PATH_ADX;
        else
            path = cpu_has_adx() ? FF_PATH_ADX : FF_PATH_PORTABLE;
    }
    if (path == FF_PATH_ADX && !cpu_has_adx())
        return GM_ENOTSUP;
    ff_path_selected = path;
    return GM_OK;
}

ff_path_t ff_path(void) { return ff_path_selected; }

const char *ff_path_name(void) { return ff_path_selected == FF_PATH_ADX ? "adx" : "portable"; }
