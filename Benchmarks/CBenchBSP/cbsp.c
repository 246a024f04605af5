#include "cbsp.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A polygon pool: every corner end to end, polygons as ranges of it. */
typedef struct pool {
    double *p; int np, cp;
    int *start, *count, *id; int n, c;
} pool;

static int add_point(pool *P, const double *v) {
    if (P->np == P->cp) { P->cp = P->cp ? 2 * P->cp : 1024; P->p = realloc(P->p, sizeof(double) * 3 * P->cp); }
    memcpy(P->p + 3 * P->np, v, sizeof(double) * 3);
    return P->np++;
}

static int add_polygon(pool *P, int start, int count, int id) {
    if (P->n == P->c) {
        P->c = P->c ? 2 * P->c : 256;
        P->start = realloc(P->start, sizeof(int) * P->c); P->count = realloc(P->count, sizeof(int) * P->c);
        P->id = realloc(P->id, sizeof(int) * P->c);
    }
    P->start[P->n] = start; P->count[P->n] = count; P->id[P->n] = id;
    return P->n++;
}

/* Newell's normal about the centroid, normalised (0 when degenerate), and the plane offset. */
static int plane(const pool *P, int k, double n[3], double *d) {
    const double *v = P->p + 3 * P->start[k];
    int c = P->count[k];
    double cx = 0, cy = 0, cz = 0;
    for (int i = 0; i < c; i++) { cx += v[3 * i]; cy += v[3 * i + 1]; cz += v[3 * i + 2]; }
    cx /= c; cy /= c; cz /= c;
    double nx = 0, ny = 0, nz = 0;
    for (int i = 0; i < c; i++) {
        int j = (i + 1) % c;
        double ax = v[3 * i] - cx, ay = v[3 * i + 1] - cy, az = v[3 * i + 2] - cz;
        double bx = v[3 * j] - cx, by = v[3 * j + 1] - cy, bz = v[3 * j + 2] - cz;
        nx += ay * bz - az * by; ny += az * bx - ax * bz; nz += ax * by - ay * bx;
    }
    double l = sqrt(nx * nx + ny * ny + nz * nz);
    if (!(l > 0) || !isfinite(l)) return 0;
    n[0] = nx / l; n[1] = ny / l; n[2] = nz / l;
    *d = n[0] * cx + n[1] * cy + n[2] * cz;
    return 1;
}

static void emit(const pool *P, int k, cbsp_output *out) {
    int c = P->count[k];
    if (out->count + 1 >= out->capacity_fragments) {
        out->capacity_fragments = out->capacity_fragments ? 2 * out->capacity_fragments : 256;
        out->polygon = realloc(out->polygon, sizeof(int) * out->capacity_fragments);
        out->start = realloc(out->start, sizeof(int) * (out->capacity_fragments + 1));
    }
    if (out->count == 0) out->start[0] = 0;
    int s = out->start[out->count];
    if (s + c > out->capacity_points) {
        while (s + c > out->capacity_points) out->capacity_points = out->capacity_points ? 2 * out->capacity_points : 1024;
        out->points = realloc(out->points, sizeof(double) * 3 * out->capacity_points);
    }
    memcpy(out->points + 3 * s, P->p + 3 * P->start[k], sizeof(double) * 3 * c);
    out->polygon[out->count] = P->id[k];
    out->start[++out->count] = s + c;
}

