#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// out = x * scale[c] + shift[c], c the dim-1 index of a contiguous [N, C, inner] tensor:
// inference batch norm with its statistics folded at Init. p: 0 n, 1 C, 2 inner.
layout(std430, binding = 1) readonly buffer X { float x[]; };
layout(std430, binding = 2) readonly buffer S { float scale[]; };
layout(std430, binding = 3) readonly buffer T { float shift[]; };
layout(std430, binding = 4) writeonly buffer O { float o[]; };

void main() {
  uint i = gid();
  if (i >= p[0]) return;
  uint c = (i / p[2]) % p[1];
  o[i] = x[i] * scale[c] + shift[c];
}
