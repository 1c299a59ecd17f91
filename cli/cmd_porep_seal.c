/*
 * cli/cmd_porep_seal.c — `grothmpi porep verify-seal` and `grothmpi porep
 * param-name`: a sector's PoRep proof checked from its public data alone,
 * as rust-fil-proofs' verify_seal / verify_batch_seal do, and the names of
 * Filecoin's parameter files.
 *
 * verify-seal reads seals (regression records, SealVerifyInfo JSON or
 * flags), derives every partition's public inputs (synth/porep
 * porep_public_inputs), and verifies all partitions of all seals that share
 * a verifying key in one batch (one multi-pairing with random weights); when
 * a batch fails, each seal is verified on its own so the failures are named.
 * One line per seal on stdout; exit 0 when every seal verifies, 1 when any
 * does not or a file cannot be read, 2 for a usage error.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
#include "groth16/groth16.h"
#include "params/params.h"
#include "synth/porep/porep.h"

typedef struct {
    const char *vk, *params_dir, *manifest, *seal_info, *proof, *proof_format;
    const char *comm_r, *comm_d, *prover_id, *actor, *sector_id, *ticket, *seed;
    const char *proof_id, *sector_size, *api, *porep_id, *feature;
} vs_opts_t;

#define CMD "grothmpi porep verify-seal"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: grothmpi porep verify-seal (--vk FILE | --params-dir DIR) SEALS\n"
            "       grothmpi porep param-name (--proof-id N | --sector-size S [--api V] [--feature F])\n"
            "\n"
            "verify-seal checks PoRep proofs from a sector's public data alone (rust-fil-proofs'\n"
            "verify_seal): replica_id, the challenges, their parents and every public input are\n"
            "derived here, then each partition's Groth16 proof is verified. SEALS is one of:\n"
            "  --seal-info FILE   JSON Lines of rust-fil-proofs SealRegressionRecord (one seal a line),\n"
            "                     or a lotus SealVerifyInfo object or array (base64 fields, CIDs)\n"
            "  flags for one seal:\n"
            "    --comm-r X --comm-d X   64 hex digits, or the commitment's CID (bagboea4b5a.../baga6ea4sea...)\n"
            "    --prover-id HEX | --actor N   the prover (an actor id gives lotus' prover_id)\n"
            "    --sector-id N --ticket X --seed X   64 hex digits, or text hashed with SHA-256\n"
            "                            (as porep seal and porep c1 take them)\n"
            "    --proof-id N            a registered seal proof 0..19, or\n"
            "    --sector-size S --api V [--porep-id HEX] [--feature synthetic|non-interactive]\n"
            "    --proof FILE [--proof-format raw|hex|base64]   partitions x 192 bytes\n"
            "Keys: --vk FILE is used for every seal; --params-dir DIR (e.g.\n"
            "/var/tmp/filecoin-proof-parameters) finds each seal's .vk by Filecoin's file name;\n"
            "--manifest FILE (Filecoin's parameters.json, or a manifest.json) checks each key's\n"
            "digest before it is used.\n"
            "Seals sharing a key are verified in one batch; a failing batch is redone per seal.\n"
            "One line per seal (OK or FAIL and why), then a count. Exit status: 0 every seal\n"
            "verifies, 1 some do not (or a file cannot be read), 2 usage error.\n"
            "\n"
            "param-name prints the v28 .params and .vk file names rust-fil-proofs gives the\n"
            "config's circuit (the same for V1, V1_1, synthetic and NI of one sector size).\n");
}

static int parse_opts(vs_opts_t *o, int argc, char **argv, const char *cmd)
{
    static const cli_opt_t table[] = {
        {"--vk", offsetof(vs_opts_t, vk)},
        {"--params-dir", offsetof(vs_opts_t, params_dir)},
        {"--manifest", offsetof(vs_opts_t, manifest)},
        {"--seal-info", offsetof(vs_opts_t, seal_info)},
        {"--proof", offsetof(vs_opts_t, proof)},
        {"--proof-format", offsetof(vs_opts_t, proof_format)},
        {"--comm-r", offsetof(vs_opts_t, comm_r)},
        {"--comm-d", offsetof(vs_opts_t, comm_d)},
        {"--prover-id", offsetof(vs_opts_t, prover_id)},
        {"--actor", offsetof(vs_opts_t, actor)},
        {"--sector-id", offsetof(vs_opts_t, sector_id)},
        {"--ticket", offsetof(vs_opts_t, ticket)},
        {"--seed", offsetof(vs_opts_t, seed)},
        {"--proof-id", offsetof(vs_opts_t, proof_id)},
        {"--sector-size", offsetof(vs_opts_t, sector_size)},
        {"--api", offsetof(vs_opts_t, api)},
        {"--porep-id", offsetof(vs_opts_t, porep_id)},
        {"--feature", offsetof(vs_opts_t, feature)},
    };
    memset(o, 0, sizeof *o);
    return cli_opts_parse(o, table, sizeof table / sizeof table[0], NULL, 0, CLI_NO_POSITIONAL, argc, argv, cmd,
                          usage);
}

/* The config from --proof-id, or --sector-size/--api/--porep-id/--feature.
 * Returns 0 or 2 (printed). */
