/* Kaliko's exact best-play search in C (issue 26), loaded by cbest.py through ctypes.
 *
 * The same walk as finder.Finder with best_only=True, prune=True (finder.best_play): the
 * same starts in the same order, the same canonical order of gaps, the same reach test
 * (`reachable`, Finder._reachable), the same local bound at two tiles left (`bounded`,
 * Finder._bounded, its proof in that docstring: RULES K-10, K-15 to K-18) and the same
 * "last tile in a free cell" skip, so it finds the same first best play. Only the data
 * differ: a compact grid index instead of packed-cell dicts (cbest.py numbers the cells
 * q-major like tiles.cell_id, so (cell, edge) comparisons give the same canonical order),
 * and the tiles' tables (tiles.py: PARTNER, COLOUR, OT_NUMBER, FITS) passed in from Python,
 * never typed here. Scoring is the finder's quick score (Finder._quick_score, paths.py:
 * RULES K-10, K-15 to K-17), re-tracing only the paths through the last tile placed.
 *
 * Variants (RULES KA-2, KA-9): crossings_new_tiles_only counts crossings on new tiles
 * only and, as in the finder, disables the bound; double_main_only scores every play in full
 * (the main path, the only one doubled, chosen best for the player, as scoring.score_paths
 * does) and disables the bound too; the free-cell skip stays sound there (the last tile
 * adds one segment to the main path, which alone then carries every new tile: at most
 * here + 1), skipping only plays that score less than the best, since under that variant
 * finder.best_play answers the first best play in its sorted list, not the walk's first
 * (ties broken as it does: before_best).
 *
 * Pure: no I/O, no clock, no allocation kept between calls; a call's state is its own, so
 * two threads may search at once. Any table overflow returns KC_ERROR (cbest.py then runs
 * the Python finder).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXNEW 7     /* RULES K-6: at most 7 tiles */
#define MAXPIDS 64   /* old paths on one path: at most one per new segment + 1 (22) */
#define MAXLAYER 32  /* scoring paths through <= 7 new tiles: at most 21 */
#define MAXARMS 12
#define FAR 99
#define KC_ERROR (-2)

/* --- the tiles' tables (kc_tables, once) --------------------------------------------- */
static int n_ot = 0;
static int8_t *T_partner = NULL; /* [ot * 6 + e] */
static int8_t *T_colour = NULL;  /* [ot * 6 + e]: 1 R, 2 W, 3 B */
static int16_t *T_number = NULL; /* [ot]: tile number 1-85 */
static int32_t *T_fits_off = NULL; /* [key], [key + 1]: FITS[key] in T_fits */
static int16_t *T_fits = NULL;
static uint8_t *T_cross = NULL; /* [ot * 64 + mask]: crossing pairs among segments inside mask */

static int crosses(int a, int b, int c, int d) {
    if (a > b) { int t = a; a = b; b = t; }
    if (c > d) { int t = c; c = d; d = t; }
    return (a < c && c < b && b < d) || (c < a && a < d && d < b);
}

int kc_tables(int count, const int8_t *partner, const int8_t *colour, const int16_t *number,
              const int32_t *fits_off, const int16_t *fits) {
    int total = fits_off[4096];
    int8_t *p = malloc(count * 6), *c = malloc(count * 6);
    int16_t *n = malloc(count * sizeof(int16_t)), *f = malloc((total + 1) * sizeof(int16_t));
    int32_t *o = malloc(4097 * sizeof(int32_t));
    uint8_t *x = malloc(count * 64);
    if (!p || !c || !n || !f || !o || !x) {
        free(p); free(c); free(n); free(f); free(o); free(x);
        return KC_ERROR;
    }
    memcpy(p, partner, count * 6);
    memcpy(c, colour, count * 6);
    memcpy(n, number, count * sizeof(int16_t));
    memcpy(o, fits_off, 4097 * sizeof(int32_t));
    memcpy(f, fits, total * sizeof(int16_t));
    for (int ot = 0; ot < count; ot++) {
        for (int m = 0; m < 64; m++) { /* paths.crossings_on */
            int sa[3], sb[3], k = 0, got = 0;
            for (int a = 0; a < 6; a++) {
                int b = p[ot * 6 + a];
                if (a < b && (m >> a & 1) && (m >> b & 1)) { sa[k] = a; sb[k] = b; k++; }
            }
            for (int i = 0; i < k; i++)
                for (int j = i + 1; j < k; j++) got += crosses(sa[i], sb[i], sa[j], sb[j]);
            x[ot * 64 + m] = (uint8_t)got;
        }
    }
    T_partner = p; T_colour = c; T_number = n; T_fits_off = o; T_fits = f; T_cross = x;
    n_ot = count; /* set last: a search never sees half the tables */
    return 0;
}

/* --- one search ----------------------------------------------------------------------- */
typedef struct {
    int closed, length, npids;
    int pids[MAXPIDS];
    uint8_t masks[MAXNEW]; /* edges of the path on each new tile, by slot */
    int zf, gf;            /* forward end: the empty cell it faces, that cell's edge facing it */
    int zb, gb;            /* backward end */
    int fwd_old, pre;      /* forward part: met an old path; cell * 8 + edge of the new tile before it */
} Path;

