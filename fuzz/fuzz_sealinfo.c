/* fuzz/fuzz_sealinfo.c — verify-seal's readers (synth/porep/porep.h):
 * porep_seal_info_parse (regression-record JSON Lines, SealVerifyInfo JSON),
 * porep_cid_decode and gm_base64_decode.
 * Input: byte 0 selects the reader (0: seal info, 1: CID, 2: base64), the
 * rest is its text.
 * Properties: the seal-info reader returns a documented status, every entry
 * it returns either has a status with a message naming its label or a
 * registered config and a proof it owns; for those, replica_id and the
 * public inputs of partition 0 derive (graphs up to 8 MiB) without
 * crashing. A CID that decodes re-encodes to a CID that decodes to the same
 * digest, and never decodes as the other kind. Base64 that decodes
 * re-encodes to text that decodes to the same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "fuzz/fuzz.h"
#include "synth/porep/porep.h"

FUZZ_INIT_FF_ONLY()

static void seal_info(const uint8_t *data, size_t size)
{
    porep_seal_info_t *s;
    size_t n;
    err_t err;
    gm_err_clear(&err);
    int rc = porep_seal_info_parse(&s, &n, (const char *)data, size, "fuzz.jsonl", &err);
    if (rc) {
        FUZZ_CHECK(rc == GM_EFORMAT || rc == GM_ENOMEM, "undocumented status");
        FUZZ_CHECK(err.msg[0] != '\0' && s == NULL && n == 0, "refusal without a message or with entries");
        return;
    }
    FUZZ_CHECK(n >= 1, "success without an entry");
    for (size_t i = 0; i < n; i++) {
        if (s[i].status) {
            FUZZ_CHECK(strncmp(s[i].msg, s[i].label, strlen(s[i].label)) == 0, "entry message lacks its label");
            continue;
        }
        const porep_config_t *c = &s[i].cfg;
        FUZZ_CHECK(c->partitions >= 1 && c->challenges >= 1 && c->challenges <= 64, "config out of range");
        FUZZ_CHECK(s[i].proof != NULL || s[i].proof_len == 0, "proof length without bytes");
        porep_public_t pub;
        if (porep_seal_info_public(&pub, &s[i], &err) != 0 || c->shape.sector_size > ((uint64_t)8 << 20))
            continue;
        porep_graph_t g;
        if (porep_config_graph(&g, c, &err) != 0)
            fuzz_fail("porep_config_graph: %s", err.msg);
        fr_t in[3 + 18 * 64];
        int r = porep_public_inputs(in, &pub, &g, 0, &err);
        FUZZ_CHECK(r == 0 || err.msg[0] != '\0', "public inputs refused without a message");
        porep_graph_destroy(&g);
    }
    porep_seal_info_free(s, n);
}

static void cid(const uint8_t *data, size_t size)
{
    char *t = fuzz_strndup(data, size);
    err_t err;
    for (int k = 0; k < 2; k++) {
        porep_dom_t d, e;
        if (porep_cid_decode(&d, t, (porep_cid_kind_t)k, "cid", &err) != 0) {
            FUZZ_CHECK(err.msg[0] != '\0', "CID refused without a message");
            continue;
        }
        FUZZ_CHECK(porep_cid_decode(&e, t, (porep_cid_kind_t)!k, "cid", &err) == GM_EFORMAT,
                   "a CID decodes as both kinds");
        char text[POREP_CID_TEXT_LEN];
        porep_cid_encode(text, &d, (porep_cid_kind_t)k);
        FUZZ_CHECK(porep_cid_decode(&e, text, (porep_cid_kind_t)k, "cid", &err) == 0 && memcmp(&d, &e, 32) == 0,
                   "CID encode/decode round trip");
    }
    free(t);
}

static void b64(const uint8_t *data, size_t size)
{
    uint8_t *out = malloc(size + 1), *back = malloc(size + 1);
    char *text = malloc(size / 3 * 4 + 8);
    FUZZ_CHECK(out && back && text, "out of memory");
    long n = gm_base64_decode(out, size + 1, (const char *)data, size, NULL);
    if (n >= 0) {
        gm_base64_encode(text, out, (size_t)n);
        long m = gm_base64_decode(back, size + 1, text, strlen(text), NULL);
        FUZZ_CHECK(m == n && memcmp(out, back, (size_t)n) == 0, "base64 round trip");
    }
    free(out);
    free(back);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    switch (data[0] % 3) {
    case 0: seal_info(data + 1, size - 1); break;
    case 1: cid(data + 1, size - 1); break;
    default: b64(data + 1, size - 1); break;
    }
    return 0;
}
