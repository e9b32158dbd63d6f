/* SPDX-License-Identifier: MIT */
/* The engine of the fused Givens kernels (Hamze, arXiv:2106.00003,
 * Algorithms 2 and 3 in one launch; notes/givens.md section 11): every step
 * of the circle-method schedule applied to column slabs that stay in private
 * memory for the whole sweep.  The design of kernels/cuda/givens_slab.cuh
 * with the rotation table of givens_table.cl ((c, s'), four operations per
 * rotation and column).
 *
 * Columns evolve independently, so a work-group owns WG = GIVENS_GROUPS
 * column groups of W = GIVENS_WIDTH values per row (the forward: columns of
 * U; the backward: columns of M, then the same columns of V), and every
 * work-item holds B = GIVENS_SLOTS consecutive slots of one group: the top
 * and the bottom row of each.  Rows are held by circle position; between
 * steps each value moves one position (tops to the next slot, bottoms to the
 * previous; notes/givens.md section 3), so a work-item passes out one top and
 * one bottom row per step and takes in two.  Inside the work-item the move
 * costs nothing: the arrays are addressed through a rotating offset R, a
 * constant in each of the B steps the sweep's loop unrolls.  Between
 * work-items the rows go through local memory, one barrier per step; the
 * same barrier publishes the next step's rotations, copied from the table
 * once per work-group for all its column groups (the table is read once per
 * W WG values of a row), each work-item copying pairs t, t + T, ... so that
 * neighbours read neighbouring pairs.  A work-item loads its share of a step
 * two steps ahead into registers and stores it to local memory just before
 * the barrier that publishes it.  Needs givens_common.cl before it. */

/* Consecutive slots per work-item: 1, 2, 4, 8 or 16. */
#ifndef GIVENS_SLOTS
#define GIVENS_SLOTS 1
#endif

/* Values per row of a column group: its columns (forward), twice them
 * (backward: M and V side by side). */
#ifndef GIVENS_WIDTH
#define GIVENS_WIDTH 1
#endif

/* 1: each step's rotations are staged in local memory for the work-group;
 * 0: each work-item reads its own from the table (where local memory cannot
 * hold two staged steps beside the exchange). */
#ifndef GIVENS_STAGED
#define GIVENS_STAGED 1
#endif

/* Column groups per work-group, a divisor of GIVENS_SLOTS. */
#ifndef GIVENS_GROUPS
#define GIVENS_GROUPS 1
#endif

/* 1: two steps per exchange (givens_slab_pair; GIVENS_SLOTS of 4 or more):
 * each work-item also holds the nearest slot of each neighbour (a halo),
 * rotates them at the first step of a pair, and exchanges four rows every
 * second step instead of two every step, so that a pair of steps has one
 * barrier. */
#ifndef GIVENS_PAIRS
#define GIVENS_PAIRS 0
#endif

#define B GIVENS_SLOTS
#define W GIVENS_WIDTH
#define WG GIVENS_GROUPS

#if GIVENS_PAIRS && (B < 4 || B % 2)
#error "two steps per exchange need an even GIVENS_SLOTS of 4 or more"
#endif

/* Rows a work-item takes in from each side per exchange, and the staged
 * steps in flight (a pair's two and the next pair's). */
#define GIVENS_RX (GIVENS_PAIRS ? 2 : 1)
#define GIVENS_STAGES (2 * GIVENS_RX)

/* Pairs per slot group's row of a staged step: B, padded to an odd count so
 * that the work-items of a warp reading their first pair hit distinct
 * banks. */
#define GIVENS_ROW (B == 1 ? 1 : B + 1)

/* Table pairs a work-item copies per step: S / T = B / WG. */
#define GIVENS_MINE (B / WG)

/* Exchange vectors: rows of W values move as vectors of XK. */
#define GIVENS_VEC4(t) GIVENS_PASTE(t, 4)
#if W % 4 == 0
#define XK 4
#define XVEC GIVENS_VEC4(REAL)
#elif W % 2 == 0
#define XK 2
#define XVEC REAL2
#else
#define XK 1
#define XVEC REAL
#endif

