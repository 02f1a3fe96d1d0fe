#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Casts between float32 (kind 0), int32 (1) and bool (2) words, as torch's .to casts: float to
// int truncates toward zero, anything nonzero (a NaN too) is true, true is 1. The official
// partitioner turns a Python scalar operand into an int32 constant and casts it. Words are
// bound as uint so every bit pattern arrives intact (as floats, negative ints are NaNs, which
// a device may canonicalise).
// p: 0 n, 1 from kind, 2 to kind.
layout(std430, binding = 1) readonly buffer X { uint x[]; };
layout(std430, binding = 2) writeonly buffer O { uint o[]; };

void main() {
  uint i = gid();
  if (i >= p[0]) return;
  uint w = x[i], from = p[1], to = p[2];
  uint r;
  if (to == 2u) {
    r = uint(from == 0u ? !(uintBitsToFloat(w) == 0.0) : w != 0u);
  } else if (to == 1u) {
    r = from == 0u ? uint(int(uintBitsToFloat(w))) : w;
  } else {
    r = from == 0u ? w : floatBitsToUint(float(int(w)));
  }
  o[i] = r;
}