typedef struct {
    int colour, key, val, far, edge, y, npids;
    int pids[MAXPIDS];
    uint8_t masks[MAXNEW];
} Arm;

typedef struct { int score, e1, e2; } Kept;

typedef struct {
    int H, N, step[6];
    int16_t *cell;   /* [N]: ot or -1 */
    int8_t *slot;    /* [N]: slot of a tile placed this turn, or -1 */
    int16_t *oldk;   /* [N]: index of an old tile, or -1 */
    uint8_t *pass;   /* [N]: Finder._passable */
    uint8_t *dist;   /* [N]: Finder._dist of the current start (FAR beyond) */
    int16_t *qq, *rr;
    /* old paths (paths.OldPaths) */
    int n_old, npaths;
    int *end_pid, *end_c, *end_e; /* [k * 6 + e] at an old open end */
    int *owner;                   /* [k * 6 + e] open old path of that segment end, or -1 */
    int *plen, *pown;             /* per old path: segments, self-crossings (K-16) */
    int *between;                 /* [p * npaths + q] */
    /* the hand */
    int n_hand, max_tiles, cnto, dmo, prune;
    int hand[16], tau[16][4];
    uint8_t used[128];
    uint8_t *mine; /* [n_ot] */
    int32_t fit_at[4096];
    int16_t *fitpool;
    int fitlen;
    /* the walk */
    int nnew, newcell[MAXNEW], newot[MAXNEW];
    int start; /* cell * 8 + edge */
    int best, bestn, bestcell[MAXNEW], bestot[MAXNEW];
    long long nodes;
    int layer_ok[MAXNEW + 1], layer_n[MAXNEW + 1], layer_tot[MAXNEW + 1];
    Kept layer[MAXNEW + 1][MAXLAYER];
    int err;           /* a table overflowed: KC_ERROR */
    int halt;          /* stopped by `stop` (or err): unwind, keep the best found */
    int (*stop)(void); /* the caller's deadline (cbest.py asks its clock), or NULL */
    long long check_at;
    /* targets: old open ends as (cell * 8 + edge) by colour */
    int *targets[4], ntargets[4];
    int *bfs;
} S;

static inline int hexd(const S *s, int a, int b) {
    int dq = s->qq[a] - s->qq[b], dr = s->rr[a] - s->rr[b], ds = dq + dr;
    return ((dq < 0 ? -dq : dq) + (dr < 0 ? -dr : dr) + (ds < 0 ? -ds : ds)) >> 1;
}

static int fit_key(const S *s, int c) { /* finder.constraints_key */
    int key = 0;
    for (int e = 5; e >= 0; e--) {
        int t = s->cell[c + s->step[e]];
        key = key * 4 + (t >= 0 ? T_colour[t * 6 + (e + 3) % 6] : 0);
    }
    return key;
}

/* FITS[key] among the hand's oriented tiles (Finder.fits without the used filter): an offset
 * into fitpool, the list ending at -1 */
static int fits_of(S *s, int c) {
    int key = fit_key(s, c);
    int at = s->fit_at[key];
    if (at >= 0) return at;
    at = s->fitlen;
    for (int i = T_fits_off[key]; i < T_fits_off[key + 1]; i++)
        if (s->mine[T_fits[i]]) s->fitpool[s->fitlen++] = T_fits[i];
    s->fitpool[s->fitlen++] = -1;
    s->fit_at[key] = at;
    return at;
}

static void place(S *s, int c, int ot) {
    int d = s->nnew;
    s->cell[c] = (int16_t)ot;
    s->slot[c] = (int8_t)d;
    s->newcell[d] = c;
    s->newot[d] = ot;
    s->used[T_number[ot]] = 1;
    s->nnew = d + 1;
    s->layer_ok[d + 1] = 0;
}

static void unplace(S *s, int c) {
    int d = --s->nnew;
    s->used[T_number[s->newot[d]]] = 0;
    s->cell[c] = -1;
    s->slot[c] = -1;
}

/* paths.OldPaths._follow: the pieces met leaving the tile at c by edge `out`, added to p;
 * 1 when the walk comes back in by `start` (cell * 8 + edge: closed), else 0 with the empty
 * cell faced and its edge facing back in *z, *g */
static int follow(S *s, int c, int out, int start, Path *p, int *z, int *g, int fwd) {
    const int *step = s->step;
    for (;;) {
        int n = c + step[out];
        int t = s->cell[n];
        int entry = (out + 3) % 6;
        if (t < 0) { *z = n; *g = entry; return 0; }
        int sl = s->slot[n];
        if (sl >= 0) {
            if (n * 8 + entry == start) return 1;
            out = T_partner[t * 6 + entry];
            p->masks[sl] |= (uint8_t)(1 << entry | 1 << out);
            p->length++;
            c = n;
        } else { /* an old open end: the whole old path at once */
            int i = s->oldk[n] * 6 + entry;
            int pid = s->end_pid[i];
            if (fwd && !p->fwd_old) { p->fwd_old = 1; p->pre = c * 8 + out; }
            if (p->npids >= MAXPIDS) { s->err = 1; *z = n; *g = entry; return 0; }
            p->pids[p->npids++] = pid;
            p->length += s->plen[pid];
            c = s->end_c[i];
            out = s->end_e[i];
        }
    }
}

