#ifndef CBSP_H
#define CBSP_H

/// The renderer's BSP depth sort (Sources/OrigamiRender/Geometry/BSPTree.swift) written as straightforward C on flat
/// arrays: the same splitter rule (the first polygon cutting the fewest others up to 24 polygons, else the first
/// with a plane), the same classification and splits, fragments emitted back to front with coplanar ones by
/// polygon index. The baseline of the BSP rows.
typedef struct cbsp_output {
    int count;          ///< fragments
    int *polygon;       ///< per fragment: the input polygon it comes from
    int *start;         ///< per fragment: its first corner in `points` (count + 1 entries)
    double *points;     ///< x, y, z per corner
    int capacity_fragments, capacity_points;
} cbsp_output;

/// `points`: x, y, z of every corner; polygon i has corners start[i] ..< start[i + 1]. Appends to `out` (whose
/// buffers it grows; `cbsp_free` releases them). Returns the fragment count.
int cbsp_back_to_front(const double *points, const int *start, int polygons, double thickness, cbsp_output *out);
void cbsp_free(cbsp_output *out);

#endif