static int config_from_opts(porep_config_t *c, const vs_opts_t *o, const char *cmd)
{
    err_t err;
    if (o->proof_id) {
        char *end;
        unsigned long id = strtoul(o->proof_id, &end, 10);
        const porep_proof_t *p = *o->proof_id && !*end && id < 20 ? porep_proof_by_id((uint32_t)id) : NULL;
        if (!p) {
            fprintf(stderr, "grothmpi porep %s: --proof-id: '%s' is not a registered seal proof (0..19)\n", cmd,
                    o->proof_id);
            return 2;
        }
        if (o->sector_size || o->api || o->porep_id || o->feature) {
            fprintf(stderr, "grothmpi porep %s: --proof-id fixes the config; drop --sector-size, --api, --porep-id "
                    "and --feature\n", cmd);
            return 2;
        }
        if (porep_config_from_proof(c, p, &err) == 0)
            return 0;
        fprintf(stderr, "grothmpi porep %s: %s\n", cmd, err.msg);
        return 2;
    }
    uint64_t size;
    porep_api_t api = POREP_API_1_1;
    if (!o->sector_size) {
        fprintf(stderr, "grothmpi porep %s: --proof-id or --sector-size is required\n", cmd);
        return 2;
    }
    if (porep_sector_size_parse(&size, o->sector_size, "--sector-size", &err) ||
        (o->api && porep_api_parse(&api, o->api, "--api", &err))) {
        fprintf(stderr, "grothmpi porep %s: %s\n", cmd, err.msg);
        return 2;
    }
    porep_chal_kind_t kind = POREP_CHAL_INTERACTIVE;
    if (o->feature) {
        if (strcmp(o->feature, "synthetic") == 0 || strcmp(o->feature, "SyntheticPoRep") == 0)
            kind = POREP_CHAL_SYNTHETIC;
        else if (strcmp(o->feature, "non-interactive") == 0 || strcmp(o->feature, "NonInteractivePoRep") == 0)
            kind = POREP_CHAL_NI;
        else {
            fprintf(stderr, "grothmpi porep %s: --feature: '%s' is not synthetic or non-interactive\n", cmd,
                    o->feature);
            return 2;
        }
    }
    uint8_t id[32] = {0};
    if (o->porep_id) {
        if (strlen(o->porep_id) != 64 || porep_unhex(id, o->porep_id, 32) != 0) {
            fprintf(stderr, "grothmpi porep %s: --porep-id: expected 64 hex digits\n", cmd);
            return 2;
        }
    } else {
        /* the registered proof of this size, API and feature gives it */
        const porep_proof_t *p = NULL;
        for (uint32_t k = 0; k < 20 && !p; k++) {
            const porep_proof_t *q = porep_proof_by_id(k);
            porep_chal_kind_t qk = k >= 15 ? POREP_CHAL_NI : k >= 10 ? POREP_CHAL_SYNTHETIC : POREP_CHAL_INTERACTIVE;
            if (q->sector_size == size && qk == kind && (q->api == api || (k >= 10 && api == POREP_API_1_2)))
                p = q;
        }
        if (!p) {
            fprintf(stderr, "grothmpi porep %s: no registered seal proof has --sector-size %s, --api %s%s%s; give "
                    "--porep-id\n", cmd, o->sector_size, porep_api_name(api), o->feature ? " and --feature " : "",
                    o->feature ? o->feature : "");
            return 2;
        }
        porep_id_make(id, p);
    }
    if (porep_config_init(c, size, id, api, kind, &err)) {
        fprintf(stderr, "grothmpi porep %s: %s\n", cmd, err.msg);
        return 2;
    }
    return 0;
}

