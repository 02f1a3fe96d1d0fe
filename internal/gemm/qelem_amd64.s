//go:build amd64 && !purego

#include "textflag.h"

// func clampQ8(d *int8, n int, lo int8, hi int8)
//
// d[i] = min(max(d[i], lo), hi) over n codes, 64 at a time (the last block masked).
TEXT ·clampQ8(SB), NOSPLIT, $0-18
	MOVQ d+0(FP), SI
	MOVQ n+8(FP), CX
	MOVBLSX lo+16(FP), AX
	VPBROADCASTB AX, Z1
	MOVBLSX hi+17(FP), AX
	VPBROADCASTB AX, Z2
	TESTQ CX, CX
	JZ cdone
cloop:
	MOVQ $-1, AX
	CMPQ CX, $64
	JGE cfull
	BZHIQ CX, AX, AX
cfull:
	KMOVQ AX, K1
	VMOVDQU8.Z (SI), K1, Z0
	VPMAXSB Z1, Z0, Z0
	VPMINSB Z2, Z0, Z0
	VMOVDQU8 Z0, K1, (SI)
	ADDQ $64, SI
	SUBQ $64, CX
	JG cloop
cdone:
	VZEROUPPER
	RET

// func qaddQ8(dst *int8, a *int8, b *int8, n int, am int32, bm int32, bias int32, shift int32, zp int32, lo int32, hi int32)
//
// dst[i] = clamp((bias + a[i]·am + b[i]·bm) >> shift + zp, lo, hi): XNNPACK's qs8 addition
// (qaddParams), 16 codes at a time in int32.
TEXT ·qaddQ8(SB), NOSPLIT, $0-60
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	MOVL am+32(FP), AX
	VPBROADCASTD AX, Z10
	MOVL bm+36(FP), AX
	VPBROADCASTD AX, Z11
	MOVL bias+40(FP), AX
	VPBROADCASTD AX, Z12
	MOVL shift+44(FP), AX
	VPBROADCASTD AX, Z13
	MOVL zp+48(FP), AX
	VPBROADCASTD AX, Z14
	MOVL lo+52(FP), AX
	VPBROADCASTD AX, Z15
	MOVL hi+56(FP), AX
	VPBROADCASTD AX, Z16
	TESTQ CX, CX
	JZ adone
aloop:
	MOVL $0xFFFF, AX
	CMPQ CX, $16
	JGE afull
	BZHIL CX, AX, AX
afull:
	KMOVW AX, K1
	VPMOVSXBD.Z (SI), K1, Z0
	VPMOVSXBD.Z (DX), K1, Z1
	VPMULLD Z10, Z0, Z0
	VPMULLD Z11, Z1, Z1
	VPADDD Z1, Z0, Z0
	VPADDD Z12, Z0, Z0
	VPSRAVD Z13, Z0, Z0
	VPADDD Z14, Z0, Z0
	VPMAXSD Z15, Z0, Z0
	VPMINSD Z16, Z0, Z0
	VPMOVSDB Z0, K1, (DI)
	ADDQ $16, SI
	ADDQ $16, DX
	ADDQ $16, DI
	SUBQ $16, CX
	JG aloop
adone:
	VZEROUPPER
	RET

