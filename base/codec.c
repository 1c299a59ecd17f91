/*
 * base/codec.c — the text forms of byte strings that several folders read
 * and write: lower-case hex (digests, commitments, seeds, proofs) and
 * standard base64 (lotus' JSON fields and proofs). One decoder per form, so
 * every reader rejects the same text with the same message.
 */
#include <string.h>

#include "base/base.h"

static const char hex_digits[] = "0123456789abcdef";

void gm_hex_encode(char *out, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hex_digits[in[i] >> 4];
        out[2 * i + 1] = hex_digits[in[i] & 15];
    }
    out[2 * n] = '\0';
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)(c | 0x20);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

size_t gm_hex_prefix(const char *s, size_t len, unsigned flags)
{
    return (flags & GM_HEX_PREFIX) && len >= 2 && s[0] == '0' && (s[1] | 0x20) == 'x' ? 2 : 0;
}

/* 0, or GM_EFORMAT naming the first character of s[at .. len) that is not
 * a hex digit (its position counted in the whole text, from 1). */
static int hex_check(const char *s, size_t at, size_t len, err_t *err)
{
    for (size_t i = at; i < len; i++)
        if (hex_value(s[i]) < 0)
            return gm_err_set(err, GM_EFORMAT, "'%c' (character %zu) is not a hex digit",
                              s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?', i + 1);
    return 0;
}

long gm_hex_decode(uint8_t *out, size_t cap, const char *s, size_t len, unsigned flags, err_t *err)
{
    size_t at = gm_hex_prefix(s, len, flags), digits = len - at;
    /* every digit is checked before out is written, so a failure leaves it as it was */
    if (hex_check(s, at, len, err))
        return -1;
    if (digits % 2) {
        gm_err_set(err, GM_EFORMAT, "an odd number of hex digits (%zu)", digits);
        return -1;
    }
    if (digits / 2 > cap) {
        gm_err_set(err, GM_EFORMAT, "%zu hex digits; at most %zu fit", digits, 2 * cap);
        return -1;
    }
    for (size_t i = 0; i < digits / 2; i++)
        out[i] = (uint8_t)(hex_value(s[at + 2 * i]) << 4 | hex_value(s[at + 2 * i + 1]));
    return (long)(digits / 2);
}

int gm_hex_decode_exact(uint8_t *out, size_t n, const char *s, unsigned flags, err_t *err)
{
    size_t len = strlen(s), at = gm_hex_prefix(s, len, flags);
    /* a bad digit is named before a wrong count: it is the likelier typo */
    int rc = hex_check(s, at, len, err);
    if (rc)
        return rc;
    if (len - at != 2 * n)
        return gm_err_set(err, GM_EFORMAT, "expected %zu hex digits, found %zu", 2 * n, len - at);
    return gm_hex_decode(out, n, s, len, flags, err) < 0 ? GM_EFORMAT : 0;
}

/* ---- base64 (RFC 4648, the standard alphabet) ------------------------------- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void gm_base64_encode(char *out, const uint8_t *in, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
        out[o++] = b64[v >> 18 & 63];
        out[o++] = b64[v >> 12 & 63];
        out[o++] = i + 1 < n ? b64[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? b64[v & 63] : '=';
    }
    out[o] = '\0';
}

long gm_base64_decode(uint8_t *out, size_t cap, const char *s, size_t len, err_t *err)
{
    size_t end = len;
    while (end && s[end - 1] == '=')
        end--;
    /* a bad character is named before a bad length: it is the likelier typo */
    for (size_t i = 0; i < end; i++)
        if (!s[i] || !strchr(b64, s[i])) {
            gm_err_set(err, GM_EFORMAT, "'%c' (character %zu) is not a base64 character",
                       s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?', i + 1);
            return -1;
        }
    if (end % 4 == 1) {
        gm_err_set(err, GM_EFORMAT, "%zu base64 characters: not a whole number of bytes", end);
        return -1;
    }
    if (end / 4 * 3 + (end % 4 ? end % 4 - 1 : 0) > cap) {
        gm_err_set(err, GM_EFORMAT, "more than %zu bytes of base64", cap);
        return -1;
    }
    /* every check is done before out is written, so a failure leaves it as it was */
    size_t n = 0;
    uint32_t acc = 0;
    unsigned bits = 0;
    for (size_t i = 0; i < end; i++) {
        acc = acc << 6 | (uint32_t)(strchr(b64, s[i]) - b64);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (uint8_t)(acc >> bits);
        }
    }
    return (long)n;
}