/* A commitment: 64 hex digits or a CID of the given kind. */
static int comm_opt(porep_dom_t *out, const char *s, porep_cid_kind_t kind, const char *opt)
{
    err_t err;
    if (strlen(s) == 64 && porep_unhex(out->b, s, 32) == 0)
        return 0;
    if (porep_cid_decode(out, s, kind, opt, &err) == 0)
        return 0;
    fprintf(stderr, CMD ": %s\n", err.msg);
    return 2;
}

static int hex32_opt(uint8_t out[32], const char *s, const char *opt)
{
    if (s && strlen(s) == 64 && porep_unhex(out, s, 32) == 0)
        return 0;
    fprintf(stderr, CMD ": %s: %s\n", opt, s ? "expected 64 hex digits" : "required");
    return 2;
}

/* Reads a proof file as raw bytes, hex or base64 (whitespace around the
 * text ignored). Returns 0, 1 (cannot read) or 2 (bad format), printed. */
static int read_proof(uint8_t **out, size_t *len, const char *path, const char *format)
{
    err_t err;
    uint8_t *buf;
    size_t n;
    if (gm_file_read(&buf, &n, path, &err)) {
        fprintf(stderr, CMD ": %s\n", err.msg);
        return 1;
    }
    if (!format || strcmp(format, "raw") == 0) {
        *out = buf;
        *len = n;
        return 0;
    }
    size_t a = 0, b = n;
    while (a < b && (buf[a] == ' ' || buf[a] == '\n' || buf[a] == '\r' || buf[a] == '\t'))
        a++;
    while (b > a && (buf[b - 1] == ' ' || buf[b - 1] == '\n' || buf[b - 1] == '\r' || buf[b - 1] == '\t'))
        b--;
    uint8_t *dec = gm_alloc(b - a + 1);
    long m = -1;
    if (dec && strcmp(format, "hex") == 0) {
        size_t s = b - a >= 2 && buf[a] == '0' && (buf[a + 1] | 0x20) == 'x' ? 2 : 0;
        char *t = gm_alloc(b - a + 1);
        if (t) {
            memcpy(t, buf + a + s, b - a - s);
            t[b - a - s] = '\0';
            if ((b - a - s) % 2 == 0 && porep_unhex(dec, t, (b - a - s) / 2) == 0)
                m = (long)((b - a - s) / 2);
            gm_free(t);
        }
    } else if (dec && strcmp(format, "base64") == 0) {
        m = porep_base64_decode(dec, b - a + 1, (const char *)buf + a, b - a);
    } else {
        gm_free(dec);
        gm_free(buf);
        fprintf(stderr, CMD ": --proof-format: '%s' is not raw, hex or base64\n", format);
        return 2;
    }
    gm_free(buf);
    if (m < 0) {
        gm_free(dec);
        fprintf(stderr, CMD ": %s: not %s text\n", path, format);
        return 2;
    }
    *out = dec;
    *len = (size_t)m;
    return 0;
}

/* One seal from the flags. Returns 0, 1 or 2 (printed). */
static int seal_from_flags(porep_seal_info_t *s, const vs_opts_t *o)
{
    int rc;
    memset(s, 0, sizeof *s);
    snprintf(s->label, sizeof s->label, "%s", o->proof ? o->proof : "seal");
    if ((rc = config_from_opts(&s->cfg, o, "verify-seal")))
        return rc;
    if (!o->comm_r || !o->comm_d || !o->sector_id || !o->seed || !o->ticket || !o->proof ||
        (!o->prover_id && !o->actor)) {
        fprintf(stderr, CMD ": one seal needs --comm-r, --comm-d, --prover-id or --actor, --sector-id, --ticket, "
                "--seed and --proof (or --seal-info FILE)\n");
        return 2;
    }
    char *end;
    if ((rc = comm_opt(&s->comm_r, o->comm_r, POREP_CID_SEALED, "--comm-r")) ||
        (rc = comm_opt(&s->comm_d, o->comm_d, POREP_CID_UNSEALED, "--comm-d")) ||
        0)
        return rc;
    /* as `porep seal` and `porep c1` take them */
    porep_seed_parse(s->ticket, o->ticket);
    porep_seed_parse(s->seed, o->seed);
    if (o->prover_id && o->actor) {
        fprintf(stderr, CMD ": give --prover-id or --actor, not both\n");
        return 2;
    }
    if (o->prover_id && (rc = hex32_opt(s->prover_id, o->prover_id, "--prover-id")))
        return rc;
    if (o->actor) {
        unsigned long long a = strtoull(o->actor, &end, 10);
        if (!*o->actor || *end || o->actor[0] == '-') {
            fprintf(stderr, CMD ": --actor: '%s' is not an actor id\n", o->actor);
            return 2;
        }
        porep_prover_id_from_actor(s->prover_id, a);
    }
    s->sector_id = strtoull(o->sector_id, &end, 10);
    if (!*o->sector_id || *end || o->sector_id[0] == '-') {
        fprintf(stderr, CMD ": --sector-id: '%s' is not a u64\n", o->sector_id);
        return 2;
    }
    return read_proof(&s->proof, &s->proof_len, o->proof, o->proof_format);
}

