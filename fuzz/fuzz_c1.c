/* fuzz/fuzz_c1.c — the C1 (SealCommitPhase1Output) JSON reader
 * (porep_c1_read, synth/porep/porep.h), through a file in the temporary
 * directory, then the native checker of what it read.
 * Input: the JSON file.
 * Properties: a read C1 is written back (porep_c1_write) and that file reads
 * to a C1 whose written file is byte-identical (the format is stable);
 * porep_c1_verify runs on it against its registered proof's graph without
 * crashing (it may refuse: fuzzed proofs do not verify); a refusal of the
 * reader is a documented status with a message and leaves *c zeroed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "fuzz/fuzz.h"
#include "synth/porep/porep.h"

static porep_hashers_t hashers;
/* Graphs already derived, by registered proof id (0..19). */
static porep_graph_t graphs[20];
static int have_graph[20];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_ff();
    err_t err;
    if (porep_hashers_init(&hashers, &err) != 0)
        fuzz_fail("porep_hashers_init: %s", err.msg);
    return 0;
}

static const porep_graph_t *graph_of(const porep_proof_t *proof)
{
    if (!proof || proof->id >= 20 || proof->sector_size > ((uint64_t)8 << 20))
        return NULL; /* larger graphs cost too much per input */
    if (!have_graph[proof->id]) {
        uint8_t id[32];
        err_t err;
        porep_id_make(id, proof);
        if (porep_graph_init(&graphs[proof->id], proof->sector_size / POREP_NODE_SIZE, id, proof->api, &err) != 0)
            fuzz_fail("porep_graph_init: %s", err.msg);
        have_graph[proof->id] = 1;
    }
    return &graphs[proof->id];
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    FUZZ_CHECK(f != NULL, "written C1 missing");
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    FUZZ_CHECK(buf && fread(buf, 1, (size_t)len, f) == (size_t)len, "reading the written C1");
    fclose(f);
    *n = (size_t)len;
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = fuzz_write("fuzz-c1.json", data, size);
    char path[4200];
    snprintf(path, sizeof path, "%s", in);
    porep_c1_t c;
    err_t err;
    gm_err_clear(&err);
    int rc = porep_c1_read(&c, path, &err);
    if (rc) {
        FUZZ_CHECK(rc == GM_EFORMAT || rc == GM_ENOTSUP || rc == GM_EIO || rc == GM_ENOMEM, "undocumented status");
        FUZZ_CHECK_REFUSAL(rc, err);
        FUZZ_CHECK(c.proofs == NULL && c.partitions == 0, "c1 not zeroed after a failure");
        return 0;
    }
    char out1[4300], out2[4300];
    snprintf(out1, sizeof out1, "%s/out1.json", fuzz_tmpdir());
    snprintf(out2, sizeof out2, "%s/out2.json", fuzz_tmpdir());
    if (porep_c1_write(&c, out1, &err) != 0)
        fuzz_fail("porep_c1_write: %s", err.msg);
    porep_c1_t d;
    if (porep_c1_read(&d, out1, &err) != 0)
        fuzz_fail("a written C1 does not read back: %s", err.msg);
    if (porep_c1_write(&d, out2, &err) != 0)
        fuzz_fail("porep_c1_write: %s", err.msg);
    size_t n1, n2;
    char *b1 = slurp(out1, &n1), *b2 = slurp(out2, &n2);
    FUZZ_CHECK(n1 == n2 && memcmp(b1, b2, n1) == 0, "C1 write/read/write is not stable");
    free(b1);
    free(b2);
    porep_c1_free(&d);
    const porep_graph_t *g = graph_of(c.proof);
    if (g) {
        int v = porep_c1_verify(&c, g, &hashers, "fuzz-c1.json", &err);
        FUZZ_CHECK(v == 0 || err.msg[0] != '\0', "porep_c1_verify refused without a message");
    }
    porep_c1_free(&c);
    return 0;
}