/* 1 where a row is an even number of vectors: stored as planes (below). */
#define GIVENS_PLANES (W / XK % 2 == 0)

/* Vectors from one row of the exchange to the next: 1 as planes, else a
 * whole row's. */
#define GIVENS_XROW (GIVENS_PLANES ? 1 : W / XK)

/* Registers of logical top / bottom slot q after R moves (R < B): tops move
 * up one slot per step, bottoms down, so the registers rotate the other
 * way. */
#define GIVENS_PT(q, R) (((q) - (R) + B) % B)
#define GIVENS_PB(q, R) (((q) + (R)) % B)

/* Where a work-item is and what it shares: t = w NG + g for slot group g of
 * column group w; offsets (in vectors) of its outgoing and incoming rows in
 * parity buffer 0 of the exchange, xsize vectors per parity. */
typedef struct {
    int t, g, w, NG, T, S, nt;
    int tout, bout, tin, bin, xsize;
    int xstride;                /* vectors between the pieces of a row */
} givens_slab_ctx;

/* The exchange's routing (kernels/cuda/givens_slab.cuh, givens_slab_here):
 * [top in | bottom in] by destination work-item.  Tops move up a position,
 * bottoms down; position nt - 1 goes to 1, position 0 stays.  The top of
 * slot S - 1 turns into its own bottom; the bottom of slot 0 becomes the top
 * of slot 1: with B > 1 a slot of work-item g = 0, which takes it in as its
 * logical top 0 and swaps it into slot 1 (givens_slab_step); with B = 1 it
 * goes to work-item 1, and work-item 0's top, position 0 itself, comes back
 * to it unchanged.  A row of an even number of vectors is stored as planes
 * (vector k of every work-item's row in plane k, as in the CUDA engine): the
 * backward's rows of two float4 stored whole put a warp's 16-byte accesses
 * in the same banks twice (on NVIDIA's OpenCL at n = 2048, slots 4, cols 4:
 * 5.42 ms whole, 5.02 as planes; at n = 1024 whole was 2-4% faster). */
givens_slab_ctx givens_slab_here(const int nt)
{
    givens_slab_ctx c;
    c.nt = nt;
    c.S = nt / 2;
    c.NG = c.S / B;
    c.T = (int)get_local_size(0);
    c.t = (int)get_local_id(0);
    c.g = c.t % c.NG;
    c.w = c.t / c.NG;
    const int V = W / XK, U = GIVENS_XROW;
    const int base = c.w * c.NG, bins = GIVENS_RX * c.T * V, last = c.NG - 1;
    c.xsize = 2 * GIVENS_RX * c.T * V;
    c.xstride = GIVENS_PLANES ? GIVENS_RX * c.T : 1;
#if GIVENS_PAIRS
    /* Two rows each way, row j of work-item t's tops at (2 t + j) U: its
     * predecessor's last two tops (row 0 the last) and its successor's first
     * two bottoms (row 0 the first).  The first work-item of a group, which
     * has no predecessor, puts its bottoms in its own tops' rows, which no
     * one else writes; the last puts its tops in its own bottoms' rows. */
    c.tout = c.g < last ? (base + c.g + 1) * 2 * U : bins + (base + c.g) * 2 * U;
    c.bout = c.g > 0 ? bins + (base + c.g - 1) * 2 * U : (base + c.g) * 2 * U;
    c.tin = c.t * 2 * U;
    c.bin = bins + c.t * 2 * U;
#else
    if (B == 1 && c.g == 0)
        c.tout = base * U;
    else
        c.tout = c.g < last ? (base + c.g + 1) * U : bins + (base + c.g) * U;
    if (c.g > 0)
        c.bout = bins + (base + c.g - 1) * U;
    else if (B == 1 && last > 0)
        c.bout = (base + 1) * U;
    else if (B == 1)
        c.bout = bins + base * U;       /* S = 1: the one pair never moves */
    else
        c.bout = base * U;
    c.tin = c.t * U;
    c.bin = bins + c.t * U;
#endif
    return c;
}

/* One row of W values to the exchange and back, as vectors, vector k at
 * k * stride from the row's first. */
