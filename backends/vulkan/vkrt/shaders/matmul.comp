#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// out[b, m, n] = sum_k a[b, m, k] * w[b*wB + k*wK + n*wN] (+ bias[n]); out and a contiguous.
// p: 0 n (= B*M*N), 1 M, 2 N, 3 K, 4 a batch stride, 5 w batch stride, 6 wK, 7 wN, 8 has bias.
layout(std430, binding = 1) readonly buffer A { float a[]; };
layout(std430, binding = 2) readonly buffer W { float w[]; };
layout(std430, binding = 3) readonly buffer Bias { float bias[]; };
layout(std430, binding = 4) writeonly buffer O { float o[]; };

void main() {
  uint i = gid();
  if (i >= p[0]) return;
  uint M = p[1], N = p[2], K = p[3];
  uint n = i % N, m = (i / N) % M, b = i / (N * M);
  uint ia = b * p[4] + m * K, iw = b * p[5] + n * p[7], wk = p[6];
  float s = 0.0;
  for (uint k = 0u; k < K; k++) s += a[ia + k] * w[iw + k * wk];
  if (p[8] != 0u) s += bias[n];
  o[i] = s;
}
