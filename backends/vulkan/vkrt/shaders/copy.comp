#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Strided copy of 32-bit elements: element i of an iteration space of rank dims (p[3..10])
// goes from in[p[1] + sum c_d * p[11+d]] to out[p[2] + sum c_d * p[19+d]]. Permutes, slices,
// concatenations, splits and expands are all one or several of these.
// p: 0 n, 1 in base, 2 out base, 3 rank, 4..11 dims, 12..19 in strides, 20..27 out strides.
layout(std430, binding = 1) readonly buffer X { uint x[]; };
layout(std430, binding = 2) writeonly buffer O { uint o[]; };

void main() {
  uint i = gid();
  if (i >= p[0]) return;
  uint rem = i, src = p[1], dst = p[2];
  for (int d = int(p[3]) - 1; d >= 0; d--) {
    uint c = rem % p[4 + d];
    rem /= p[4 + d];
    src += c * p[12 + d];
    dst += c * p[20 + d];
  }
  o[dst] = x[src];
}
