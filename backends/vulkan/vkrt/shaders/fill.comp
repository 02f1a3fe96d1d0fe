#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Every element of the output is the word p[1] (full, ones, zeros and their _like forms: a
// float's bits, an int or a bool 0/1). p: 0 n, 1 word.
layout(std430, binding = 1) writeonly buffer O { uint o[]; };

void main() {
  uint i = gid();
  if (i >= p[0]) return;
  o[i] = p[1];
}
