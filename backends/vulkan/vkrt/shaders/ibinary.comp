#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Elementwise operators whose result is an int32 or bool word, with broadcasting as in
// binary.comp: int32 arithmetic, bitwise and logical operators, and comparisons (bool out).
// Operands are words; bit 0 of p[28] says a is float32, bit 1 that b is. A comparison with a
// float operand compares in float32 (an int operand converted, as torch promotes), with
// ordered comparisons, so NaN compares false except under ne; otherwise it compares as int32.
// Logical operators take any nonzero element as true (a NaN too, as torch does).
// p: 0 op, 1 n, 2 rank, 3 alpha (int), 4..11 out dims, 12..19 a strides, 20..27 b strides,
// 28 flags.
layout(std430, binding = 1) readonly buffer A { uint a[]; };
layout(std430, binding = 2) readonly buffer B { uint b[]; };
layout(std430, binding = 3) writeonly buffer O { uint o[]; };

bool truth(uint w, bool isFloat) { return isFloat ? !(uintBitsToFloat(w) == 0.0) : w != 0u; }
float asFloat(uint w, bool isFloat) { return isFloat ? uintBitsToFloat(w) : float(int(w)); }

void main() {
  uint i = gid();
  if (i >= p[1]) return;
  uint rank = p[2];
  uint rem = i, ia = 0u, ib = 0u;
  for (int d = int(rank) - 1; d >= 0; d--) {
    uint sz = p[4 + d];
    uint c = rem % sz;
    rem /= sz;
    ia += c * p[12 + d];
    ib += c * p[20 + d];
  }
  uint x = a[ia], y = b[ib];
  bool fa = (p[28] & 1u) != 0u, fb = (p[28] & 2u) != 0u;
  uint op = p[0];
  uint r;
  if (op < 3u) {
    int xi = int(x), yi = int(y), alpha = int(p[3]);
    // int32 arithmetic wraps, as torch's does
    r = uint(op == 0u ? xi + alpha * yi : op == 1u ? xi - alpha * yi : xi * yi);
  } else if (op < 6u) {
    r = op == 3u ? (x & y) : op == 4u ? (x | y) : (x ^ y);
  } else if (op < 9u) {
    bool tx = truth(x, fa), ty = truth(y, fb);
    r = uint(op == 6u ? tx && ty : op == 7u ? tx || ty : tx != ty);
  } else if (fa || fb) {
    float xf = asFloat(x, fa), yf = asFloat(y, fb);
    bool c;
    switch (op) {
      case 9u: c = xf == yf; break;
      case 10u: c = !(xf == yf); break;
      case 11u: c = xf < yf; break;
      case 12u: c = xf <= yf; break;
      case 13u: c = xf > yf; break;
      default: c = xf >= yf; break;
    }
    r = uint(c);
  } else {
    int xi = int(x), yi = int(y);
    bool c;
    switch (op) {
      case 9u: c = xi == yi; break;
      case 10u: c = xi != yi; break;
      case 11u: c = xi < yi; break;
      case 12u: c = xi <= yi; break;
      case 13u: c = xi > yi; break;
      default: c = xi >= yi; break;
    }
    r = uint(c);
  }
  o[i] = r;
}
