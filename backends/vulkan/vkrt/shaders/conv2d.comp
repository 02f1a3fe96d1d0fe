#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Direct grouped 2-D convolution, NCHW, weight [OC, C/groups, KH, KW], with bias and a clamp.
// Depthwise and pointwise convolutions are its special cases.
// p: 0 n, 1 C, 2 H, 3 W, 4 OC, 5 OH, 6 OW, 7 KH, 8 KW, 9 sH, 10 sW, 11 pH, 12 pW, 13 dH,
//    14 dW, 15 groups, 16 has bias, 17 lo, 18 hi.
layout(std430, binding = 1) readonly buffer X { float x[]; };
layout(std430, binding = 2) readonly buffer Wt { float w[]; };
layout(std430, binding = 3) readonly buffer Bias { float bias[]; };
layout(std430, binding = 4) writeonly buffer O { float o[]; };

void main() {
  uint i = gid();
  if (i >= p[0]) return;
  uint C = p[1], H = p[2], W = p[3], OC = p[4], OH = p[5], OW = p[6], KH = p[7], KW = p[8];
  uint ow = i % OW, oh = (i / OW) % OH, oc = (i / (OW * OH)) % OC, nb = i / (OW * OH * OC);
  uint cpg = C / p[15], ocpg = OC / p[15];
  uint c0 = (oc / ocpg) * cpg;
  int ih0 = int(oh * p[9]) - int(p[11]), iw0 = int(ow * p[10]) - int(p[12]);
  float s = 0.0;
  for (uint c = 0u; c < cpg; c++) {
    uint xb = (nb * C + c0 + c) * H * W, wb = (oc * cpg + c) * KH * KW;
    for (uint kh = 0u; kh < KH; kh++) {
      int ih = ih0 + int(kh * p[13]);
      if (ih < 0 || ih >= int(H)) continue;
      for (uint kw = 0u; kw < KW; kw++) {
        int iw = iw0 + int(kw * p[14]);
        if (iw < 0 || iw >= int(W)) continue;
        s += x[xb + uint(ih) * W + uint(iw)] * w[wb + kh * KW + kw];
      }
    }
  }
  if (p[16] != 0u) s += bias[oc];
  float lo = pf(17), hi = pf(18);
  o[i] = s < lo ? lo : (s > hi ? hi : s);
}
