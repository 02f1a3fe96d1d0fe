#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// int32 -> float32 (a dim-order copy that changes dtype: the official partitioner turns a
// Python scalar operand into an int32 constant and casts it). p: 0 n. The input is bound as
// int so every bit pattern arrives intact (as floats, negative ints are NaNs, which a device
// may canonicalise).
layout(std430, binding = 1) readonly buffer X { int x[]; };
layout(std430, binding = 2) writeonly buffer O { float o[]; };

void main() {
  uint i = gid();
  if (i >= p[0]) return;
  o[i] = float(x[i]);
}