void givens_slab_put(__local XVEC *dst, const REAL *v, const int stride)
{
    for (int k = 0; k < W / XK; k++) {
#if XK == 4
        dst[k * stride] = (XVEC)(v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]);
#elif XK == 2
        dst[k * stride] = (XVEC)(v[2 * k], v[2 * k + 1]);
#else
        dst[k * stride] = v[k];
#endif
    }
}

void givens_slab_get(__local const XVEC *src, REAL *v, const int stride)
{
    for (int k = 0; k < W / XK; k++) {
        const XVEC x = src[k * stride];
#if XK == 4
        v[4 * k] = x.s0;
        v[4 * k + 1] = x.s1;
        v[4 * k + 2] = x.s2;
        v[4 * k + 3] = x.s3;
#elif XK == 2
        v[2 * k] = x.s0;
        v[2 * k + 1] = x.s1;
#else
        v[k] = x;
#endif
    }
}

/* This work-item's share of table row `step` (S pairs): pairs t, t + T, ...
 * into `held`, or from `held` into their slot group's padded row of stage
 * `step` mod GIVENS_STAGES. */
void givens_slab_fetch(const givens_slab_ctx *c, __global const REAL2 *cs, const int step,
                       REAL2 *held)
{
    __global const REAL2 *src = cs + (size_t)step * (size_t)c->S;
    for (int k = 0; k < GIVENS_MINE; k++)
        held[k] = src[c->t + k * c->T];
}

void givens_slab_stage(const givens_slab_ctx *c, __local REAL2 *stages, const int step,
                       const REAL2 *held)
{
    __local REAL2 *dst =
        stages + (size_t)(step & (GIVENS_STAGES - 1)) * (size_t)(c->NG * GIVENS_ROW);
    for (int k = 0; k < GIVENS_MINE; k++) {
        const int p = c->t + k * c->T;
        dst[(p / B) * GIVENS_ROW + p % B] = held[k];
    }
}

/* The coefficients of slot q of slot group gr in `step`: from its stage,
 * or from the table where the steps are not staged. */
REAL2 givens_slab_coef(const givens_slab_ctx *c, __global const REAL2 *cs,
                       __local const REAL2 *stages, const int step, const int gr, const int q)
{
#if GIVENS_STAGED
    return stages[(size_t)(step & (GIVENS_STAGES - 1)) * (size_t)(c->NG * GIVENS_ROW)
                  + (size_t)(gr * GIVENS_ROW + q)];
#else
    return cs[(size_t)step * (size_t)c->S + (size_t)(gr * B + q)];
#endif
}

/* The rotations of a work-item's B slots in `step`, R moves done so far,
 * and the pairs' dot products into P (the backward: P not NULL; padding
 * steps (>= nt - 1), the identity, into P's padding rows). */
void givens_slab_rotate(REAL top[B][W], REAL bot[B][W], const givens_slab_ctx *c,
                        __global const REAL2 *cs, __local const REAL2 *stages, __global REAL *P,
                        const size_t pstride, const int first, const int step, const int R)
{
    for (int q = 0; q < B; q++) {
        const REAL2 r = givens_slab_coef(c, cs, stages, step, c->g, q);
        const int pt = GIVENS_PT(q, R), pb = GIVENS_PB(q, R);
        for (int v = 0; v < W; v++) {
            const REAL a = top[pt][v], b = bot[pb][v];
            top[pt][v] = r.x * a - r.y * b;
            bot[pb][v] = r.y * a + r.x * b;
        }
    }
    if (P) {
        /* Columns 0 .. W/2-1 against W/2 .. W-1: top_a bot_b - bot_a top_b. */
        __global REAL *d = P + (size_t)step * pstride + (size_t)(c->g * B);
        for (int q = 0; q < B; q++) {
            const int pt = GIVENS_PT(q, R), pb = GIVENS_PB(q, R);
            REAL a = 0;
            for (int v = 0; v < W / 2; v++) {
                /* Two statements, so that each contracts to a multiply-add. */
                a += top[pt][v] * bot[pb][W / 2 + v];
                a -= bot[pb][v] * top[pt][W / 2 + v];
            }
            d[q] = first ? a : d[q] + a;
        }
    }
}