/* paths.OldPaths.path: the whole path through the segment of new tile c ending at edge e */
static void path_through(S *s, int c, int e, Path *p) {
    memset(p->masks, 0, sizeof p->masks);
    p->closed = 0; p->length = 1; p->npids = 0; p->fwd_old = 0; p->pre = -1;
    int b0 = T_partner[s->cell[c] * 6 + e];
    p->masks[s->slot[c]] = (uint8_t)(1 << e | 1 << b0);
    if (follow(s, c, b0, c * 8 + e, p, &p->zf, &p->gf, 1)) {
        p->closed = 1; p->zf = p->zb = -1;
        return;
    }
    follow(s, c, e, -1, p, &p->zb, &p->gb, 0);
}

static int crossings_of(const S *s, const Path *p, int old_too) { /* OldPaths._crossings */
    int cross = 0;
    for (int i = 0; i < s->nnew; i++)
        if (p->masks[i]) cross += T_cross[s->newot[i] * 64 + p->masks[i]];
    if (old_too) {
        for (int i = 0; i < p->npids; i++) {
            cross += s->pown[p->pids[i]];
            const int *row = s->between + p->pids[i] * s->npaths;
            for (int j = i + 1; j < p->npids; j++) cross += row[p->pids[j]];
        }
    }
    return cross;
}

/* RULES K-10, K-15 to K-17 (OldPaths.score): the path's base (segments + 3 x crossings),
 * 0 when it is no scoring path */
static int base_of(const S *s, const Path *p) {
    if (!(p->npids >= 2 || (p->closed && p->npids >= 1))) return 0;
    return p->length + 3 * crossings_of(s, p, !s->cnto);
}

/* RULES K-18 with double_main_only: every scoring path through the new tiles, the main
 * one (carrying every new tile, K-11) chosen to score most; closed others not doubled */
static int full_score_dmo(S *s) {
    uint8_t seen[MAXNEW] = {0};
    int total = 0, extra = 0;
    Path p;
    for (int sl = 0; sl < s->nnew; sl++) {
        int c = s->newcell[sl], ot = s->newot[sl];
        for (int e = 0; e < 6; e++) {
            if (seen[sl] >> e & 1) continue;
            int q = T_partner[ot * 6 + e];
            if (s->cell[c + s->step[e]] < 0 && s->cell[c + s->step[q]] < 0) continue;
            path_through(s, c, e, &p);
            int covers = 1;
            for (int i = 0; i < s->nnew; i++) { seen[i] |= p.masks[i]; if (!p.masks[i]) covers = 0; }
            int base = base_of(s, &p);
            if (!base) continue;
            total += base;
            if (covers && p.closed && base > extra) extra = base;
        }
    }
    return total + extra;
}

/* Finder._quick_score: the play's score; its scoring paths kept per number of tiles, and
 * one tile more re-traces only the paths through that tile (the others are unchanged) */
static int quick_score(S *s) {
    int d = s->nnew;
    if (s->dmo) return full_score_dmo(s);
    if (s->layer_ok[d]) return s->layer_tot[d];
    Kept *out = s->layer[d];
    int n = 0, total = 0, from = 0;
    if (d >= 2 && s->layer_ok[d - 1]) {
        int z = s->newcell[d - 1];
        Kept *before = s->layer[d - 1];
        for (int i = 0; i < s->layer_n[d - 1]; i++)
            if (before[i].e1 != z && before[i].e2 != z) { out[n++] = before[i]; total += before[i].score; }
        from = d - 1;
    }
    uint8_t seen[MAXNEW] = {0};
    Path p;
    for (int sl = from; sl < d; sl++) {
        int c = s->newcell[sl], ot = s->newot[sl];
        for (int e = 0; e < 6; e++) {
            if (seen[sl] >> e & 1) continue;
            int q = T_partner[ot * 6 + e];
            if (s->cell[c + s->step[e]] < 0 && s->cell[c + s->step[q]] < 0) continue;
            path_through(s, c, e, &p); /* a lone segment between two empty cells scores nothing */
            for (int i = 0; i < d; i++) seen[i] |= p.masks[i];
            int score = base_of(s, &p);
            if (!score) continue;
            if (p.closed) score *= 2;
            if (n >= MAXLAYER) { s->err = 1; return 0; }
            out[n].score = score; out[n].e1 = p.zb; out[n].e2 = p.zf;
            n++;
            total += score;
        }
    }
    s->layer_n[d] = n; s->layer_tot[d] = total; s->layer_ok[d] = 1;
    return total;
}

/* the play's (cell, ot) pairs sorted by cell into c[], o[] (grid order = packed cell order) */
static void sorted_play(int n, const int *cells, const int *ots, int *c, int *o) {
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && c[j - 1] > cells[i]) { c[j] = c[j - 1]; o[j] = o[j - 1]; j--; }
        c[j] = cells[i]; o[j] = ots[i];
    }
}