/* ---- keys ------------------------------------------------------------------------- */

typedef struct {
    char path[4096];
    groth16_vk_t vk;
    groth16_pvk_t pvk;
    int status;              /* 0 loaded; else the error, msg */
    char msg[GM_ERR_MSG_LEN];
} vkey_t;

typedef struct {
    vkey_t *k;
    size_t n, cap;
} keys_t;

/* The key at path, loaded once (its digest checked against manifest's
 * entry for its file name first, when manifest is not NULL). NULL only when
 * out of memory. */
static vkey_t *key_get(keys_t *ks, const char *path, const char *manifest)
{
    for (size_t i = 0; i < ks->n; i++)
        if (strcmp(ks->k[i].path, path) == 0)
            return &ks->k[i];
    if (ks->n == ks->cap) {
        size_t c = ks->cap ? 2 * ks->cap : 4;
        vkey_t *t = realloc(ks->k, c * sizeof *t);
        if (!t)
            return NULL;
        ks->k = t;
        ks->cap = c;
    }
    vkey_t *k = &ks->k[ks->n++];
    memset(k, 0, sizeof *k);
    snprintf(k->path, sizeof k->path, "%s", path);
    err_t err;
    if (manifest) {
        char digest[PARAMS_DIGEST_HEX + 1];
        const char *slash = strrchr(path, '/');
        bool listed = false;
        if ((k->status = params_file_digest(digest, NULL, path, &err)) ||
            (k->status = params_manifest_check(&listed, manifest, slash ? slash + 1 : path, digest, path, &err))) {
            snprintf(k->msg, sizeof k->msg, "%s", err.msg);
            return k;
        }
        if (!listed) {
            k->status = GM_EVERIFY;
            gm_err_set(&err, GM_EVERIFY, "%s: not listed in %s (digest %s)", path, manifest, digest);
            snprintf(k->msg, sizeof k->msg, "%s", err.msg);
            return k;
        }
    }
    if ((k->status = groth16_vk_load(&k->vk, path, &err)) ||
        (k->status = groth16_pvk_prepare(&k->pvk, &k->vk, &err)))
        snprintf(k->msg, sizeof k->msg, "%s", err.msg);
    return k;
}

static void keys_free(keys_t *ks)
{
    for (size_t i = 0; i < ks->n; i++) {
        groth16_pvk_free(&ks->k[i].pvk);
        groth16_vk_free(&ks->k[i].vk);
    }
    free(ks->k);
}

/* ---- verify-seal -------------------------------------------------------------------- */

