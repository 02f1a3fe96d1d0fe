#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Layer norm over the last D elements of each row, one invocation per row; writes the row's
// mean and 1/sqrt(var + eps) too. p: 0 rows, 1 D, 2 eps, 3 has weight, 4 has bias.
layout(std430, binding = 1) readonly buffer X { float x[]; };
layout(std430, binding = 2) readonly buffer Wt { float w[]; };
layout(std430, binding = 3) readonly buffer Bs { float b[]; };
layout(std430, binding = 4) writeonly buffer O { float o[]; };
layout(std430, binding = 5) writeonly buffer Mean { float mean[]; };
layout(std430, binding = 6) writeonly buffer Rstd { float rstd[]; };

void main() {
  uint i = gid();
  if (i >= p[0]) return;
  uint D = p[1], base = i * D;
  float s = 0.0;
  for (uint d = 0u; d < D; d++) s += x[base + d];
  float mu = s / float(D);
  float v = 0.0;
  for (uint d = 0u; d < D; d++) { float e = x[base + d] - mu; v += e * e; }
  float rs = inversesqrt(v / float(D) + pf(2));
  for (uint d = 0u; d < D; d++) {
    float y = (x[base + d] - mu) * rs;
    if (p[3] != 0u) y *= w[d];
    if (p[4] != 0u) y += b[d];
    o[base + d] = y;
  }
  mean[i] = mu;
  rstd[i] = rs;
}