#if !GIVENS_PAIRS
/* One step, R moves done so far (R < B; a constant where the sweep calls
 * it): rotate with the staged coefficients (and the dot products), pass the
 * boundary rows on, stage the next step, barrier, take the incoming rows,
 * fetch the step after next.  Nothing branches between the barriers but on
 * constants: PoCL's work-group functions cannot take a branch that rejoins
 * between two barriers, so the last steps stage and fetch rows they never
 * use (row 0), and work-item 0's swap is a select. */
void givens_slab_step(REAL top[B][W], REAL bot[B][W], const givens_slab_ctx *c,
                      __global const REAL2 *cs, __local REAL2 *stages, __local XVEC *xbuf,
                      REAL2 *held, __global REAL *P, const size_t pstride, const int first,
                      const int step, const int R)
{
    givens_slab_rotate(top, bot, c, cs, stages, P, pstride, first, step, R);
    __local XVEC *buf = xbuf + (step & 1) * c->xsize;
    const int ot = GIVENS_PT(B - 1, R), ob = GIVENS_PB(0, R);
    givens_slab_put(buf + c->tout, top[ot], c->xstride);
    givens_slab_put(buf + c->bout, bot[ob], c->xstride);
#if GIVENS_STAGED
    givens_slab_stage(c, stages, step - 1, held);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    /* After the move the register of the old logical top B-1 is logical top
     * 0, that of the old logical bottom 0 is logical bottom B-1. */
    givens_slab_get(buf + c->tin, top[ot], c->xstride);
    givens_slab_get(buf + c->bin, bot[ob], c->xstride);
    if (B > 1) {
        /* Position 0 never moves: logical top 0 keeps its value (now in the
         * register of logical top 1), which takes the old bottom 0 instead. */
        const int p1 = GIVENS_PT(1, R + 1), first_group = c->g == 0;
        for (int v = 0; v < W; v++) {
            const REAL x = top[ot][v], y = top[p1][v];
            top[ot][v] = first_group ? y : x;
            top[p1][v] = first_group ? x : y;
        }
    }
#if GIVENS_STAGED
    givens_slab_fetch(c, cs, max(step - 2, 0), held);
#endif
}
#else
/* Two steps per exchange: the move into the registers of R + 1 moves.
 * After it the register of the old logical top B-1 is logical top 0, that
 * of the old logical bottom 0 is logical bottom B-1, and they take `tin` and
 * `bin`, the rows that enter from the neighbours.  The first slot group's
 * logical top 0 is position 0, which never moves: it keeps its value (now
 * in the register of logical top 1), which takes the old bottom 0 instead;
 * the last group's logical bottom B-1 is its old top B-1 (slot S-1's top
 * turns into its bottom).  Both by selects, which also cover a work-item
 * that is both. */
void givens_slab_move(REAL top[B][W], REAL bot[B][W], const givens_slab_ctx *c, const REAL *tin,
                      const REAL *bin, const int R)
{
    const int ot = GIVENS_PT(B - 1, R), ob = GIVENS_PB(0, R), p1 = GIVENS_PT(1, R + 1);
    const int first_group = c->g == 0, last_group = c->g == c->NG - 1;
    for (int v = 0; v < W; v++) {
        const REAL t = top[ot][v], b = bot[ob][v], keep = top[p1][v];
        top[ot][v] = first_group ? keep : tin[v];
        top[p1][v] = first_group ? b : keep;
        bot[ob][v] = last_group ? t : bin[v];
    }
}

/* Two steps, `step` and step - 1, R moves done so far (R < B - 1, even).
 * On entry hp and hn hold the rows of slot a - 1 and slot a + B at `step`
 * (a the work-item's first slot): the first step rotates them too, where
 * only what enters the work-item's slots is needed (the top of a - 1, the
 * bottom of a + B), so the second step needs no exchange.  After it the
 * work-item puts its last two tops and first two bottoms, stages the next
 * pair's coefficients, and after the barrier takes its neighbours' rows:
 * those that enter its slots, and the next pair's halo (slot a - 1's top is
 * its predecessor's top of a - 2, its bottom the work-item's own bottom of
 * a; slot a + B's top is its own top of a + B - 1, its bottom its
 * successor's bottom of a + B + 1).  The halo of the first and last slot
 * groups, which have no neighbour on that side, is never used. */
