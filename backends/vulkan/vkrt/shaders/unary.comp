#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Elementwise functions. p: 0 op, 1 n, 2 lo, 3 hi (clamp bounds; relu is [0, +inf)).
layout(std430, binding = 1) readonly buffer X { float x[]; };
layout(std430, binding = 2) writeonly buffer O { float o[]; };

// erf by Abramowitz and Stegun 7.1.26 is 1.5e-7 absolute at best, short of fp32; this is the
// series/continued-fraction pair glibc's erff uses in spirit, kept simple: a Taylor series for
// |v| < 2.5 and the asymptotic complement beyond (both below 2e-7 relative there).
float erf_(float v) {
  float a = abs(v);
  if (a < 2.5) {
    float s = a, term = a, v2 = a * a;
    for (int k = 1; k < 60; k++) {
      term *= -v2 / float(k);
      float add = term / float(2 * k + 1);
      s += add;
      if (abs(add) < 1e-9 * abs(s)) break;
    }
    return sign(v) * clamp(1.1283791670955126 * s, 0.0, 1.0);
  }
  // erfc(a) = exp(-a^2)/(a sqrt(pi)) * (1 - 1/(2a^2) + 3/(4a^4) - 15/(8a^6) + 105/(16 a^8))
  float i2 = 1.0 / (a * a);
  float series = 1.0 - 0.5 * i2 + 0.75 * i2 * i2 - 1.875 * i2 * i2 * i2 + 6.5625 * i2 * i2 * i2 * i2;
  float c = exp(-a * a) / (a * 1.7724538509055159) * series;
  return sign(v) * (1.0 - c);
}

void main() {
  uint i = gid();
  if (i >= p[1]) return;
  float v = x[i], r;
  switch (p[0]) {
    case 0u: { // clamp: NaN stays NaN, as torch's clamp
      float lo = pf(2), hi = pf(3);
      r = v < lo ? lo : (v > hi ? hi : v);
      break;
    }
    case 1u: r = v * clamp(v + 3.0, 0.0, 6.0) / 6.0; if (isnan(v)) r = v; break; // hardswish
    case 2u: r = 1.0 / (1.0 + exp(-v)); break;                                 // sigmoid
    case 3u: { // tanh, saturating before exp overflows
      float e = exp(-2.0 * abs(v));
      r = sign(v) * (1.0 - e) / (1.0 + e);
      if (isnan(v)) r = v;
      break;
    }
    case 4u: r = 0.5 * v * (1.0 + erf_(v * 0.7071067811865476)); break;        // gelu
    case 5u: {                                                                   // gelu tanh
      float u = 0.7978845608028654 * (v + 0.044715 * v * v * v);
      float e = exp(-2.0 * abs(u));
      float t = sign(u) * (1.0 - e) / (1.0 + e);
      r = 0.5 * v * (1.0 + t);
      if (isnan(v)) r = v;
      break;
    }
    case 6u: r = clamp(v + 3.0, 0.0, 6.0) / 6.0; if (isnan(v)) r = v; break;  // hardsigmoid
    case 7u: r = v / (1.0 + exp(-v)); break;                                    // silu
    case 8u: r = abs(v); break;
    case 9u: r = -v; break;
    case 10u: r = exp(v); break;
    case 11u: r = sqrt(v); break;
    default: r = inversesqrt(v); break;
  }
  o[i] = r;
}
