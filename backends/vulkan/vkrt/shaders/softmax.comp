#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Softmax (or log-softmax) along one dim of a contiguous tensor viewed as [outer, D, inner]:
// one invocation per (outer, inner) line. p: 0 lines, 1 D, 2 inner, 3 log.
layout(std430, binding = 1) readonly buffer X { float x[]; };
layout(std430, binding = 2) writeonly buffer O { float o[]; };

void main() {
  uint i = gid();
  if (i >= p[0]) return;
  uint D = p[1], inner = p[2];
  uint base = (i / inner) * D * inner + i % inner;
  float m = uintBitsToFloat(0xff800000u);
  bool nan = false;
  for (uint d = 0u; d < D; d++) { float v = x[base + d * inner]; nan = nan || isnan(v); m = max(m, v); }
  float s = 0.0;
  for (uint d = 0u; d < D; d++) s += exp(x[base + d * inner] - m);
  for (uint d = 0u; d < D; d++) {
    float v = x[base + d * inner] - m;
    float r = p[3] != 0u ? v - log(s) : exp(v) / s;
    o[base + d * inner] = nan ? uintBitsToFloat(0x7fc00000u) : r;
  }
}