void givens_slab_pair(REAL top[B][W], REAL bot[B][W], REAL hp[2][W], REAL hn[2][W],
                      const givens_slab_ctx *c, __global const REAL2 *cs,
                      __local REAL2 *stages, __local XVEC *xbuf, REAL2 held[2][GIVENS_MINE],
                      __global REAL *P, const size_t pstride, const int first, const int step,
                      const int R)
{
    givens_slab_rotate(top, bot, c, cs, stages, P, pstride, first, step, R);
    {
        const REAL2 rp = givens_slab_coef(c, cs, stages, step, max(c->g - 1, 0), B - 1);
        const REAL2 rn = givens_slab_coef(c, cs, stages, step, min(c->g + 1, c->NG - 1), 0);
        REAL tin[W], bin[W];
        for (int v = 0; v < W; v++) {
            tin[v] = rp.x * hp[0][v] - rp.y * hp[1][v];
            bin[v] = rn.y * hn[0][v] + rn.x * hn[1][v];
        }
        givens_slab_move(top, bot, c, tin, bin, R);
    }
    givens_slab_rotate(top, bot, c, cs, stages, P, pstride, first, step - 1, R + 1);
    __local XVEC *buf = xbuf + ((step >> 1) & 1) * c->xsize;
    const int ot = GIVENS_PT(B - 1, R + 1), ob = GIVENS_PB(0, R + 1);
    givens_slab_put(buf + c->tout, top[ot], c->xstride);
    givens_slab_put(buf + c->tout + GIVENS_XROW, top[GIVENS_PT(B - 2, R + 1)], c->xstride);
    givens_slab_put(buf + c->bout, bot[ob], c->xstride);
    givens_slab_put(buf + c->bout + GIVENS_XROW, bot[GIVENS_PB(1, R + 1)], c->xstride);
#if GIVENS_STAGED
    givens_slab_stage(c, stages, step - 2, held[0]);
    givens_slab_stage(c, stages, step - 3, held[1]);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    REAL tin[W], bin[W];
    givens_slab_get(buf + c->tin, tin, c->xstride);
    givens_slab_get(buf + c->tin + GIVENS_XROW, hp[0], c->xstride);
    givens_slab_get(buf + c->bin, bin, c->xstride);
    givens_slab_get(buf + c->bin + GIVENS_XROW, hn[1], c->xstride);
    for (int v = 0; v < W; v++) {
        hp[1][v] = bot[ob][v];
        hn[0][v] = top[ot][v];
    }
    givens_slab_move(top, bot, c, tin, bin, R + 1);
#if GIVENS_STAGED
    givens_slab_fetch(c, cs, max(step - 4, 0), held[0]);
    givens_slab_fetch(c, cs, max(step - 5, 0), held[1]);
#endif
}
#endif

/* Every step of the padded table, nsteps (a multiple of B) of them from
 * nsteps - 1 down to 0, on slabs loaded with the rows at step nsteps - 1;
 * the rows then sit at the positions of step nt - 2 (= -1).  With P (nsteps
 * rows), the backward's dot products go to P[step pstride + slot], written
 * when `first`, else added. */
