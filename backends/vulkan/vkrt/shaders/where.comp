#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// out = cond ? x : y with the three broadcast to the output's rank dims (p[2..9]) and read
// through strides (p[10..], p[18..], p[26..]; 0 on a broadcast dim). Words are selected, not
// computed, so a NaN passes through with its bits, as torch's where does.
// p: 0 n, 1 rank, 2..9 out dims, 10..17 cond strides, 18..25 x strides, 26..33 y strides.
layout(std430, binding = 1) readonly buffer C { uint c[]; };
layout(std430, binding = 2) readonly buffer X { uint x[]; };
layout(std430, binding = 3) readonly buffer Y { uint y[]; };
layout(std430, binding = 4) writeonly buffer O { uint o[]; };

void main() {
  uint i = gid();
  if (i >= p[0]) return;
  uint rem = i, ic = 0u, ix = 0u, iy = 0u;
  for (int d = int(p[1]) - 1; d >= 0; d--) {
    uint sz = p[2 + d];
    uint k = rem % sz;
    rem /= sz;
    ic += k * p[10 + d];
    ix += k * p[18 + d];
    iy += k * p[26 + d];
  }
  o[i] = c[ic] != 0u ? x[ix] : y[iy];
}