/* double_main_only: finder.best_play lists every play there (Finder.best_only is off) and
 * returns the first of them sorted by (-score, len(placements), placements); a tie is
 * broken the same way here, so both answer the very same play */
static int before_best(const S *s) {
    if (s->nnew != s->bestn) return s->nnew < s->bestn;
    int c1[MAXNEW], o1[MAXNEW], c2[MAXNEW], o2[MAXNEW];
    sorted_play(s->nnew, s->newcell, s->newot, c1, o1);
    sorted_play(s->bestn, s->bestcell, s->bestot, c2, o2);
    for (int i = 0; i < s->nnew; i++) {
        if (c1[i] != c2[i]) return c1[i] < c2[i];
        if (o1[i] != o2[i]) return o1[i] < o2[i];
    }
    return 0;
}

/* Finder._candidate: the play's score when the walked path is a scoring main path, else -1 */
static int candidate(S *s, const Path *p) {
    if (!(p->npids >= 2 || (p->closed && p->npids >= 1))) return -1;
    for (int i = 0; i < s->nnew; i++)
        if (!p->masks[i]) return -1; /* RULES K-11: the main path carries every new tile */
    int score = quick_score(s);
    if (score > s->best || (s->dmo && score == s->best && before_best(s))) {
        s->best = score;
        s->bestn = s->nnew;
        memcpy(s->bestcell, s->newcell, sizeof s->bestcell);
        memcpy(s->bestot, s->newot, sizeof s->bestot);
    }
    return score;
}

/* Finder._leads_to_old: cell * 8 + edge of the last new tile where the path entering the
 * new tile at `c` by `edge` meets an old tile, or -1 */
static int leads_to_old(const S *s, int c, int edge) {
    int out = T_partner[s->cell[c] * 6 + edge];
    for (int i = 0; i < 64; i++) {
        int n = c + s->step[out];
        int t = s->cell[n];
        if (t < 0) return -1;
        if (s->slot[n] < 0) return c * 8 + out;
        out = T_partner[t * 6 + (out + 3) % 6];
        c = n;
    }
    return -1;
}

/* Finder._reachable (its docstring says why it is a lower bound) */
static int reachable(S *s, int cell, int entry, int colour) {
    int left = s->max_tiles - s->nnew;
    if (left <= 0) return 0;
    if (s->dist[cell] <= left - 1) return 1;
    const int *step = s->step;
    if (left == 1) {
        for (int f = 0; f < 6; f++) {
            int n = cell + step[f];
            if (s->slot[n] < 0 || f == entry) continue;
            int ot = s->cell[n];
            if (T_colour[ot * 6 + (f + 3) % 6] != colour) continue;
            int join = leads_to_old(s, n, (f + 3) % 6);
            if (join >= 0 && join > s->start) return 1;
        }
        return 0;
    }
    int lim = left - 1, start = s->start;
    int en[MAXNEW * 6], ef[MAXNEW * 6], ew[MAXNEW * 6], ne = 0;
    for (int sl = 0; sl < s->nnew; sl++) { /* Finder._free_ends */
        int n = s->newcell[sl], ot = s->newot[sl];
        for (int f = 0; f < 6; f++) {
            if (T_colour[ot * 6 + f] != colour) continue;
            int w = n + step[f];
            if (s->cell[w] < 0 && (w != cell || (f + 3) % 6 != entry)) { en[ne] = n; ef[ne] = f; ew[ne] = w; ne++; }
        }
    }
    if (left == 2) {
        int near_new = 0;
        for (int i = 0; i < ne; i++) {
            int d = hexd(s, ew[i], cell);
            if (d <= lim) {
                int join = leads_to_old(s, en[i], ef[i]);
                if (join < 0) near_new = near_new || d <= left - 2;
                else if (join > start) return 1;
            }
        }
        if (!near_new) return 0;
    }
    int eo[MAXNEW * 6], enw[MAXNEW * 6], no = 0, nn = 0;
    for (int i = 0; i < ne; i++) {
        int join = leads_to_old(s, en[i], ef[i]);
        if (join < 0) enw[nn++] = ew[i];
        else if (join > start) {
            if (hexd(s, ew[i], cell) <= lim) return 1;
            eo[no++] = ew[i];
        }
    }
    if (!nn) return 0;
    int to_new = 1 << 20;
    for (int i = 0; i < nn; i++) { int d = hexd(s, enw[i], cell); if (d < to_new) to_new = d; }
    int need = left - 2 - to_new;
    if (need < 0) return 0;
    for (int i = 0; i < nn; i++) {
        if (s->dist[enw[i]] <= need) return 1;
        for (int j = 0; j < no; j++)
            if (hexd(s, eo[j], enw[i]) <= need) return 1;
    }
    return 0;
}