#if !GIVENS_PAIRS
void givens_slab_sweep(REAL top[B][W], REAL bot[B][W], const givens_slab_ctx *c,
                       const int nsteps, __global const REAL2 *cs, __local REAL2 *stages,
                       __local XVEC *xbuf, __global REAL *P, const size_t pstride,
                       const int first)
{
    REAL2 held[GIVENS_MINE];
#if GIVENS_STAGED
    givens_slab_fetch(c, cs, nsteps - 1, held);
    givens_slab_stage(c, stages, nsteps - 1, held);
    givens_slab_fetch(c, cs, max(nsteps - 2, 0), held);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int step = nsteps - 1; step >= 0; step -= B) {
#define GIVENS_SLAB_STEP(r) \
    givens_slab_step(top, bot, c, cs, stages, xbuf, held, P, pstride, first, step - (r), (r))
        GIVENS_SLAB_STEP(0);
#if B > 1
        GIVENS_SLAB_STEP(1);
#endif
#if B > 2
        GIVENS_SLAB_STEP(2);
        GIVENS_SLAB_STEP(3);
#endif
#if B > 4
        GIVENS_SLAB_STEP(4);
        GIVENS_SLAB_STEP(5);
        GIVENS_SLAB_STEP(6);
        GIVENS_SLAB_STEP(7);
#endif
#if B > 8
        GIVENS_SLAB_STEP(8);
        GIVENS_SLAB_STEP(9);
        GIVENS_SLAB_STEP(10);
        GIVENS_SLAB_STEP(11);
        GIVENS_SLAB_STEP(12);
        GIVENS_SLAB_STEP(13);
        GIVENS_SLAB_STEP(14);
        GIVENS_SLAB_STEP(15);
#endif
#undef GIVENS_SLAB_STEP
    }
}
#else
/* The same by pairs of steps (nsteps is even: B is).  Before the first
 * pair the halo comes from one exchange of the neighbours' edge slots (both
 * rows of the predecessor's last slot, of the successor's first), in the
 * parity buffer the first pair does not use. */
void givens_slab_sweep(REAL top[B][W], REAL bot[B][W], const givens_slab_ctx *c,
                       const int nsteps, __global const REAL2 *cs, __local REAL2 *stages,
                       __local XVEC *xbuf, __global REAL *P, const size_t pstride,
                       const int first)
{
    REAL2 held[2][GIVENS_MINE];
    REAL hp[2][W], hn[2][W];
#if GIVENS_STAGED
    givens_slab_fetch(c, cs, nsteps - 1, held[0]);
    givens_slab_stage(c, stages, nsteps - 1, held[0]);
    givens_slab_fetch(c, cs, nsteps - 2, held[0]);
    givens_slab_stage(c, stages, nsteps - 2, held[0]);
    givens_slab_fetch(c, cs, max(nsteps - 3, 0), held[0]);
    givens_slab_fetch(c, cs, max(nsteps - 4, 0), held[1]);
#endif
    __local XVEC *buf = xbuf + (1 - (((nsteps - 1) >> 1) & 1)) * c->xsize;
    /* That buffer is the one the last pair of a sweep before this one (the
     * backward's next slab) reads after its barrier. */
    barrier(CLK_LOCAL_MEM_FENCE);
    givens_slab_put(buf + c->tout, top[B - 1], c->xstride);
    givens_slab_put(buf + c->tout + GIVENS_XROW, bot[B - 1], c->xstride);
    givens_slab_put(buf + c->bout, bot[0], c->xstride);
    givens_slab_put(buf + c->bout + GIVENS_XROW, top[0], c->xstride);
    barrier(CLK_LOCAL_MEM_FENCE);
    givens_slab_get(buf + c->tin, hp[0], c->xstride);
    givens_slab_get(buf + c->tin + GIVENS_XROW, hp[1], c->xstride);
    givens_slab_get(buf + c->bin, hn[1], c->xstride);
    givens_slab_get(buf + c->bin + GIVENS_XROW, hn[0], c->xstride);
    for (int step = nsteps - 1; step >= 0; step -= B) {
#define GIVENS_SLAB_PAIR(r) \
    givens_slab_pair(top, bot, hp, hn, c, cs, stages, xbuf, held, P, pstride, first, \
                     step - (r), (r))
        GIVENS_SLAB_PAIR(0);
        GIVENS_SLAB_PAIR(2);
#if B > 4
        GIVENS_SLAB_PAIR(4);
        GIVENS_SLAB_PAIR(6);
#endif
#if B > 8
        GIVENS_SLAB_PAIR(8);
        GIVENS_SLAB_PAIR(10);
        GIVENS_SLAB_PAIR(12);
        GIVENS_SLAB_PAIR(14);
#endif
#undef GIVENS_SLAB_PAIR
    }
}
#endif
