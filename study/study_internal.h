/*
 * study/study_internal.h — what the files of study/ share (no other folder
 * includes it).
 *   study.c    the study file, the points, the plan, the run loop, medians.
 *   output.c   study.json, study.csv, study.txt (from the same numbers).
 *   plot.c     the SVG line charts.
 *   compare.c  report comparison (grothmpi report compare).
 */
#ifndef GM_STUDY_INTERNAL_H
#define GM_STUDY_INTERNAL_H

#include <jansson.h>

#include "jobs/jobs.h"
#include "mpi/mpi.h"
#include "study/study.h"
#include "topo/topo.h"

/* <math.h> cannot be included next to ff/ff.h (both declare FP_ZERO), so
 * the few math functions are the compiler's builtins (libm behind them). */
#define STUDY_NAN __builtin_nan("")

#define STUDY_MAX_VALUES 64
#define STUDY_MAX_REPS 100

extern const char *const study_axis_names[STUDY_NAXES];

/* The counters a study keeps per counter stage, in the order of its
 * outputs' columns. */
typedef enum {
    STUDY_EV_INSTRUCTIONS = 0,
    STUDY_EV_CYCLES,
    STUDY_EV_BRANCHES,
    STUDY_EV_BRANCH_MISSES,
    STUDY_EV_L1D_MISSES,
    STUDY_EV_FILL_L2,  /* the four fills in the order of fill_pct */
    STUDY_EV_FILL_CCX,
    STUDY_EV_FILL_REMOTE,
    STUDY_EV_FILL_DRAM,
    STUDY_NEV
} study_ev_t;

/* The report event (mpi/mpi.h) of each, whose name they go by. */
extern const mpi_event_t study_events[STUDY_NEV];

/* One repetition's numbers, read back from its report.json. */
typedef struct {
    double wall_s, proofs_per_hour;
    double stage_s[MPI_NSTAGES];           /* cluster totals of wall time */
    double ev[MPI_NCSTAGES][STUDY_NEV];    /* cluster totals per counter stage, NAN = not available */
    unsigned threads, ranks, depth;        /* rank 0's threads, ranks, rank 0's pipeline depth */
    char report[JOBS_PATH_LEN + 128];
} study_rep_t;

/* Median / spread of one point. */
typedef struct {
    double pph_median, pph_min, pph_max, spread_pct; /* spread: (max - min) / median * 100 */
    double wall_median;
    double stage_median[MPI_NSTAGES];
    double ev_median[MPI_NCSTAGES][STUDY_NEV];
    double ipc[MPI_NCSTAGES];               /* instructions / cycles, NAN when not available */
    double fill_pct[MPI_NCSTAGES][4];                  /* % of L1 fills from L2, CCX, other CCX, DRAM */
} study_summary_t;

typedef struct {
    uint64_t v[STUDY_NAXES];                /* this point's value of each axis (when swept) */
    study_rep_t *reps;                      /* nreps */
    unsigned done;                          /* reps finished */
    study_summary_t sum;
} study_point_t;

struct study {
    char name[JOBS_ID_LEN];
    char file[JOBS_PATH_LEN];
    char output[JOBS_PATH_LEN];
    char topo_spec[JOBS_PATH_LEN + 16];
    bool plan_only;
    jobs_campaign_t base;
    json_t *base_json;                      /* the normalized base campaign */
    topo_t *topo;
    /* The topology the runs' ranks use when the study runs here (topology
     * "this") and the base campaign describes the machine otherwise
     * (resources.topology synthetic or XML): the domains axis is checked and
     * planned against it. NULL: topo. */
    topo_t *run_topo;
    unsigned nvals[STUDY_NAXES];            /* 0: not swept */
    uint64_t vals[STUDY_NAXES][STUDY_MAX_VALUES];
    unsigned nreps;
    size_t npoints;
    study_point_t *points;
};

/* output.c */
int study_write_outputs(const study_t *s, err_t *err) __attribute__((warn_unused_result));
void study_print_csv(const study_t *s, FILE *f);
/* Formats an axis value as text ("true", "1GiB" -> bytes, numbers). */
void study_axis_value_text(char *buf, size_t n, study_axis_t a, uint64_t v);

/* plot.c: writes DIR/plots/ (SVG files). */
int study_write_plots(const study_t *s, const char *dir, err_t *err) __attribute__((warn_unused_result));

#endif
