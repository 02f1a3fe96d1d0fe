#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Sum or mean over a set of dims: output element i enumerates the kept dims (sizes p[4..11],
// input strides p[12..19]); each reads the reduced dims (sizes p[20..27], strides p[28..35]).
// p: 0 op (0 sum, 1 mean), 1 n, 2 kept rank, 3 reduced rank, 36 reduced count.
layout(std430, binding = 1) readonly buffer X { float x[]; };
layout(std430, binding = 2) writeonly buffer O { float o[]; };

void main() {
  uint i = gid();
  if (i >= p[1]) return;
  uint rem = i, base = 0u;
  for (int d = int(p[2]) - 1; d >= 0; d--) {
    uint c = rem % p[4 + d];
    rem /= p[4 + d];
    base += c * p[12 + d];
  }
  float s = 0.0;
  uint R = p[36];
  for (uint r = 0u; r < R; r++) {
    uint rr = r, off = base;
    for (int d = int(p[3]) - 1; d >= 0; d--) {
      uint c = rr % p[20 + d];
      rr /= p[20 + d];
      off += c * p[28 + d];
    }
    s += x[off];
  }
  o[i] = p[0] == 1u ? s / float(R) : s;
}
