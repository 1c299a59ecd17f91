/*
 * synth/porep/hex.c — lower-case hex of byte strings, for the digests and
 * commitments that synth/porep/ writes into its JSON files and messages.
 */
#include <string.h>

#include "synth/porep/porep_internal.h"

void porep_hex(char *out, const uint8_t *in, size_t n)
{
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = d[in[i] >> 4];
        out[2 * i + 1] = d[in[i] & 15];
    }
    out[2 * n] = '\0';
}

int porep_unhex(uint8_t *out, const char *s, size_t n)
{
    if (!s || strlen(s) != 2 * n)
        return -1;
    for (size_t i = 0; i < 2 * n; i++) {
        char c = s[i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                             : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (v < 0)
            return -1;
        if (i & 1)
            out[i / 2] = (uint8_t)(out[i / 2] | v);
        else
            out[i / 2] = (uint8_t)(v << 4);
    }
    return 0;
}
