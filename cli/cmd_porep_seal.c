/*
 * cli/cmd_porep_seal.c — `grothmpi porep verify-seal` and `grothmpi porep
 * param-name`: a sector's PoRep proof checked from its public data alone,
 * as rust-fil-proofs' verify_seal / verify_batch_seal do, and the names of
 * Filecoin's parameter files.
 *
 * verify-seal reads seals (regression records, SealVerifyInfo JSON or
 * flags) and hands them to params_seals_verify (params/seals.c: the keys,
 * the public inputs, the batches); this file parses and prints. One line
 * per seal on stdout; exit 0 when every seal verifies, 1 when any does not
 * or a file cannot be read, 2 for a usage error.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cli/cli.h"
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
            "    --sector-id N --ticket X --seed X   64 hex digits, or text hashed with SHA-256 (a note\n"
            "                            says so; as porep seal and porep c1 take them)\n"
            "    (64 hex digits may start with 0x)\n"
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
        if (gm_hex_decode_exact(id, 32, o->porep_id, GM_HEX_PREFIX, &err)) {
            fprintf(stderr, "grothmpi porep %s: --porep-id: %s\n", cmd, err.msg);
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

/* True when s is hex digits only (after an "0x"): meant as hex, never as a
 * CID, whose base32 text always holds letters past 'f'. */
static bool looks_hex(const char *s)
{
    size_t len = strlen(s), at = gm_hex_prefix(s, len, GM_HEX_PREFIX);
    return len > at && strspn(s + at, "0123456789abcdefABCDEF") == len - at;
}

/* A commitment: 64 hex digits (an "0x" before them allowed) or a CID of the
 * given kind. */
static int comm_opt(porep_dom_t *out, const char *s, porep_cid_kind_t kind, const char *opt)
{
    err_t err;
    if (looks_hex(s)) {
        if (gm_hex_decode_exact(out->b, 32, s, GM_HEX_PREFIX, &err) == 0)
            return 0;
        fprintf(stderr, CMD ": %s: %s (a commitment is 64 hex digits or its CID)\n", opt, err.msg);
        return 2;
    }
    if (porep_cid_decode(out, s, kind, opt, &err) == 0)
        return 0;
    fprintf(stderr, CMD ": %s\n", err.msg);
    return 2;
}

static int hex32_opt(uint8_t out[32], const char *s, const char *opt)
{
    err_t err;
    if (gm_hex_decode_exact(out, 32, s, GM_HEX_PREFIX, &err) == 0)
        return 0;
    fprintf(stderr, CMD ": %s: %s\n", opt, err.msg);
    return 2;
}

/* --ticket or --seed: 64 hex digits, or text hashed as `porep seal` and
 * `porep c1` hash it, with a note then (a mistyped value would otherwise
 * only show as a proof that does not verify). */
static void seed_opt(uint8_t out[32], const char *s, const char *opt)
{
    if (porep_seed_parse(out, s))
        fprintf(stderr, CMD ": note: %s '%s' is not 64 hex digits: its SHA-256 is used, as porep seal and porep "
                "c1 take text\n", opt, s);
}

static bool is_space(uint8_t c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/* Reads a proof file as raw bytes, hex or base64 (whitespace around the
 * text ignored). Returns 0, 1 (cannot read, or not text of its format) or
 * 2 (an unknown format), printed. */
static int read_proof(uint8_t **out, size_t *len, const char *path, const char *format)
{
    err_t err;
    if (format && strcmp(format, "raw") != 0 && strcmp(format, "hex") != 0 && strcmp(format, "base64") != 0) {
        fprintf(stderr, CMD ": --proof-format: '%s' is not raw, hex or base64\n", format);
        return 2;
    }
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
    while (a < b && is_space(buf[a]))
        a++;
    while (b > a && is_space(buf[b - 1]))
        b--;
    uint8_t *dec = gm_alloc(b - a + 1);
    long m = -1;
    if (!dec)
        gm_err_set(&err, GM_ENOMEM, "out of memory for %zu bytes", b - a + 1);
    else if (strcmp(format, "hex") == 0)
        m = gm_hex_decode(dec, b - a + 1, (const char *)buf + a, b - a, GM_HEX_PREFIX, &err);
    else
        m = gm_base64_decode(dec, b - a + 1, (const char *)buf + a, b - a, &err);
    gm_free(buf);
    if (m < 0) {
        gm_free(dec);
        fprintf(stderr, CMD ": %s: not %s text: %s\n", path, format, err.msg);
        return 1;
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
    if (!o->comm_r && !o->comm_d && !o->sector_id && !o->seed && !o->ticket && !o->proof && !o->prover_id &&
        !o->actor && !o->proof_id && !o->sector_size) {
        fprintf(stderr, CMD ": no seal given: --seal-info FILE, or one seal's --comm-r, --comm-d, --prover-id or "
                "--actor, --sector-id, --ticket, --seed, --proof and --proof-id or --sector-size (--help)\n");
        return 2;
    }
    if (!o->comm_r || !o->comm_d || !o->sector_id || !o->seed || !o->ticket || !o->proof ||
        (!o->prover_id && !o->actor)) {
        fprintf(stderr, CMD ": one seal needs --comm-r, --comm-d, --prover-id or --actor, --sector-id, --ticket, "
                "--seed and --proof (or --seal-info FILE)\n");
        return 2;
    }
    if ((rc = config_from_opts(&s->cfg, o, "verify-seal")))
        return rc;
    char *end;
    if ((rc = comm_opt(&s->comm_r, o->comm_r, POREP_CID_SEALED, "--comm-r")) ||
        (rc = comm_opt(&s->comm_d, o->comm_d, POREP_CID_UNSEALED, "--comm-d")))
        return rc;
    seed_opt(s->ticket, o->ticket, "--ticket");
    seed_opt(s->seed, o->seed, "--seed");
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
    uint64_t t0 = gm_now_ns();
    const params_seal_keys_t keys = {.vk = o->vk, .params_dir = o->params_dir, .manifest = o->manifest};
    if (params_seals_verify(seals, n, &keys, &err)) {
        fprintf(stderr, CMD ": %s\n", err.msg);
        porep_seal_info_free(seals, n);
        return 1;
    }
    size_t good = 0;
    for (size_t i = 0; i < n; i++) {
        const porep_seal_info_t *s = &seals[i];
        const porep_config_t *c = &s->cfg;
        if (s->status == 0) {
            char size[32];
            porep_sector_size_format(size, sizeof size, c->shape.sector_size);
            printf("%s: OK: %s API %s %s, %u partition(s), sector %llu\n", s->label, size, porep_api_name(c->api),
                   porep_chal_kind_name(c->kind), c->partitions, (unsigned long long)s->sector_id);
            good++;
        } else {
            size_t ll = strlen(s->label);
            printf("%s: FAIL: %s\n", s->label,
                   strncmp(s->msg, s->label, ll) == 0 && strncmp(s->msg + ll, ": ", 2) == 0 ? s->msg + ll + 2
                                                                                             : s->msg);
        }
    }
    printf("verify-seal: %zu of %zu seal(s) verify (%.2f s)\n", good, n, (double)(gm_now_ns() - t0) / 1e9);
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
