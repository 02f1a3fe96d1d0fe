#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// argmax (p[4] 0) or argmin (1) along one dim: the input is viewed as [outer, size, inner] and
// output element i = o*inner + n is the index of the first extreme of x[o, :, n], as torch
// picks it; a NaN counts as the extreme (torch's argmax and argmin both return the first
// NaN's index). An int32 input (p[5] 1) compares as int.
// p: 0 n (outer*inner), 1 size, 2 inner, 3 unused, 4 argmin, 5 int input.
layout(std430, binding = 1) readonly buffer X { uint x[]; };
layout(std430, binding = 2) writeonly buffer O { int o[]; };

void main() {
  uint i = gid();
  if (i >= p[0]) return;
  uint size = p[1], inner = p[2];
  bool isMin = p[4] != 0u, isInt = p[5] != 0u;
  uint base = (i / inner) * size * inner + i % inner;
  int best = 0;
  if (isInt) {
    int bv = int(x[base]);
    for (uint k = 1u; k < size; k++) {
      int v = int(x[base + k * inner]);
      if (isMin ? v < bv : v > bv) { bv = v; best = int(k); }
    }
  } else {
    float bv = uintBitsToFloat(x[base]);
    for (uint k = 1u; k < size && !isnan(bv); k++) {
      float v = uintBitsToFloat(x[base + k * inner]);
      if (isnan(v) || (isMin ? v < bv : v > bv)) { bv = v; best = int(k); }
    }
  }
  o[i] = best;
}
