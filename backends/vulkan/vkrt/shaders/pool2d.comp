#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Max and average 2-D pooling over NCHW planes, as torch computes them (max: NaN wins, the
// index is the first maximum's h*W+w in its plane; average: torch's divisor rules).
// p: 0 op (0 max, 1 avg), 1 n, 2 H, 3 W, 4 OH, 5 OW, 6 KH, 7 KW, 8 sH, 9 sW, 10 pH, 11 pW,
//    12 dH, 13 dW, 14 count_include_pad, 15 divisor override (0: none).
layout(std430, binding = 1) readonly buffer X { float x[]; };
layout(std430, binding = 2) writeonly buffer O { float o[]; };
layout(std430, binding = 3) writeonly buffer Idx { int idx[]; };

void main() {
  uint i = gid();
  if (i >= p[1]) return;
  int H = int(p[2]), W = int(p[3]);
  uint OH = p[4], OW = p[5];
  uint ow = i % OW, oh = (i / OW) % OH, plane = i / (OW * OH);
  uint xb = plane * uint(H * W);
  int hs = int(oh * p[8]) - int(p[10]), ws = int(ow * p[9]) - int(p[11]);
  if (p[0] == 0u) {
    float m = uintBitsToFloat(0xff800000u); // -inf
    int mi = -1;
    for (uint kh = 0u; kh < p[6]; kh++) {
      int ih = hs + int(kh * p[12]);
      if (ih < 0 || ih >= H) continue;
      for (uint kw = 0u; kw < p[7]; kw++) {
        int iw = ws + int(kw * p[13]);
        if (iw < 0 || iw >= W) continue;
        float v = x[xb + uint(ih * W + iw)];
        if (mi < 0 || v > m || (isnan(v) && !isnan(m))) { m = v; mi = ih * W + iw; }
      }
    }
    o[i] = m;
    idx[i] = mi;
    return;
  }
  int pH = int(p[10]), pW = int(p[11]);
  int he = min(hs + int(p[6]), H + pH), we = min(ws + int(p[7]), W + pW);
  int pool = (he - hs) * (we - ws);
  int h0 = max(hs, 0), w0 = max(ws, 0), h1 = min(he, H), w1 = min(we, W);
  float s = 0.0;
  for (int ih = h0; ih < h1; ih++)
    for (int iw = w0; iw < w1; iw++) s += x[xb + uint(ih * W + iw)];
  int div = p[15] != 0u ? int(p[15]) : (p[14] != 0u ? pool : (h1 - h0) * (w1 - w0));
  o[i] = s / float(div);
}