/* Finder._arms: the paths of the board with an end at empty cell y, one per edge facing a tile */
static int arms_at(S *s, int y, Arm *out) {
    int n_out = 0;
    Path p;
    for (int f = 0; f < 6; f++) {
        int n = y + s->step[f];
        int t = s->cell[n];
        if (t < 0) continue;
        int entry = (f + 3) % 6;
        memset(p.masks, 0, sizeof p.masks);
        p.length = 0; p.npids = 0; p.fwd_old = 0; p.closed = 0;
        int far, fe;
        follow(s, y, f, -1, &p, &far, &fe, 0); /* open: it ends at y */
        Arm *a = &out[n_out++];
        a->colour = T_colour[t * 6 + entry];
        int k1 = y * 8 + f, k2 = far * 8 + fe;
        a->key = k1 < k2 ? k1 : k2;
        a->val = p.length + 3 * crossings_of(s, &p, 1); /* OldPaths.value: DEFAULT K-16 */
        a->npids = p.npids;
        memcpy(a->pids, p.pids, p.npids * sizeof(int));
        memcpy(a->masks, p.masks, sizeof a->masks);
        a->far = far; a->edge = f; a->y = y;
    }
    return n_out;
}

/* OldPaths.crossings: crossing pairs of two distinct paths with each other */
static int arm_crossings(const S *s, const Arm *a, const Arm *b) {
    int got = 0;
    for (int i = 0; i < a->npids; i++) {
        const int *row = s->between + a->pids[i] * s->npaths;
        for (int j = 0; j < b->npids; j++) got += row[b->pids[j]];
    }
    for (int sl = 0; sl < s->nnew; sl++) {
        int m = a->masks[sl], m2 = b->masks[sl];
        if (m && m2) {
            const uint8_t *x = T_cross + s->newot[sl] * 64;
            got += x[m | m2] - x[m] - x[m2];
        }
    }
    return got;
}

typedef struct { int colour, val, runs, ends, idx, y1, y2; } Got;

/* Finder._gain_of */
static int gain_of(const S *s, const Arm *arms, int n_arms, int tiles) {
    Got got[MAXARMS];
    int ng = 0;
    for (int i = 0; i < n_arms; i++) {
        int j;
        for (j = 0; j < ng; j++)
            if (arms[got[j].idx].key == arms[i].key) break;
        if (j < ng) { got[j].ends++; got[j].y2 = arms[i].y; }
        else {
            got[ng].colour = arms[i].colour; got[ng].val = arms[i].val; got[ng].runs = arms[i].npids;
            got[ng].ends = 1; got[ng].idx = i; got[ng].y1 = arms[i].y; got[ng].y2 = -1;
            ng++;
        }
    }
    int gain = 0, weight[4] = {0, 0, 0, 0};
    for (int k = 1; k <= 3; k++) {
        int mine[MAXARMS], nm = 0;
        for (int j = 0; j < ng; j++) if (got[j].colour == k) mine[nm++] = j;
        int ends_old = 0, scoring = 0, closable = 0, total = 0;
        for (int i = 0; i < nm; i++) {
            const Got *a = &got[mine[i]];
            total += a->val * a->ends;
            if (a->runs >= 2) { scoring = 1; total -= a->val; } /* an open path scores with two old runs (K-10) */
            else if (a->runs == 1) ends_old += a->ends;
            if (a->runs >= 1 && a->ends == 2 && !closable) {
                /* closing it needs the cycle to come back (K-17) */
                int y1 = a->y1, y2 = a->y2;
                closable = y1 == y2 || hexd(s, y1, y2) == 1;
                for (int j = 0; j < nm && !closable; j++) {
                    const Got *b = &got[mine[j]];
                    if (j != i && b->ends == 2 && ((b->y1 == y1 && b->y2 == y2) || (b->y1 == y2 && b->y2 == y1)))
                        closable = 1;
                }
            }
        }
        if (!(scoring || ends_old >= 2)) continue;
        int mult = closable ? 2 : 1;
        weight[k] = mult;
        for (int i = 0; i < nm; i++)
            for (int j = i + 1; j < nm; j++)
                total += 3 * mult * arm_crossings(s, &arms[got[mine[i]].idx], &arms[got[mine[j]].idx]);
        gain += total;
    }
    int own[16], no = 0;
    for (int h = 0; h < s->n_hand; h++) {
        if (s->used[s->hand[h]]) continue;
        int v = weight[1] * s->tau[h][1] + weight[2] * s->tau[h][2] + weight[3] * s->tau[h][3];
        int i = no++;
        while (i > 0 && own[i - 1] < v) { own[i] = own[i - 1]; i--; } /* sorted, largest first */
        own[i] = v;
    }
    for (int i = 0; i < tiles && i < no; i++) gain += own[i];
    return gain;
}

/* Finder._bounded: whether what `left` (1 or 2) more tiles can add is at most `room` */
static int bounded(S *s, int z, int g, int left, int other, int room) {
    if (room < 1) return 0; /* the main path's next segment alone adds 1 (K-15) */
    Arm arms[MAXARMS];
    int na = arms_at(s, z, arms);
    if (gain_of(s, arms, na, 1) > room) return 0;
    if (left >= 2) {
        int nxt[32], nn = 0;
        for (int f = 0; f < 6; f++) {
            int y = z + s->step[f];
            if (s->cell[y] < 0) nxt[nn++] = y;
        }
        for (int i = 0; i < na; i++) if (arms[i].edge != g) nxt[nn++] = arms[i].far;
        if (other >= 0) nxt[nn++] = other;
        for (int i = 0; i < nn; i++) {
            int y = nxt[i], dup = y == z;
            for (int j = 0; j < i && !dup; j++) dup = nxt[j] == y;
            if (dup) continue;
            int nb = arms_at(s, y, arms + na);
            if (gain_of(s, arms, na + nb, 2) > room) return 0;
        }
    }
    return 1;
}

