/* cli/proving.c — what the proving commands (`prove`, `prove --split`,
 * `snarkjs prove`, `bench split`) share: the backend's opening and its
 * summary line, the --verbose stage rows, the public inputs as JSON and the
 * --proof-seed derivation of r and s. It calls no command, so each command
 * file depends on it and never on another command's file. */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"

static double sec(uint64_t ns) { return (double)ns * 1e-9; }

json_t *cli_inputs_json(const groth16_witness_t *w)
{
    json_t *a = json_array();
    for (size_t j = 1; j < w->n_inputs; j++) {
        char buf[FR_DEC_MAX];
        fr_to_dec(buf, &w->inputs[j]);
        json_array_append_new(a, json_string(buf));
    }
    return a;
}

void cli_proof_rs(fr_t rs[2], uint64_t seed)
{
    uint8_t b[GROTH16_SEED_BYTES] = "....proof-seed r, s grothmpi";
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(seed >> (8 * i));
    groth16_toxic_t t;
    groth16_toxic_from_seed(&t, b);
    rs[0] = t.tau;
    rs[1] = t.alpha;
}

void cli_backend_summary(groth16_backend_t *be, const char *cmd, bool verbose)
{
    groth16_backend_stats_t st;
    groth16_backend_stats(be, &st);
    if (groth16_backend_kind(be) == GROTH16_BACKEND_CPU)
        return;
    if (verbose || st.fallbacks || st.failures)
        printf("%s: backend %s: %llu units, %.3f s busy (msm %.3f s, ntt %.3f s), device memory peak %.1f MiB, "
               "%llu fallbacks, %llu failures%s\n",
               cmd, st.name, (unsigned long long)st.units, sec(st.busy_ns), sec(st.msm_ns), sec(st.ntt_ns),
               (double)st.mem_peak / 1048576.0, (unsigned long long)st.fallbacks, (unsigned long long)st.failures,
               st.retired ? ", retired" : "");
}

int cli_backend_open(groth16_backend_t **be, const char *name, const char *cmd, char *note, size_t note_len)
{
    *be = NULL;
    err_t err;
    groth16_backend_kind_t kind = GROTH16_BACKEND_AUTO;
    if (name && groth16_backend_kind_parse(&kind, name, "--backend", &err)) {
        fprintf(stderr, "grothmpi: %s: %s\n", cmd, err.msg);
        return 2;
    }
    int rc = groth16_backend_open(be, kind, 0, note, note_len, &err);
    if (rc) {
        fprintf(stderr, "grothmpi: %s: %s\n", cmd, err.msg);
        return rc == GM_ENODEV || rc == GM_EINVAL ? 2 : 1;
    }
    return 0;
}

void cli_print_stages(const char *prefix, const groth16_timings_t *t, bool snarkjs_names)
{
    const struct {
        const char *name, *snarkjs;
        uint64_t ns, read;
    } rows[] = {{"abc", "abc", t->abc, 0},
                {"ntt", "ntt", t->ntt, 0},
                {"msm_a", "msm_a", t->msm_a, t->read_a},
                {"msm_b_g1", "msm_b1", t->msm_b_g1, t->read_b_g1},
                {"msm_b_g2", "msm_b2", t->msm_b_g2, t->read_b_g2},
                {"msm_l", "msm_c", t->msm_l, t->read_l},
                {"msm_h", "msm_h", t->msm_h, t->read_h},
                {"verify", "verify", t->verify, 0}};
    uint64_t read = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        printf("%s: %-10s %9.3f s", prefix, snarkjs_names ? rows[i].snarkjs : rows[i].name, sec(rows[i].ns));
        /* streamed parameters: what each MSM read from storage */
        if (t->params_bytes && rows[i].name[0] == 'm')
            printf("   (read %.2f GiB)", (double)rows[i].read / (1ULL << 30));
        printf("\n");
        read += rows[i].read;
    }
    /* the CPU of the stages the prover counts (snarkjs_prove fills none) */
    if (t->cpu_abc + t->cpu_ntt + t->cpu_msm + t->cpu_verify)
        printf("%s: %-10s abc %.3f s, ntt %.3f s, msm %.3f s, verify %.3f s of CPU (every thread of the pool)\n",
               prefix, "cpu", sec(t->cpu_abc), sec(t->cpu_ntt), sec(t->cpu_msm), sec(t->cpu_verify));
    if (t->params_bytes)
        printf("%s: %-10s %9.2f GiB read from storage by the MSMs, %.2f x the %.2f GiB of points they used\n",
               prefix, "read", (double)read / (1ULL << 30), (double)read / (double)t->params_bytes,
               (double)t->params_bytes / (1ULL << 30));
}