static void node(pool *P, const int *list, int n, double t, cbsp_output *out) {
    if (n == 0) return;
    double nrm[3], d = 0;
    int splitter = -1;
    if (n > 24) {
        for (int i = 0; i < n && splitter < 0; i++) if (plane(P, list[i], nrm, &d)) splitter = i;
    } else {
        int best = -1, best_cuts = 0, usable = 0, first = -1;
        for (int i = 0; i < n; i++) if (plane(P, list[i], nrm, &d)) { usable++; if (first < 0) first = i; }
        if (usable <= 1) best = first;
        else for (int i = 0; i < n; i++) {
            if (!plane(P, list[i], nrm, &d)) continue;
            int cuts = 0;
            for (int j = 0; j < n; j++) {
                if (j == i) continue;
                const double *v = P->p + 3 * P->start[list[j]];
                int f = 0, b = 0;
                for (int k = 0; k < P->count[list[j]]; k++) {
                    double s = nrm[0] * v[3 * k] + nrm[1] * v[3 * k + 1] + nrm[2] * v[3 * k + 2] - d;
                    if (s > t) f = 1; else if (s < -t) b = 1;
                }
                if (f && b) { cuts++; if (best >= 0 && cuts >= best_cuts) break; }
            }
            if (best < 0 || cuts < best_cuts) { best = i; best_cuts = cuts; }
            if (cuts == 0) break;
        }
        splitter = best;
    }
    if (splitter < 0 || !plane(P, list[splitter], nrm, &d)) {
        /* No plane: all coplanar, in polygon order. */
        int *c = malloc(sizeof(int) * n); memcpy(c, list, sizeof(int) * n);
        for (int i = 1; i < n; i++) for (int j = i; j > 0 && P->id[c[j - 1]] > P->id[c[j]]; j--) { int x = c[j]; c[j] = c[j - 1]; c[j - 1] = x; }
        for (int i = 0; i < n; i++) emit(P, c[i], out);
        free(c);
        return;
    }
    int *front = malloc(sizeof(int) * 2 * n), *back = malloc(sizeof(int) * 2 * n), *copl = malloc(sizeof(int) * n);
    int nf = 0, nb = 0, nc = 0;
    double dist[64];
    for (int i = 0; i < n; i++) {
        int k = list[i];
        if (i == splitter) { copl[nc++] = k; continue; }
        int c = P->count[k], s0 = P->start[k], f = 0, b = 0;
        double *dd = c <= 64 ? dist : malloc(sizeof(double) * c);
        for (int j = 0; j < c; j++) {
            const double *v = P->p + 3 * (s0 + j);
            dd[j] = nrm[0] * v[0] + nrm[1] * v[1] + nrm[2] * v[2] - d;
            if (dd[j] > t) f = 1;
            if (dd[j] < -t) b = 1;
        }
        if (!f && !b) copl[nc++] = k;
        else if (f && !b) front[nf++] = k;
        else if (!f && b) back[nb++] = k;
        else for (int side = 0; side < 2; side++) {
            int first = P->np;
            for (int j = 0; j < c; j++) {
                int j1 = (j + 1) % c;
                double a[3], e[3], x[3];
                memcpy(a, P->p + 3 * (s0 + j), sizeof a); memcpy(e, P->p + 3 * (s0 + j1), sizeof e);
                if (side == 0 ? dd[j] >= -t : dd[j] <= t) add_point(P, a);
                if ((dd[j] > t && dd[j1] < -t) || (dd[j] < -t && dd[j1] > t)) {
                    double u = dd[j] / (dd[j] - dd[j1]);
                    x[0] = a[0] + (e[0] - a[0]) * u; x[1] = a[1] + (e[1] - a[1]) * u; x[2] = a[2] + (e[2] - a[2]) * u;
                    add_point(P, x);
                }
            }
            int made = P->np - first;
            if (made < 3) { P->np = first; continue; }
            int q = add_polygon(P, first, made, P->id[k]);
            if (side == 0) front[nf++] = q; else back[nb++] = q;
        }
        if (dd != dist) free(dd);
    }
    /* Coplanar ones by polygon index (insertion sort: stable, as the tie-break is the index alone). */
    for (int i = 1; i < nc; i++) for (int j = i; j > 0 && P->id[copl[j - 1]] > P->id[copl[j]]; j--) { int x = copl[j]; copl[j] = copl[j - 1]; copl[j - 1] = x; }
    if (nrm[2] >= 0) { node(P, back, nb, t, out); for (int i = 0; i < nc; i++) emit(P, copl[i], out); node(P, front, nf, t, out); }
    else { node(P, front, nf, t, out); for (int i = 0; i < nc; i++) emit(P, copl[i], out); node(P, back, nb, t, out); }
    free(front); free(back); free(copl);
}

int cbsp_back_to_front(const double *points, const int *start, int polygons, double thickness, cbsp_output *out) {
    pool P = {0};
    int *list = malloc(sizeof(int) * (polygons > 0 ? polygons : 1));
    for (int i = 0; i < polygons; i++) {
        int first = P.np;
        for (int j = start[i]; j < start[i + 1]; j++) add_point(&P, points + 3 * j);
        list[i] = add_polygon(&P, first, start[i + 1] - start[i], i);
    }
    out->count = 0;
    node(&P, list, polygons, thickness, out);
    free(list); free(P.p); free(P.start); free(P.count); free(P.id);
    return out->count;
}

void cbsp_free(cbsp_output *out) {
    free(out->polygon); free(out->start); free(out->points);
    memset(out, 0, sizeof *out);
}