static int walk(S *s, int x, int e, int phase);

/* one node of the walk; every 4096 nodes the caller's `stop` is asked (Finder._checkpoint) */
static inline int node(S *s) {
    s->nodes++;
    if (s->err) s->halt = 1;
    if (s->stop && s->nodes >= s->check_at) {
        s->check_at = s->nodes + 4096;
        if (s->stop()) s->halt = 1;
    }
    return s->halt;
}

/* Finder._advance and Finder._gap: the forward end of a walk not yet joined */
static void advance(S *s, int x, int e, int c, int inn, int colour);

static void gap(S *s, int x, int e, int z, int g, int colour) {
    if (node(s) || s->nnew >= s->max_tiles || !reachable(s, z, g, colour))
        return; /* RULES K-10: this walk can no longer join a second old path */
    for (int i = fits_of(s, z); s->fitpool[i] >= 0 && !s->halt; i++) {
        int ot = s->fitpool[i];
        if (s->used[T_number[ot]]) continue;
        place(s, z, ot);
        advance(s, x, e, z, g, colour);
        unplace(s, z);
    }
}

static void advance(S *s, int x, int e, int c, int inn, int colour) {
    for (;;) {
        int out = T_partner[s->cell[c] * 6 + inn];
        int n = c + s->step[out];
        if (s->cell[n] < 0) { gap(s, x, e, n, (out + 3) % 6, colour); return; }
        if (s->slot[n] < 0) { /* an old tile: the walk joins an old path here */
            if (c * 8 + out > s->start) walk(s, x, e, 1); /* canonical order (Finder._walk) */
            return;
        }
        c = n;
        inn = (out + 3) % 6;
    }
}

