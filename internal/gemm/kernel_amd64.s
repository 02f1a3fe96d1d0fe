//go:build amd64 && !purego

#include "textflag.h"

// func mulAdd8(acc *float32, x *float32, w *float32, n int)
//
// acc[i] += x[i] * w[i] for i < n; n is a multiple of 8.
TEXT ·mulAdd8(SB), NOSPLIT, $0-32
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ w+16(FP), DX
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	JEQ madone
maloop:
	VMOVUPS 0(DI), Y0
	VMOVUPS 0(SI), Y1
	VFMADD231PS 0(DX), Y1, Y0
	VMOVUPS Y0, 0(DI)
	ADDQ $32, DI
	ADDQ $32, SI
	ADDQ $32, DX
	DECQ CX
	JNZ maloop
madone:
	VZEROUPPER
	RET

// func clamp8(d *float32, n int, lo float32, hi float32)
//
// d[i] = min(max(d[i], lo), hi) for i < n; n is a multiple of 8. A NaN stays NaN: the value is
// the second source, which VMAXPS and VMINPS return when either is NaN (XNNPACK's clamp).
TEXT ·clamp8(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	VBROADCASTSS lo+16(FP), Y1
	VBROADCASTSS hi+20(FP), Y2
	SHRQ $3, CX
	JEQ cdone
cloop:
	VMOVUPS 0(DI), Y0
	VMAXPS Y0, Y1, Y0
	VMINPS Y0, Y2, Y0
	VMOVUPS Y0, 0(DI)
	ADDQ $32, DI
	DECQ CX
	JNZ cloop
cdone:
	VZEROUPPER
	RET

// hswish8's constants, loaded with VEX instructions: a legacy-SSE MOVD into an xmm register
// right after the AVX-512 kernels measured ~100 cycles per call (an SSE/AVX state transition).
DATA hsconst<>+0(SB)/4, $0x3e2aaaab // 1/6
DATA hsconst<>+4(SB)/4, $0x3f000000 // 0.5
DATA hsconst<>+8(SB)/4, $0x3f800000 // 1.0
GLOBL hsconst<>(SB), RODATA|NOPTR, $12

// func hswish8(dst *float32, src *float32, n int)
//
// dst[i] = src[i] * min(max(src[i]*(1/6) + 0.5, 0), 1) for i < n (a multiple of 8): XNNPACK's
// hardswish, one fused multiply-add and the clamp value first (see hardswishGo).
TEXT ·hswish8(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS hsconst<>+0(SB), Y12 // 1/6
	VBROADCASTSS hsconst<>+4(SB), Y13 // 0.5
	VBROADCASTSS hsconst<>+8(SB), Y11 // 1.0
	VXORPS Y14, Y14, Y14
	SHRQ $3, CX
	JEQ hsdone
hsloop:
	VMOVUPS (SI), Y0
	VMOVAPS Y0, Y1
	VFMADD213PS Y13, Y12, Y1 // x*(1/6) + 0.5
	VMAXPS Y14, Y1, Y1       // max(r, 0): 0 for NaN
	VMINPS Y11, Y1, Y1       // min(r, 1)
	VMULPS Y0, Y1, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ hsloop
hsdone:
	VZEROUPPER
	RET

// func vmul8(dst *float32, a *float32, b *float32, n int)
//
// dst[i] = a[i] * b[i] for i < n (a multiple of 8).
TEXT ·vmul8(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	JEQ vmdone
vmloop:
	VMOVUPS (SI), Y0
	VMULPS (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNZ vmloop
vmdone:
	VZEROUPPER
	RET

// func vadd8(dst *float32, a *float32, b *float32, n int)
//
// dst[i] = a[i] + b[i] for i < n (a multiple of 8).
TEXT ·vadd8(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	JEQ vadone
valoop:
	VMOVUPS (SI), Y0
	VADDPS (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNZ valoop
vadone:
	VZEROUPPER
	RET

// func maxPool9x8(dst *float32, taps *[9]*float32, n int, first bool, lo float32, hi float32)
//
// For c < n (a multiple of 8): XNNPACK's 9-tap max-pooling fold of taps[0..8][c] into dst[c]
// (maxPool9Go), in its operand order. Go's VMAXPS b, a, d is Intel's vmaxps d, a, b: a when a > b,
// else b, so b whenever either is NaN, which decides which NaNs survive the tree.
TEXT ·maxPool9x8(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ taps+8(FP), AX
	MOVQ 0(AX), R8
	MOVQ 8(AX), R9
	MOVQ 16(AX), R10
	MOVQ 24(AX), R11
	MOVQ 32(AX), R12
	MOVQ 40(AX), R13
	MOVQ 48(AX), R14
	MOVQ 56(AX), R15
	MOVQ 64(AX), BX
	MOVQ n+16(FP), CX
	MOVBLZX first+24(FP), DX
	VBROADCASTSS lo+28(FP), Y14
	VBROADCASTSS hi+32(FP), Y15
	XORQ SI, SI
	SHRQ $3, CX
	JEQ mpdone
mploop:
	VMOVUPS (R8)(SI*1), Y0
	VMOVUPS (R9)(SI*1), Y1
	VMOVUPS (R10)(SI*1), Y2
	VMOVUPS (R11)(SI*1), Y3
	VMOVUPS (R12)(SI*1), Y4
	VMOVUPS (R13)(SI*1), Y5
	VMOVUPS (R14)(SI*1), Y6
	VMOVUPS (R15)(SI*1), Y7
	VMOVUPS (BX)(SI*1), Y8
	VMAXPS Y1, Y0, Y0 // max(t0, t1)
	VMAXPS Y8, Y0, Y0 // max(., t8)
	VMAXPS Y3, Y2, Y2 // max(t2, t3)
	VMAXPS Y5, Y4, Y4 // max(t4, t5)
	VMAXPS Y7, Y6, Y6 // max(t6, t7)
	VMAXPS Y4, Y2, Y2 // max(t23, t45)
	VMAXPS Y6, Y0, Y0 // max(t018, t67)
	VMAXPS Y0, Y2, Y2 // max(t2345, t01678)
	TESTQ DX, DX
	JEQ mplater
	VMAXPS Y14, Y2, Y2 // first pass: max(acc, lo)
	JMP mpstore
mplater:
	VMOVUPS (DI)(SI*1), Y9
	VMAXPS Y2, Y9, Y2 // later passes: max(previous, acc)
mpstore:
	VMINPS Y15, Y2, Y2 // min(acc, hi)
	VMOVUPS Y2, (DI)(SI*1)
	ADDQ $32, SI
	DECQ CX
	JNZ mploop
mpdone:
	VZEROUPPER
	RET

// func stridedCopy512(dst *float32, dstStride int, src *float32, srcStride int, count int, run int)
//
// AVX-512F: count runs of run floats, run r from src + r*srcStride to dst + r*dstStride (strides
// in floats): whole zmm moves, then one masked move for run%16 (masked-off lanes are neither read
// nor written, so nothing outside a run is touched).
TEXT ·stridedCopy512(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ dstStride+8(FP), R8
	SHLQ $2, R8
	MOVQ src+16(FP), SI
	MOVQ srcStride+24(FP), R9
	SHLQ $2, R9
	MOVQ count+32(FP), R10
	MOVQ run+40(FP), R11
	MOVQ R11, CX
	ANDQ $15, CX
	MOVL $1, BX
	SHLL CX, BX
	DECL BX
	KMOVW BX, K1
	SHRQ $4, R11
	TESTQ R10, R10
	JEQ scdone
scloop:
	MOVQ SI, R12
	MOVQ DI, R13
	MOVQ R11, BX
scfull:
	TESTQ BX, BX
	JEQ sctail
	VMOVUPS (R12), Z0
	VMOVUPS Z0, (R13)
	ADDQ $64, R12
	ADDQ $64, R13
	DECQ BX
	JMP scfull
sctail:
	VMOVUPS.Z (R12), K1, Z0
	VMOVUPS Z0, K1, (R13)
	ADDQ R9, SI
	ADDQ R8, DI
	DECQ R10
	JNZ scloop
scdone:
	VZEROUPPER
	RET

// func sumRows512(acc *float32, x *float32, rows int, stride int, n int)
//
// AVX-512F: acc[c] += sum over r < rows of x[r*stride + c] for c < n (stride in floats), 16
// channels at a time (the last block masked), two accumulators over alternate rows to hide the
// add latency.
TEXT ·sumRows512(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ stride+24(FP), R8
	SHLQ $2, R8
	MOVQ n+32(FP), DX
srblock:
	TESTQ DX, DX
	JLE srdone
	MOVL $0xffff, AX
	CMPQ DX, $16
	JGE srfull
	MOVQ DX, CX
	MOVL $1, AX
	SHLL CX, AX
	DECL AX
srfull:
	KMOVW AX, K1
	VMOVUPS.Z (DI), K1, Z0
	VPXORD Z1, Z1, Z1
	MOVQ SI, R9
	MOVQ rows+16(FP), CX
	SHRQ $1, CX
	JEQ srodd
srpair:
	VADDPS (R9), Z0, K1, Z0
	VADDPS (R9)(R8*1), Z1, K1, Z1
	LEAQ (R9)(R8*2), R9
	DECQ CX
	JNZ srpair
srodd:
	MOVQ rows+16(FP), CX
	ANDQ $1, CX
	JEQ srstore
	VADDPS (R9), Z0, K1, Z0
srstore:
	VADDPS Z1, Z0, K1, Z0
	VMOVUPS Z0, K1, (DI)
	ADDQ $64, DI
	ADDQ $64, SI
	SUBQ $16, DX
	JMP srblock
srdone:
	VZEROUPPER
	RET

// sigmoid8's constants (XNNPACK's f32-vsigmoid avx2_rr1_p5: one-step range reduction, as the
// fused multiply-add makes t = z + n·ln2 exact enough).
DATA sgconst<>+0(SB)/4, $0x7fffffff  // |x| mask
DATA sgconst<>+4(SB)/4, $0x4b40007f  // magic bias 0x1.8000FEp23
DATA sgconst<>+8(SB)/4, $0xbfb8aa3b  // -log2(e)
DATA sgconst<>+12(SB)/4, $0x3f317218 // ln2 (0x1.62E430p-1)
DATA sgconst<>+16(SB)/4, $0xbc07cfce // c5 -0x1.0F9F9Cp-7
DATA sgconst<>+20(SB)/4, $0x3d2b9d0d // c4 0x1.573A1Ap-5
DATA sgconst<>+24(SB)/4, $0xbe2aad40 // c3 -0x1.555A80p-3
DATA sgconst<>+28(SB)/4, $0x3efffee3 // c2 0x1.FFFDC6p-2
DATA sgconst<>+32(SB)/4, $0xbf7ffffb // c1 -0x1.FFFFF6p-1
DATA sgconst<>+36(SB)/4, $0x3f800000 // 1.0
DATA sgconst<>+40(SB)/4, $0x42aeac4f // denormal cutoff 0x1.5D589Ep6
GLOBL sgconst<>(SB), RODATA|NOPTR, $44

// func sigmoid8(dst *float32, src *float32, n int)
//
// dst[i] = 1/(1+exp(-src[i])) for i < n (a multiple of 8): for z = |x|, e = exp(-z) =
// 2^n·(1 + t·p(t)) with n = round(-z·log2 e) (magic bias), t = z + n·ln2 (one FMA),
// f = e/(e+1); f = 0 where z > the denormal cutoff; 1-f where x > 0. NaN stays NaN.
TEXT ·sigmoid8(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS sgconst<>+0(SB), Y15  // abs mask
	VBROADCASTSS sgconst<>+4(SB), Y14  // magic bias
	VBROADCASTSS sgconst<>+8(SB), Y13  // -log2e
	VBROADCASTSS sgconst<>+12(SB), Y12 // ln2
	VBROADCASTSS sgconst<>+16(SB), Y11 // c5
	VBROADCASTSS sgconst<>+20(SB), Y10 // c4
	VBROADCASTSS sgconst<>+24(SB), Y9  // c3
	VBROADCASTSS sgconst<>+28(SB), Y8  // c2
	VBROADCASTSS sgconst<>+32(SB), Y7  // c1
	VBROADCASTSS sgconst<>+36(SB), Y6  // 1.0
	VBROADCASTSS sgconst<>+40(SB), Y5  // cutoff
	VXORPS Y4, Y4, Y4                  // 0
	SHRQ $3, CX
	JEQ sgdone
sgloop:
	VMOVUPS (SI), Y0            // x
	VANDPS Y15, Y0, Y1          // z = |x|
	VMOVAPS Y14, Y2
	VFMADD231PS Y13, Y1, Y2     // n = z*(-log2e) + magic
	VPSLLD $23, Y2, Y3          // s = 2^n
	VSUBPS Y14, Y2, Y2          // n -= magic
	VFMADD231PS Y12, Y2, Y1     // t = n*ln2 + z
	VMOVAPS Y11, Y2
	VFMADD213PS Y10, Y1, Y2     // p = c5*t + c4
	VFMADD213PS Y9, Y1, Y2      // p = p*t + c3
	VFMADD213PS Y8, Y1, Y2      // p = p*t + c2
	VFMADD213PS Y7, Y1, Y2      // p = p*t + c1
	VMULPS Y3, Y1, Y1           // t *= s
	VFMADD213PS Y3, Y1, Y2      // e = t*p + s
	VADDPS Y6, Y2, Y1           // d = e + 1
	VDIVPS Y1, Y2, Y2           // f = e / d
	VANDPS Y15, Y0, Y1          // z again
	VCMPPS $0x1e, Y5, Y1, Y1    // z > cutoff (GT_OQ: false for NaN)
	VANDNPS Y2, Y1, Y2          // f = 0 there
	VSUBPS Y2, Y6, Y3           // 1 - f
	VCMPPS $0x1e, Y4, Y0, Y1    // x > 0
	VBLENDVPS Y1, Y3, Y2, Y2    // x > 0 ? 1-f : f
	VMOVUPS Y2, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ sgloop
sgdone:
	VZEROUPPER
	RET

// gelu8's constants: XNNPACK's f32-vgelu rational_12_10 (erf(x/√2) as an odd degree-11
// polynomial over an even degree-10 one, inputs capped where it reaches ±1), each coefficient
// once; the cap, 1 and 1/2 repeated eight times for memory operands.
DATA geconst<>+0(SB)/4, $0x3f4c4229 // a1 7.9788452387e-01
DATA geconst<>+4(SB)/4, $0x3d8928b5 // a3 6.6972173750e-02
DATA geconst<>+8(SB)/4, $0x3c187a59 // a5 9.3065137044e-03
DATA geconst<>+12(SB)/4, $0x39acdfc4 // a7 3.2973114867e-04
DATA geconst<>+16(SB)/4, $0x37538e9c // a9 1.2609783880e-05
DATA geconst<>+20(SB)/4, $0x3344dc78 // a11 4.5835321316e-08
DATA geconst<>+24(SB)/4, $0x3e804f1b // b2 2.5060352683e-01
DATA geconst<>+28(SB)/4, $0x3ce8ea2e // b4 2.8431978077e-02
DATA geconst<>+32(SB)/4, $0x3af417e4 // b6 1.8622842617e-03
DATA geconst<>+36(SB)/4, $0x38978e67 // b8 7.2267655923e-05
DATA geconst<>+40(SB)/4, $0x35a0e939 // b10 1.1988805682e-06
GLOBL geconst<>(SB), RODATA|NOPTR, $44
DATA gemax<>+0(SB)/4, $0x40a53e15
DATA gemax<>+4(SB)/4, $0x40a53e15
DATA gemax<>+8(SB)/4, $0x40a53e15
DATA gemax<>+12(SB)/4, $0x40a53e15
DATA gemax<>+16(SB)/4, $0x40a53e15
DATA gemax<>+20(SB)/4, $0x40a53e15
DATA gemax<>+24(SB)/4, $0x40a53e15
DATA gemax<>+28(SB)/4, $0x40a53e15
GLOBL gemax<>(SB), RODATA|NOPTR, $32
DATA gemin<>+0(SB)/4, $0xc0a53e15
DATA gemin<>+4(SB)/4, $0xc0a53e15
DATA gemin<>+8(SB)/4, $0xc0a53e15
DATA gemin<>+12(SB)/4, $0xc0a53e15
DATA gemin<>+16(SB)/4, $0xc0a53e15
DATA gemin<>+20(SB)/4, $0xc0a53e15
DATA gemin<>+24(SB)/4, $0xc0a53e15
DATA gemin<>+28(SB)/4, $0xc0a53e15
GLOBL gemin<>(SB), RODATA|NOPTR, $32
DATA geone<>+0(SB)/4, $0x3f800000
DATA geone<>+4(SB)/4, $0x3f800000
DATA geone<>+8(SB)/4, $0x3f800000
DATA geone<>+12(SB)/4, $0x3f800000
DATA geone<>+16(SB)/4, $0x3f800000
DATA geone<>+20(SB)/4, $0x3f800000
DATA geone<>+24(SB)/4, $0x3f800000
DATA geone<>+28(SB)/4, $0x3f800000
GLOBL geone<>(SB), RODATA|NOPTR, $32
DATA gehalf<>+0(SB)/4, $0x3f000000
DATA gehalf<>+4(SB)/4, $0x3f000000
DATA gehalf<>+8(SB)/4, $0x3f000000
DATA gehalf<>+12(SB)/4, $0x3f000000
DATA gehalf<>+16(SB)/4, $0x3f000000
DATA gehalf<>+20(SB)/4, $0x3f000000
DATA gehalf<>+24(SB)/4, $0x3f000000
DATA gehalf<>+28(SB)/4, $0x3f000000
GLOBL gehalf<>(SB), RODATA|NOPTR, $32

// func gelu8(dst *float32, src *float32, n int)
//
// dst[i] = x·(1 + erf(x/√2))/2 for x = src[i], i < n (a multiple of 8), with XNNPACK's rational
// erf: x capped to ±5.1638283730 (the cap of its FMA kernels; a NaN becomes the cap, and the
// product with the original x makes it NaN again), p = x·(a1 + x²·(a3 + …)), q = 1 + x²·(b2 +
// …), erf = p/q, y = (erf + 1)·(1/2)·x.
TEXT ·gelu8(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS geconst<>+0(SB), Y5 // a1
	VBROADCASTSS geconst<>+4(SB), Y6 // a3
	VBROADCASTSS geconst<>+8(SB), Y7 // a5
	VBROADCASTSS geconst<>+12(SB), Y8 // a7
	VBROADCASTSS geconst<>+16(SB), Y9 // a9
	VBROADCASTSS geconst<>+20(SB), Y10 // a11
	VBROADCASTSS geconst<>+24(SB), Y11 // b2
	VBROADCASTSS geconst<>+28(SB), Y12 // b4
	VBROADCASTSS geconst<>+32(SB), Y13 // b6
	VBROADCASTSS geconst<>+36(SB), Y14 // b8
	VBROADCASTSS geconst<>+40(SB), Y15 // b10
	SHRQ $3, CX
	JEQ gedone
geloop:
	VMOVUPS (SI), Y0            // x0
	VMINPS gemax<>(SB), Y0, Y1  // min(x0, cap): the cap for NaN
	VMAXPS gemin<>(SB), Y1, Y1  // x = max(., -cap)
	VMULPS Y1, Y1, Y2           // x2
	VMOVAPS Y10, Y3             // p = a11
	VFMADD213PS Y9, Y2, Y3      // p = p*x2 + a9
	VFMADD213PS Y8, Y2, Y3      // + a7
	VFMADD213PS Y7, Y2, Y3      // + a5
	VFMADD213PS Y6, Y2, Y3      // + a3
	VFMADD213PS Y5, Y2, Y3      // + a1
	VMULPS Y1, Y3, Y3           // p *= x
	VMOVAPS Y15, Y4             // q = b10
	VFMADD213PS Y14, Y2, Y4     // q = q*x2 + b8
	VFMADD213PS Y13, Y2, Y4     // + b6
	VFMADD213PS Y12, Y2, Y4     // + b4
	VFMADD213PS Y11, Y2, Y4     // + b2
	VFMADD213PS geone<>(SB), Y2, Y4 // + 1
	VDIVPS Y4, Y3, Y3           // erf = p/q
	VADDPS geone<>(SB), Y3, Y3  // 1 + erf
	VMULPS gehalf<>(SB), Y3, Y3 // /2
	VMULPS Y0, Y3, Y3           // ·x0
	VMOVUPS Y3, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ geloop
gedone:
	VZEROUPPER
	RET

// expmm8's constants (XNNPACK's f32-raddstoreexpminusmax avx2_rr1_p5).
DATA emconst<>+0(SB)/4, $0x4b40007f  // magic bias 0x1.8000FEp23
DATA emconst<>+4(SB)/4, $0x3fb8aa3b  // log2(e)
DATA emconst<>+8(SB)/4, $0xbf317218  // -ln2
DATA emconst<>+12(SB)/4, $0x3c07cfce // c5 0x1.0F9F9Cp-7
DATA emconst<>+16(SB)/4, $0x3d2b9d0d // c4 0x1.573A1Ap-5
DATA emconst<>+20(SB)/4, $0x3e2aad40 // c3 0x1.555A80p-3
DATA emconst<>+24(SB)/4, $0x3efffee3 // c2 0x1.FFFDC6p-2
DATA emconst<>+28(SB)/4, $0x3f7ffffb // c1 0x1.FFFFF6p-1
DATA emconst<>+32(SB)/4, $0xc2aeac4f // denormal cutoff -0x1.5D589Ep6
GLOBL emconst<>(SB), RODATA|NOPTR, $36

// func expmm8(dst *float32, src *float32, n int, max float32) float32
//
// dst[i] = exp(src[i] - max) for i < n (a multiple of 8) and returns their sum: for
// x = src[i] - max ≤ 0, exp(x) = 2^k·(1 + t·p(t)) with k = round(x·log2 e) (magic bias),
// t = x - k·ln2 (one FMA), p of degree 5; 0 below the denormal cutoff. The eight lanes
// accumulate separately and are added at the end.
TEXT ·expmm8(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS max+24(FP), Y15
	VBROADCASTSS emconst<>+0(SB), Y14  // magic
	VBROADCASTSS emconst<>+4(SB), Y13  // log2e
	VBROADCASTSS emconst<>+8(SB), Y12  // -ln2
	VBROADCASTSS emconst<>+12(SB), Y11 // c5
	VBROADCASTSS emconst<>+16(SB), Y10 // c4
	VBROADCASTSS emconst<>+20(SB), Y9  // c3
	VBROADCASTSS emconst<>+24(SB), Y8  // c2
	VBROADCASTSS emconst<>+28(SB), Y7  // c1
	VBROADCASTSS emconst<>+32(SB), Y6  // cutoff
	VXORPS Y5, Y5, Y5                  // sum
	SHRQ $3, CX
	JEQ emdone
emloop:
	VMOVUPS (SI), Y0
	VSUBPS Y15, Y0, Y0          // x = src - max
	VMOVAPS Y14, Y1
	VFMADD231PS Y13, Y0, Y1     // k = x*log2e + magic
	VPSLLD $23, Y1, Y2          // s = 2^k
	VSUBPS Y14, Y1, Y1          // k -= magic
	VMOVAPS Y0, Y3
	VFMADD231PS Y12, Y1, Y3     // t = k*(-ln2) + x
	VMOVAPS Y11, Y4
	VFMADD213PS Y10, Y3, Y4     // p = c5*t + c4
	VFMADD213PS Y9, Y3, Y4      // p*t + c3
	VFMADD213PS Y8, Y3, Y4      // p*t + c2
	VFMADD213PS Y7, Y3, Y4      // p*t + c1
	VMULPS Y2, Y3, Y3           // t *= s
	VFMADD213PS Y2, Y3, Y4      // f = t*p + s
	VCMPPS $0x11, Y6, Y0, Y1    // x < cutoff (LT_OQ: false for NaN)
	VANDNPS Y4, Y1, Y4          // f = 0 there
	VMOVUPS Y4, (DI)
	VADDPS Y4, Y5, Y5
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ emloop
emdone:
	VEXTRACTF128 $1, Y5, X1
	VADDPS X1, X5, X5
	VHADDPS X5, X5, X5
	VHADDPS X5, X5, X5
	VMOVSS X5, ret+32(FP)
	VZEROUPPER
	RET