// func maxQ8(d *int8, s *int8, n int)
//
// d[i] = max(d[i], s[i]) over n codes, 64 at a time (the last block masked).
TEXT ·maxQ8(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	TESTQ CX, CX
	JZ mdone
mloop:
	MOVQ $-1, AX
	CMPQ CX, $64
	JGE mfull
	BZHIQ CX, AX, AX
mfull:
	KMOVQ AX, K1
	VMOVDQU8.Z (DI), K1, Z0
	VMOVDQU8.Z (SI), K1, Z1
	VPMAXSB Z1, Z0, Z0
	VMOVDQU8 Z0, K1, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $64, CX
	JG mloop
mdone:
	VZEROUPPER
	RET

// func quantizeQ8(dst *int8, src *float32, n int, inv float32, lo float32, hi float32, zp int32, nanv float32)
//
// dst[i] = round(clamp(src[i]·inv, lo, hi)) + zp, a NaN product taken as nanv (0 for the static
// Convert fp32 -> qint8, hi for the dynamic one, whose kernel turns NaN into 127).
TEXT ·quantizeQ8(SB), NOSPLIT, $0-44
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS inv+24(FP), Z10
	VBROADCASTSS lo+28(FP), Z11
	VBROADCASTSS hi+32(FP), Z12
	MOVL zp+36(FP), AX
	VPBROADCASTD AX, Z13
	VBROADCASTSS nanv+40(FP), Z14
	TESTQ CX, CX
	JZ qdone
qloop:
	MOVL $0xFFFF, AX
	CMPQ CX, $16
	JGE qfull
	BZHIL CX, AX, AX
qfull:
	KMOVW AX, K1
	VMOVUPS.Z (SI), K1, Z0
	VMULPS Z10, Z0, Z0
	VCMPPS $3, Z0, Z0, K2
	VMOVAPS Z14, K2, Z0
	VMAXPS Z11, Z0, Z0
	VMINPS Z12, Z0, Z0
	VCVTPS2DQ Z0, Z0
	VPADDD Z13, Z0, Z0
	VPMOVSDB Z0, K1, (DI)
	ADDQ $64, SI
	ADDQ $16, DI
	SUBQ $16, CX
	JG qloop
qdone:
	VZEROUPPER
	RET

// func dequantizeQ8(dst *float32, src *int8, n int, scale float32, zp int32)
//
// dst[i] = float(src[i] - zp)·scale.
TEXT ·dequantizeQ8(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS scale+24(FP), Z10
	MOVL zp+28(FP), AX
	VPBROADCASTD AX, Z13
	TESTQ CX, CX
	JZ ddone
dloop:
	MOVL $0xFFFF, AX
	CMPQ CX, $16
	JGE dfull
	BZHIL CX, AX, AX
dfull:
	KMOVW AX, K1
	VPMOVSXBD.Z (SI), K1, Z0
	VPSUBD Z13, Z0, Z0
	VCVTDQ2PS Z0, Z0
	VMULPS Z10, Z0, Z0
	VMOVUPS Z0, K1, (DI)
	ADDQ $16, SI
	ADDQ $64, DI
	SUBQ $16, CX
	JG dloop
ddone:
	VZEROUPPER
	RET

// func mulQ8(dst *int8, a *int8, b *int8, n int, azp int32, bzp int32, scale float32, lo float32, hi float32, zp int32)
//
// dst[i] = round(clamp(float((a[i]-azp)·(b[i]-bzp))·scale, lo, hi)) + zp: XNNPACK's qs8 product.
TEXT ·mulQ8(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	MOVL azp+32(FP), AX
	VPBROADCASTD AX, Z14
	MOVL bzp+36(FP), AX
	VPBROADCASTD AX, Z15
	VBROADCASTSS scale+40(FP), Z10
	VBROADCASTSS lo+44(FP), Z11
	VBROADCASTSS hi+48(FP), Z12
	MOVL zp+52(FP), AX
	VPBROADCASTD AX, Z13
	TESTQ CX, CX
	JZ mudone
muloop:
	MOVL $0xFFFF, AX
	CMPQ CX, $16
	JGE mufull
	BZHIL CX, AX, AX
mufull:
	KMOVW AX, K1
	VPMOVSXBD.Z (SI), K1, Z0
	VPMOVSXBD.Z (DX), K1, Z1
	VPSUBD Z14, Z0, Z0
	VPSUBD Z15, Z1, Z1
	VPMULLD Z1, Z0, Z0
	VCVTDQ2PS Z0, Z0
	VMULPS Z10, Z0, Z0
	VMAXPS Z11, Z0, Z0
	VMINPS Z12, Z0, Z0
	VCVTPS2DQ Z0, Z0
	VPADDD Z13, Z0, Z0
	VPMOVSDB Z0, K1, (DI)
	ADDQ $16, SI
	ADDQ $16, DX
	ADDQ $16, DI
	SUBQ $16, CX
	JG muloop
mudone:
	VZEROUPPER
	RET

// func sumRowsQ8(sums *int32, x *int8, rows int, c int)
//
// sums[ch] += Σ_r x[r·c + ch] for ch < c: sixteen channels at a time down all rows.
TEXT ·sumRowsQ8(SB), NOSPLIT, $0-32
	MOVQ sums+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ rows+16(FP), R8
	MOVQ c+24(FP), R9
	XORQ CX, CX
	TESTQ R8, R8
	JZ sdone
schunk:
	CMPQ CX, R9
	JGE sdone
	MOVQ R9, DX
	SUBQ CX, DX
	MOVL $0xFFFF, AX
	CMPQ DX, $16
	JGE sfull
	BZHIL DX, AX, AX
sfull:
	KMOVW AX, K1
	VMOVDQU32.Z (DI)(CX*4), K1, Z0
	VPXORD Z2, Z2, Z2
	LEAQ (SI)(CX*1), BX
	MOVQ R8, DX
srow:
	VPMOVSXBD.Z (BX), K1, Z1
	VPADDD Z1, Z0, Z0
	ADDQ R9, BX
	DECQ DX
	JZ sstore
	VPMOVSXBD.Z (BX), K1, Z1
	VPADDD Z1, Z2, Z2
	ADDQ R9, BX
	DECQ DX
	JNZ srow
sstore:
	VPADDD Z2, Z0, Z0
	VMOVDQU32 Z0, K1, (DI)(CX*4)
	ADDQ $16, CX
	JMP schunk
sdone:
	VZEROUPPER
	RET

// func rminmaxF32(x *float32, n int) (lo float32, hi float32)
//
// XNNPACK's f32-rminmax-avx512f-u64-acc4, instruction for instruction (see the portable
// rowMinMaxGo for why the order matters with NaN): four accumulators over blocks of 64, folded,
// blocks of 16, each remaining element broadcast, then GCC's _mm512_reduce_{min,max}_ps.
TEXT ·rminmaxF32(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVL $0x7f800000, AX
	VPBROADCASTD AX, Z0
	VMOVAPS Z0, Z1
	VMOVAPS Z0, Z2
	VMOVAPS Z0, Z3
	MOVL $0xff800000, AX
	VPBROADCASTD AX, Z4
	VMOVAPS Z4, Z5
	VMOVAPS Z4, Z6
	VMOVAPS Z4, Z7
r64:
	CMPQ CX, $64
	JLT rfold
	VMOVUPS (SI), Z8
	VMOVUPS 64(SI), Z9
	VMOVUPS 128(SI), Z10
	VMOVUPS 192(SI), Z11
	VMINPS Z8, Z0, Z0
	VMINPS Z9, Z1, Z1
	VMINPS Z10, Z2, Z2
	VMINPS Z11, Z3, Z3
	VMAXPS Z8, Z4, Z4
	VMAXPS Z9, Z5, Z5
	VMAXPS Z10, Z6, Z6
	VMAXPS Z11, Z7, Z7
	ADDQ $256, SI
	SUBQ $64, CX
	JMP r64
rfold:
	VMINPS Z1, Z0, Z0
	VMINPS Z3, Z2, Z2
	VMINPS Z2, Z0, Z0
	VMAXPS Z5, Z4, Z4
	VMAXPS Z7, Z6, Z6
	VMAXPS Z6, Z4, Z4
r16:
	CMPQ CX, $16
	JLT rtail
	VMOVUPS (SI), Z8
	VMINPS Z8, Z0, Z0
	VMAXPS Z8, Z4, Z4
	ADDQ $64, SI
	SUBQ $16, CX
	JMP r16
rtail:
	TESTQ CX, CX
	JZ rreduce
	VBROADCASTSS (SI), Z8
	VMINPS Z8, Z0, Z0
	VMAXPS Z8, Z4, Z4
	ADDQ $4, SI
	DECQ CX
	JMP rtail
rreduce:
	VEXTRACTF64X4 $1, Z0, Y9
	VMINPS Y0, Y9, Y9
	VEXTRACTF128 $1, Y9, X10
	VMINPS X9, X10, X10
	VPERMILPS $0x4E, X10, X11
	VMINPS X11, X10, X10
	VPERMILPS $0xB1, X10, X11
	VMINPS X11, X10, X10
	MOVSS X10, lo+16(FP)
	VEXTRACTF64X4 $1, Z4, Y9
	VMAXPS Y4, Y9, Y9
	VEXTRACTF128 $1, Y9, X10
	VMAXPS X9, X10, X10
	VPERMILPS $0x4E, X10, X11
	VMAXPS X11, X10, X10
	VPERMILPS $0xB1, X10, X11
	VMAXPS X11, X10, X10
	MOVSS X10, hi+20(FP)
	VZEROUPPER
	RET

// func lut8(dst *int8, src *int8, n int, t *int8)
//
// dst[i] = t[uint8(src[i])], 64 codes at a time: two VPERMI2B lookups in the table's halves
// (7 index bits each), the code's sign bit choosing between them.
TEXT ·lut8(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ t+24(FP), AX
	VMOVDQU8 (AX), Z10
	VMOVDQU8 64(AX), Z11
	VMOVDQU8 128(AX), Z12
	VMOVDQU8 192(AX), Z13
	TESTQ CX, CX
	JZ ldone
lloop:
	MOVQ $-1, AX
	CMPQ CX, $64
	JGE lfull
	BZHIQ CX, AX, AX
lfull:
	KMOVQ AX, K1
	VMOVDQU8.Z (SI), K1, Z0
	VMOVDQA64 Z0, Z1
	VMOVDQA64 Z0, Z2
	VPERMI2B Z11, Z10, Z1
	VPERMI2B Z13, Z12, Z2
	VPMOVB2M Z0, K2
	VMOVDQU8 Z2, K2, Z1
	VMOVDQU8 Z1, K1, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $64, CX
	JG lloop
ldone:
	VZEROUPPER
	RET

// func pad3to4(dst *int8, src *int8, pixels int, perm *int8)
//
// Widens pixels of 3 codes to 4 (dst[4i+j] = src[3i+j] for j < 3; the fourth code undefined),
// 16 pixels per VPERMB; the caller runs the last 16 or fewer pixels in Go.
TEXT ·pad3to4(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ pixels+16(FP), CX
	MOVQ perm+24(FP), AX
	VMOVDQU8 (AX), Z1
	SHRQ $4, CX
	JZ pdone
ploop:
	VMOVDQU8 (SI), Z0
	VPERMB Z0, Z1, Z0
	VMOVDQU8 Z0, (DI)
	ADDQ $48, SI
	ADDQ $64, DI
	DECQ CX
	JNZ ploop
pdone:
	VZEROUPPER
	RET

// func qd8Finish(out *float32, acc *int32, ksum *int32, n int, zp int32, rscale float32, wscale *float32, bias *float32, lo float32, hi float32)
//
// One row of a qd8 × qc8w layer: out[o] = min(hi, max(lo, fma(float(acc[o] - zp·ksum[o])·rscale,
// wscale[o], bias[o]))), the bounds first in MAXPS and MINPS (so NaN stays NaN), as XNNPACK's
// AVX-512 VNNI assembly kernels clamp.
TEXT ·qd8Finish(SB), NOSPLIT, $0-64
	MOVQ out+0(FP), DI
	MOVQ acc+8(FP), SI
	MOVQ ksum+16(FP), DX
	MOVQ n+24(FP), CX
	MOVL zp+32(FP), AX
	VPBROADCASTD AX, Z10
	VBROADCASTSS rscale+36(FP), Z11
	MOVQ wscale+40(FP), R8
	MOVQ bias+48(FP), R9
	VBROADCASTSS lo+56(FP), Z12
	VBROADCASTSS hi+60(FP), Z13
	TESTQ CX, CX
	JZ fdone
floop:
	MOVL $0xFFFF, AX
	CMPQ CX, $16
	JGE ffull
	BZHIL CX, AX, AX
ffull:
	KMOVW AX, K1
	VMOVDQU32.Z (SI), K1, Z0
	VMOVDQU32.Z (DX), K1, Z1
	VPMULLD Z10, Z1, Z1
	VPSUBD Z1, Z0, Z0
	VCVTDQ2PS Z0, Z0
	VMULPS Z11, Z0, Z0
	VMOVUPS.Z (R8), K1, Z2
	VMOVUPS.Z (R9), K1, Z3
	VFMADD213PS Z3, Z2, Z0
	VMAXPS Z0, Z12, Z0
	VMINPS Z0, Z13, Z0
	VMOVUPS Z0, K1, (DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, R8
	ADDQ $64, R9
	ADDQ $64, DI
	SUBQ $16, CX
	JG floop
fdone:
	VZEROUPPER
	RET