/* Finder._walk: returns the score of the play as it stands when legal, else -1 */
static int walk(S *s, int x, int e, int phase) {
    if (node(s)) return -1;
    Path p;
    path_through(s, x, e, &p);
    if (p.closed) return candidate(s, &p);
    int here, joined, z, g;
    if (phase == 1) {
        joined = 0;
        if (p.fwd_old) {
            /* canonical order: a gap between two old paths is walked from its smaller end */
            if (p.pre < s->start) return -1;
            joined = 1;
        }
        here = joined ? walk(s, x, e, 2) : -1; /* stop the forward end, go backward */
        z = p.zf; g = p.gf;
    } else {
        joined = 1;
        here = candidate(s, &p); /* stop the backward end: a whole play */
        z = p.zb; g = p.gb;
    }
    int left = s->max_tiles - s->nnew;
    if (left <= 0) return here;
    if (!joined && !reachable(s, z, g, T_colour[s->cell[x] * 6 + e])) return here;
    if (s->prune && here >= 0 && left == 2) {
        /* RULES K-10, K-15 to K-17: what two more tiles can add (Finder._bounded) */
        int other = phase == 2 ? -1 : p.zb;
        if (bounded(s, z, g, left, other, s->best - here)) return here;
    }
    int last_free = 0;
    if (here >= 0 && left == 1) {
        /* the last tile in a cell whose other five neighbours are empty adds exactly one
         * segment to the main path: every such play scores here + 1 (RULES K-15) */
        last_free = 1;
        for (int f = 0; f < 6; f++)
            if (f != g && s->cell[z + s->step[f]] >= 0) { last_free = 0; break; }
        /* double_main_only: a tie may come first in finder.best_play's order (before_best) */
        if (last_free && (s->dmo ? here + 1 < s->best : here + 1 <= s->best)) return here;
    }
    for (int i = fits_of(s, z); s->fitpool[i] >= 0 && !s->halt; i++) {
        int ot = s->fitpool[i];
        if (s->used[T_number[ot]]) continue;
        place(s, z, ot);
        walk(s, x, e, phase);
        unplace(s, z);
        if (last_free && !s->dmo) break; /* the others tie: only dmo orders ties (before_best) */
    }
    return here;
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Finder._passable_cells */
static void passable(S *s) {
    int *front = s->bfs, *nxt = s->bfs + s->N;
    uint8_t *seen = s->dist; /* scratch, reset below */
    int nf = 0;
    for (int k = 0; k < s->N; k++) {
        if (s->cell[k] < 0) continue;
        for (int f = 0; f < 6; f++) {
            int n = k + s->step[f];
            if (s->cell[n] < 0 && !seen[n]) { seen[n] = 1; front[nf++] = n; }
        }
    }
    for (int round = 0; round <= s->max_tiles && nf; round++) {
        int nn = 0;
        for (int i = 0; i < nf; i++) {
            int c = front[i];
            if (s->fitpool[fits_of(s, c)] < 0) continue;
            s->pass[c] = 1;
            for (int f = 0; f < 6; f++) {
                int n = c + s->step[f];
                if (s->cell[n] < 0 && !seen[n]) { seen[n] = 1; nxt[nn++] = n; }
            }
        }
        int *t = front; front = nxt; nxt = t; nf = nn;
    }
    memset(s->dist, FAR, s->N);
}

/* Finder._distances: from the old open ends of `colour` after the start, through passable cells */
static int distances(S *s, int colour, int *touched) {
    int nt = 0;
    int *front = s->bfs, *nxt = s->bfs + s->N, nf = 0;
    for (int i = 0; i < s->ntargets[colour]; i++) {
        int code = s->targets[colour][i], c = code >> 3;
        if (code > s->start && s->pass[c] && s->dist[c] != 0) { s->dist[c] = 0; touched[nt++] = c; front[nf++] = c; }
    }
    for (int d = 1; d <= s->max_tiles; d++) {
        int nn = 0;
        for (int i = 0; i < nf; i++)
            for (int f = 0; f < 6; f++) {
                int n = front[i] + s->step[f];
                if (s->dist[n] == FAR && s->pass[n]) { s->dist[n] = (uint8_t)d; touched[nt++] = n; nxt[nn++] = n; }
            }
        int *t = front; front = nxt; nxt = t; nf = nn;
    }
    return nt;
}

/* Finder.__init__ and _search. Cells are grid indexes (cbest.py: q-major, stride H, a
 * margin of empty cells around the pattern); `out` gets 2 x bestn ints (cell, ot), in the
 * walk's order of placement. `stop` (or NULL) is asked every 4096 nodes whether to stop;
 * *complete says whether the search ran to its end (else the best is the best found).
 * Returns the best score, -1 for no play, KC_ERROR. */
int kc_best(int H, int N, int n_old, const int32_t *old_cells, const int16_t *old_ots,
            int n_hand, const int32_t *hand,
            const int32_t *tau, int max_tiles, int cnto, int dmo, int (*stop)(void), int32_t *out,
            int32_t *n_out, int64_t *nodes, int32_t *complete) {
    if (n_ot == 0 || n_hand > 16 || n_hand < 0) return KC_ERROR;
    S *s = calloc(1, sizeof(S));
    if (!s) return KC_ERROR;
    int result = KC_ERROR;
    s->H = H; s->N = N;
    const int dq[6] = {1, 0, -1, -1, 0, 1}, dr[6] = {0, 1, 1, 0, -1, -1}; /* tiles.DIRS */
    for (int f = 0; f < 6; f++) s->step[f] = dq[f] * H + dr[f];
    s->cell = malloc(N * sizeof(int16_t));
    s->slot = malloc(N);
    s->oldk = malloc(N * sizeof(int16_t));
    s->pass = calloc(N, 1);
    s->dist = calloc(N, 1);
    s->qq = malloc(N * sizeof(int16_t)); s->rr = malloc(N * sizeof(int16_t));
    s->mine = calloc(n_ot, 1);
    s->fitpool = malloc((4096 + (size_t)T_fits_off[4096]) * sizeof(int16_t));
    s->bfs = malloc(2 * (size_t)N * sizeof(int));
    int *touched = malloc((size_t)N * sizeof(int));
    int nk = n_old * 6;
    s->end_pid = malloc(nk * sizeof(int)); s->end_c = malloc(nk * sizeof(int));
    s->end_e = malloc(nk * sizeof(int)); s->owner = malloc(nk * sizeof(int));
    int maxp = nk / 2 + 1;
    s->plen = calloc(maxp, sizeof(int)); s->pown = calloc(maxp, sizeof(int));
    int *starts = malloc((nk + 1) * sizeof(int));
    for (int k = 1; k <= 3; k++) s->targets[k] = malloc((nk + 1) * sizeof(int));
    if (!s->qq || !s->rr || !s->cell || !s->slot || !s->oldk || !s->pass || !s->dist || !s->mine || !s->fitpool || !s->bfs
        || !touched || !s->end_pid || !s->end_c || !s->end_e || !s->owner || !s->plen || !s->pown
        || !starts || !s->targets[1] || !s->targets[2] || !s->targets[3])
        goto done;
    for (int i = 0; i < N; i++) {
        s->cell[i] = -1; s->slot[i] = -1; s->oldk[i] = -1;
        s->qq[i] = (int16_t)(i / H); s->rr[i] = (int16_t)(i % H);
    }
    for (int k = 0; k < n_old; k++) {
        int c = old_cells[k];
        if (c < 0 || c >= N) goto done;
        s->cell[c] = old_ots[k];
        s->oldk[c] = (int16_t)k;
    }
    for (int i = 0; i < nk; i++) { s->end_pid[i] = -1; s->owner[i] = -1; }
    for (int i = 0; i < 4096; i++) s->fit_at[i] = -1;
    /* the hand (dict.fromkeys: duplicates dropped) */
    for (int h = 0; h < n_hand; h++) {
        int dup = 0;
        for (int j = 0; j < s->n_hand; j++) dup = dup || s->hand[j] == hand[h];
        if (dup || hand[h] < 0 || hand[h] >= 128) continue;
        int i = s->n_hand++;
        s->hand[i] = hand[h];
        for (int k = 0; k < 4; k++) s->tau[i][k] = tau[h * 4 + k];
    }
    for (int ot = 0; ot < n_ot; ot++)
        for (int h = 0; h < s->n_hand; h++) if (T_number[ot] == s->hand[h]) s->mine[ot] = 1;
    s->max_tiles = max_tiles < s->n_hand ? max_tiles : s->n_hand;
    if (s->max_tiles > MAXNEW) s->max_tiles = MAXNEW;
    s->cnto = cnto; s->dmo = dmo;
    s->prune = !cnto && !dmo; /* the bound counts crossings on the whole path (DEFAULT K-16) */
    s->best = -1;
    s->stop = stop;
    s->check_at = 0; /* a deadline already passed stops before the first node */
    /* paths.OldPaths: every open old path's ends, length and crossings */
    int np = 0;
    for (int k = 0; k < n_old; k++) {
        int c0 = old_cells[k];
        for (int a0 = 0; a0 < 6; a0++) {
            if (s->cell[c0 + s->step[a0]] >= 0 || s->owner[k * 6 + a0] >= 0) continue;
            int pid = np++;
            int c = c0, out = T_partner[s->cell[c] * 6 + a0], length = 1;
            s->owner[k * 6 + a0] = s->owner[k * 6 + out] = pid;
            for (;;) { /* scoring.trace from an open end */
                int n = c + s->step[out];
                if (s->cell[n] < 0) break;
                int entry = (out + 3) % 6;
                c = n;
                out = T_partner[s->cell[c] * 6 + entry];
                s->owner[s->oldk[c] * 6 + entry] = s->owner[s->oldk[c] * 6 + out] = pid;
                length++;
            }
            int i0 = k * 6 + a0, i1 = s->oldk[c] * 6 + out;
            s->end_pid[i0] = pid; s->end_c[i0] = c; s->end_e[i0] = out;
            s->end_pid[i1] = pid; s->end_c[i1] = c0; s->end_e[i1] = a0;
            s->plen[pid] = length;
        }
    }
    s->npaths = np;
    /* self-crossings (K-16) and crossings between two old paths, tile by tile */
    s->between = calloc((size_t)(np ? np : 1) * (np ? np : 1), sizeof(int));
    if (!s->between) goto done;
    for (int k = 0; k < n_old; k++) {
        int ot = old_ots[k];
        int sa[3], sb[3], ns = 0;
        for (int a = 0; a < 6; a++) {
            int b = T_partner[ot * 6 + a];
            if (a < b) { sa[ns] = a; sb[ns] = b; ns++; }
        }
        for (int i = 0; i < 3; i++)
            for (int j = i + 1; j < 3; j++) {
                int p = s->owner[k * 6 + sa[i]], q = s->owner[k * 6 + sa[j]];
                if (p < 0 || q < 0 || !crosses(sa[i], sb[i], sa[j], sb[j])) continue;
                if (p == q) s->pown[p]++;
                else { s->between[p * np + q]++; s->between[q * np + p]++; }
            }
    }
    /* the starts: every open end of the pattern, in (cell, edge) order */
    int ns = 0;
    for (int k = 1; k <= 3; k++) s->ntargets[k] = 0;
    for (int k = 0; k < n_old; k++) {
        int c = old_cells[k], ot = old_ots[k];
        for (int f = 0; f < 6; f++) {
            int n = c + s->step[f];
            if (s->cell[n] >= 0) continue;
            int code = n * 8 + (f + 3) % 6, col = T_colour[ot * 6 + f];
            starts[ns++] = code;
            s->targets[col][s->ntargets[col]++] = code;
        }
    }
    qsort(starts, ns, sizeof(int), cmp_int);
    passable(s);
    for (int i = 0; i < ns && !s->halt; i++) {
        if (i > 0 && starts[i] == starts[i - 1]) continue;
        int cell = starts[i] >> 3, edge = starts[i] & 7;
        s->start = starts[i];
        int colour = T_colour[s->cell[cell + s->step[edge]] * 6 + (edge + 3) % 6];
        int nt = distances(s, colour, touched);
        for (int j = fits_of(s, cell); s->fitpool[j] >= 0 && !s->halt; j++) {
            int ot = s->fitpool[j];
            if (s->used[T_number[ot]]) continue;
            place(s, cell, ot);
            advance(s, cell, edge, cell, edge, colour);
            unplace(s, cell);
        }
        for (int j = 0; j < nt; j++) s->dist[touched[j]] = FAR;
    }
    if (!s->err) {
        result = s->best;
        *n_out = s->best >= 0 ? s->bestn : 0;
        for (int i = 0; i < *n_out; i++) { out[2 * i] = s->bestcell[i]; out[2 * i + 1] = s->bestot[i]; }
        *nodes = s->nodes;
        *complete = !s->halt;
    }
done:
    free(s->qq); free(s->rr); free(s->cell); free(s->slot); free(s->oldk); free(s->pass); free(s->dist); free(s->mine);
    free(s->fitpool); free(s->bfs); free(touched); free(s->end_pid); free(s->end_c); free(s->end_e);
    free(s->owner); free(s->plen); free(s->pown); free(starts); free(s->between);
    for (int k = 1; k <= 3; k++) free(s->targets[k]);
    free(s);
    return result;
}