/* Records why seal s fails (the message truncated to fit). */
static void seal_fail(porep_seal_info_t *s, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void seal_fail(porep_seal_info_t *s, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
    s->status = code;
}

/* A seal ready to verify: its key, its partition proofs and inputs. */
typedef struct {
    vkey_t *key;
    groth16_proof_t *proofs;
    fr_t *inputs;
    size_t n_in;
    int ok; /* 1 verified, 0 failed, -1 not yet known */
} prepared_t;

/* Derives everything verify_seal derives for s; on failure s->status and
 * s->msg say why. */
static void prepare(prepared_t *p, porep_seal_info_t *s, const vs_opts_t *o, keys_t *ks)
{
    err_t err;
    int rc;
    porep_public_t pub;
    porep_graph_t g;
    memset(&g, 0, sizeof g);
    p->ok = -1;
    const porep_config_t *c = &s->cfg;
    char size[32];
    porep_sector_size_format(size, sizeof size, c->shape.sector_size);
    if (c->kind == POREP_CHAL_NI && s->proof_len != (size_t)c->partitions * GROTH16_PROOF_BYTES) {
        seal_fail(s, GM_ENOTSUP, "%s: a NonInteractivePoRep proof of %zu bytes is a SnarkPack aggregate of %u "
                 "partition proofs; verifying aggregates is not supported", s->label, s->proof_len, c->partitions);
        return;
    }
    if (s->proof_len != (size_t)c->partitions * GROTH16_PROOF_BYTES) {
        seal_fail(s, GM_EFORMAT, "%s: proof: %zu bytes; a %s %s seal has %u partitions of 192 bytes", s->label,
                 s->proof_len, size, porep_chal_kind_name(c->kind), c->partitions);
        return;
    }
    char vkpath[4096];
    if (o->vk)
        snprintf(vkpath, sizeof vkpath, "%s", o->vk);
    else if ((rc = porep_param_find(NULL, vkpath, sizeof vkpath, o->params_dir, c, &err))) {
        seal_fail(s, rc, "%s: %s", s->label, err.msg);
        return;
    }
    if (!(p->key = key_get(ks, vkpath, o->manifest))) {
        seal_fail(s, GM_ENOMEM, "%s: out of memory", s->label);
        return;
    }
    if (p->key->status) {
        seal_fail(s, p->key->status, "%s: %s", s->label, p->key->msg);
        return;
    }
    p->n_in = porep_public_input_count(c);
    if (p->key->vk.n_ic != p->n_in + 1) {
        seal_fail(s, GM_EINVAL, "%s: %s has %zu ic points (%zu public inputs); a %s seal has %zu public inputs "
                 "per partition (3 + 18 x %u challenges): not this circuit's verifying key", s->label, vkpath,
                 p->key->vk.n_ic, p->key->vk.n_ic ? p->key->vk.n_ic - 1 : 0, size, p->n_in, c->challenges);
        return;
    }
    p->proofs = gm_alloc(c->partitions * sizeof *p->proofs);
    p->inputs = gm_alloc(c->partitions * p->n_in * sizeof *p->inputs);
    if (!p->proofs || !p->inputs) {
        seal_fail(s, GM_ENOMEM, "%s: out of memory", s->label);
        return;
    }
    if ((s->status = porep_seal_info_public(&pub, s, &err)) || (s->status = porep_config_graph(&g, c, &err))) {
        snprintf(s->msg, sizeof s->msg, "%s", err.msg);
        porep_graph_destroy(&g);
        return;
    }
    for (unsigned k = 0; k < c->partitions && !s->status; k++) {
        char what[160];
        snprintf(what, sizeof what, "%s: proof of partition %u", s->label, k);
        if ((s->status = groth16_proof_from_bytes(&p->proofs[k], s->proof + (size_t)k * GROTH16_PROOF_BYTES, what,
                                                  &err)) ||
            (s->status = porep_public_inputs(p->inputs + k * p->n_in, &pub, &g, k, &err)))
            snprintf(s->msg, sizeof s->msg, "%s", err.msg);
    }
    porep_graph_destroy(&g);
}

static int run_verify_seal(const vs_opts_t *o)
{
    if (!!o->vk == !!o->params_dir) {
        fprintf(stderr, CMD ": give exactly one of --vk FILE and --params-dir DIR\n");
        return 2;
    }
    porep_seal_info_t *seals = NULL;
    size_t n = 0;
    int rc;
    err_t err;
    if (o->seal_info) {
        if (o->proof || o->comm_r || o->comm_d || o->proof_id || o->sector_size) {
            fprintf(stderr, CMD ": --seal-info FILE carries the seals; drop the one-seal flags\n");
            return 2;
        }
        if ((rc = porep_seal_info_read(&seals, &n, o->seal_info, &err))) {
            fprintf(stderr, CMD ": %s\n", err.msg);
            return 1;
        }
    } else {
        seals = gm_calloc(1, sizeof *seals);
        if (!seals)
            return 1;
        n = 1;
        if ((rc = seal_from_flags(&seals[0], o))) {
            porep_seal_info_free(seals, n);
            return rc;
        }
    }
    keys_t ks = {0};
    prepared_t *pr = gm_calloc(n, sizeof *pr);
    if (!pr) {
        porep_seal_info_free(seals, n);
        return 1;
    }
    uint64_t t0 = gm_now_ns();
    for (size_t i = 0; i < n; i++)
        if (seals[i].status == 0)
            prepare(&pr[i], &seals[i], o, &ks);
    /* one batch per key over every partition of every prepared seal */
    for (size_t key = 0; key < ks.n; key++) {
        size_t np = 0, ni = 0;
        for (size_t i = 0; i < n; i++)
            if (seals[i].status == 0 && pr[i].key == &ks.k[key])
                np += seals[i].cfg.partitions, ni = pr[i].n_in;
        if (np == 0)
            continue;
        groth16_proof_t *bp = gm_alloc(np * sizeof *bp);
        fr_t *bi = gm_alloc(np * ni * sizeof *bi);
        int batch_ok = 0;
        if (bp && bi) {
            size_t at = 0;
            for (size_t i = 0; i < n; i++) {
                if (seals[i].status || pr[i].key != &ks.k[key])
                    continue;
                unsigned parts = seals[i].cfg.partitions;
                memcpy(bp + at, pr[i].proofs, parts * sizeof *bp);
                memcpy(bi + at * ni, pr[i].inputs, parts * ni * sizeof *bi);
                at += parts;
            }
            batch_ok = groth16_verify_batch(&ks.k[key].pvk, bp, bi, ni, np, &err) == 0;
        }
        gm_free(bp);
        gm_free(bi);
        for (size_t i = 0; i < n; i++) {
            if (seals[i].status || pr[i].key != &ks.k[key])
                continue;
            if (batch_ok) {
                pr[i].ok = 1;
                continue;
            }
            /* the per-seal fallback names which ones fail */
            int r = groth16_verify_batch(&ks.k[key].pvk, pr[i].proofs, pr[i].inputs, ni, seals[i].cfg.partitions,
                                         &err);
            pr[i].ok = r == 0;
            if (r) {
                seal_fail(&seals[i], r, "%s: the proof does not verify against the public inputs "
                         "derived from its comm_r, comm_d, prover_id, sector_id, ticket, seed and config (%s)",
                         seals[i].label, ks.k[key].path);
            }
        }
    }
    size_t good = 0;
    for (size_t i = 0; i < n; i++) {
        const porep_config_t *c = &seals[i].cfg;
        if (seals[i].status == 0 && pr[i].ok == 1) {
            char size[32];
            porep_sector_size_format(size, sizeof size, c->shape.sector_size);
            printf("%s: OK: %s API %s %s, %u partition(s), sector %llu\n", seals[i].label, size,
                   porep_api_name(c->api), porep_chal_kind_name(c->kind), c->partitions,
                   (unsigned long long)seals[i].sector_id);
            good++;
        } else {
            printf("%s: FAIL: %s\n", seals[i].label,
                   strncmp(seals[i].msg, seals[i].label, strlen(seals[i].label)) == 0
                       ? seals[i].msg + strlen(seals[i].label) + 2
                       : seals[i].msg);
        }
    }
    printf("verify-seal: %zu of %zu seal(s) verify (%.2f s)\n", good, n, (double)(gm_now_ns() - t0) / 1e9);
    for (size_t i = 0; i < n; i++) {
        gm_free(pr[i].proofs);
        gm_free(pr[i].inputs);
    }
    gm_free(pr);
    keys_free(&ks);
    porep_seal_info_free(seals, n);
    return good == n ? 0 : 1;
}

static int run_param_name(const vs_opts_t *o)
{
    porep_config_t c;
    int rc = config_from_opts(&c, o, "param-name");
    if (rc)
        return rc;
    char name[POREP_PARAM_NAME_LEN];
    porep_param_name(name, &c, "params");
    printf("%s\n", name);
    porep_param_name(name, &c, "vk");
    printf("%s\n", name);
    return 0;
}

int cmd_porep_seal(int argc, char **argv)
{
    vs_opts_t o;
    const char *action = argv[0];
    int rc = parse_opts(&o, argc, argv, action);
    if (rc)
        return rc < 0 ? 0 : rc;
    return strcmp(action, "param-name") == 0 ? run_param_name(&o) : run_verify_seal(&o);
}
