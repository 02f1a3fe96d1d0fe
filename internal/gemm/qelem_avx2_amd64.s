//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 int8 elementwise kernels: each takes a whole number of blocks (n a multiple of 32
// codes for the byte-wise ones, of 8 for the rest) and leaves the tail to the Go loops, which
// compute the same values (AVX2 has no masked byte loads or stores). Packing to int8 saturates
// as the AVX-512 kernels' VPMOVSDB; the ranges it packs are within int8.

// func clampA2(d *int8, n int, lo int8, hi int8)
TEXT ·clampA2(SB), NOSPLIT, $0-18
	MOVQ d+0(FP), DI
	MOVQ n+8(FP), CX
	VPBROADCASTB lo+16(FP), Y1
	VPBROADCASTB hi+17(FP), Y2
	SHRQ $5, CX
	JZ cdone
cloop:
	VPMAXSB (DI), Y1, Y0
	VPMINSB Y2, Y0, Y0
	VMOVDQU Y0, (DI)
	ADDQ $32, DI
	DECQ CX
	JNZ cloop
cdone:
	VZEROUPPER
	RET

// func maxA2(d *int8, s *int8, n int)
TEXT ·maxA2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $5, CX
	JZ mdone
mloop:
	VMOVDQU (SI), Y0
	VPMAXSB (DI), Y0, Y0
	VMOVDQU Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ mloop
mdone:
	VZEROUPPER
	RET

// PACK8 packs the 8 int32 of Y0 to 8 int8 in the low quadword of X0, with signed saturation.
#define PACK8 VEXTRACTI128 $1, Y0, X1; VPACKSSDW X1, X0, X0; VPACKSSWB X0, X0, X0

// func qaddA2(dst *int8, a *int8, b *int8, n int, am int32, bm int32, bias int32, shift int32, zp int32, lo int32, hi int32)
//
// dst = clamp((bias + a·am + b·bm) >> shift + zp, lo, hi), in wrapping int32 (shift ≤ 31).
TEXT ·qaddA2(SB), NOSPLIT, $0-60
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSS am+32(FP), Y10 // int32 bits, as the others
	VBROADCASTSS bm+36(FP), Y11
	VBROADCASTSS bias+40(FP), Y12
	MOVL shift+44(FP), AX
	VMOVD AX, X13 // zero-extended: VPSRAD takes the count from the low 64 bits
	VBROADCASTSS zp+48(FP), Y14
	VBROADCASTSS lo+52(FP), Y15
	VBROADCASTSS hi+56(FP), Y9
	SHRQ $3, CX
	JZ adone
aloop:
	VPMOVSXBD (SI), Y0
	VPMOVSXBD (DX), Y2
	VPMULLD Y10, Y0, Y0
	VPMULLD Y11, Y2, Y2
	VPADDD Y2, Y0, Y0
	VPADDD Y12, Y0, Y0
	VPSRAD X13, Y0, Y0
	VPADDD Y14, Y0, Y0
	VPMAXSD Y15, Y0, Y0
	VPMINSD Y9, Y0, Y0
	PACK8
	VMOVQ X0, (DI)
	ADDQ $8, SI
	ADDQ $8, DX
	ADDQ $8, DI
	DECQ CX
	JNZ aloop
adone:
	VZEROUPPER
	RET

// func quantizeA2(dst *int8, src *float32, n int, inv float32, lo float32, hi float32, zp int32, nanv float32)
//
// dst = round(clamp(src·inv, lo, hi)) + zp, a NaN product as nanv.
TEXT ·quantizeA2(SB), NOSPLIT, $0-44
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS inv+24(FP), Y10
	VBROADCASTSS lo+28(FP), Y11
	VBROADCASTSS hi+32(FP), Y12
	VBROADCASTSS zp+36(FP), Y13
	VBROADCASTSS nanv+40(FP), Y14
	SHRQ $3, CX
	JZ qdone
qloop:
	VMULPS (SI), Y10, Y0
	VCMPPS $3, Y0, Y0, Y2
	VBLENDVPS Y2, Y14, Y0, Y0
	VMAXPS Y11, Y0, Y0
	VMINPS Y12, Y0, Y0
	VCVTPS2DQ Y0, Y0
	VPADDD Y13, Y0, Y0
	PACK8
	VMOVQ X0, (DI)
	ADDQ $32, SI
	ADDQ $8, DI
	DECQ CX
	JNZ qloop
qdone:
	VZEROUPPER
	RET

// func dequantizeA2(dst *float32, src *int8, n int, scale float32, zp int32)
TEXT ·dequantizeA2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS scale+24(FP), Y10
	VBROADCASTSS zp+28(FP), Y11
	SHRQ $3, CX
	JZ ddone
dloop:
	VPMOVSXBD (SI), Y0
	VPSUBD Y11, Y0, Y0
	VCVTDQ2PS Y0, Y0
	VMULPS Y10, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $8, SI
	ADDQ $32, DI
	DECQ CX
	JNZ dloop
ddone:
	VZEROUPPER
	RET

// func mulA2(dst *int8, a *int8, b *int8, n int, azp int32, bzp int32, scale float32, lo float32, hi float32, zp int32)
//
// dst = requantized (a - azp)·(b - bzp), as the GEMM's qs8 store.
TEXT ·mulA2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSS azp+32(FP), Y10
	VBROADCASTSS bzp+36(FP), Y11
	VBROADCASTSS scale+40(FP), Y12
	VBROADCASTSS lo+44(FP), Y13
	VBROADCASTSS hi+48(FP), Y14
	VBROADCASTSS zp+52(FP), Y15
	SHRQ $3, CX
	JZ udone
uloop:
	VPMOVSXBD (SI), Y0
	VPMOVSXBD (DX), Y2
	VPSUBD Y10, Y0, Y0
	VPSUBD Y11, Y2, Y2
	VPMULLD Y2, Y0, Y0
	VCVTDQ2PS Y0, Y0
	VMULPS Y12, Y0, Y0
	VMAXPS Y13, Y0, Y0
	VMINPS Y14, Y0, Y0
	VCVTPS2DQ Y0, Y0
	VPADDD Y15, Y0, Y0
	PACK8
	VMOVQ X0, (DI)
	ADDQ $8, SI
	ADDQ $8, DX
	ADDQ $8, DI
	DECQ CX
	JNZ uloop
udone:
	VZEROUPPER
	RET

// func sumRowsA2(sums *int32, x *int8, rows int, c int, ldx int)
//
// sums[ch] += Σ_r x[r·ldx + ch] for the first c channels (a multiple of 8), 8 at a time.
TEXT ·sumRowsA2(SB), NOSPLIT, $0-40
	MOVQ sums+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ c+24(FP), CX
	MOVQ ldx+32(FP), R8
	SHRQ $3, CX
	JZ sdone
schunk:
	VMOVDQU (DI), Y0
	MOVQ SI, DX
	MOVQ rows+16(FP), BX
	TESTQ BX, BX
	JZ sstore
srow:
	VPMOVSXBD (DX), Y1
	VPADDD Y1, Y0, Y0
	ADDQ R8, DX
	DECQ BX
	JNZ srow
sstore:
	VMOVDQU Y0, (DI)
	ADDQ $32, DI
	ADDQ $8, SI
	DECQ CX
	JNZ schunk
sdone:
	VZEROUPPER
	RET

// func qd8FinishA2(out *float32, acc *int32, ksum *int32, n int, zp int32, rscale float32, wscale *float32, bias *float32, lo float32, hi float32)
//
// out = min(hi, max(lo, fma(float(acc - zp·ksum)·rscale, wscale, bias))), the bounds first in
// MINPS and MAXPS so a NaN stays NaN.
TEXT ·qd8FinishA2(SB), NOSPLIT, $0-64
	MOVQ out+0(FP), DI
	MOVQ acc+8(FP), SI
	MOVQ ksum+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSS zp+32(FP), Y10 // the int32 bits
	VBROADCASTSS rscale+36(FP), Y11
	MOVQ wscale+40(FP), R8
	MOVQ bias+48(FP), R9
	VBROADCASTSS lo+56(FP), Y12
	VBROADCASTSS hi+60(FP), Y13
	SHRQ $3, CX
	JZ fdone
floop:
	VPMULLD (DX), Y10, Y1
	VMOVDQU (SI), Y0
	VPSUBD Y1, Y0, Y0
	VCVTDQ2PS Y0, Y0
	VMULPS Y11, Y0, Y0
	VMOVUPS (R8), Y2
	VFMADD213PS (R9), Y2, Y0
	VMAXPS Y0, Y12, Y0
	VMINPS Y0, Y13, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, DI
	DECQ CX
	JNZ floop
fdone:
	VZEROUPPER
	RET

// func rminmaxA2(x *float32, n int) (lo float32, hi float32)
//
// RowMinMax as rowMinMaxGo emulates XNNPACK's AVX-512 kernel, lane for lane: its 16 lanes as
// two ymm halves (Y0/Y1 the first accumulator's min, Y8/Y9 its max; four accumulators over
// blocks of 64 from memory operands, the running value first in MINPS/MAXPS), folded, blocks
// of 16, the tail broadcast, then the reduction by halves, quarters and pairs, so that with a
// NaN in the row the answer is the AVX-512 one too.
TEXT ·rminmaxA2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVL $0x7f800000, AX
	MOVD AX, X0
	VBROADCASTSS X0, Y0
	MOVL $0xff800000, AX
	MOVD AX, X8
	VBROADCASTSS X8, Y8
	VMOVAPS Y0, Y1
	VMOVAPS Y0, Y2
	VMOVAPS Y0, Y3
	VMOVAPS Y0, Y4
	VMOVAPS Y0, Y5
	VMOVAPS Y0, Y6
	VMOVAPS Y0, Y7
	VMOVAPS Y8, Y9
	VMOVAPS Y8, Y10
	VMOVAPS Y8, Y11
	VMOVAPS Y8, Y12
	VMOVAPS Y8, Y13
	VMOVAPS Y8, Y14
	VMOVAPS Y8, Y15
r64:
	CMPQ CX, $64
	JLT rfold
	VMINPS (SI), Y0, Y0
	VMINPS 32(SI), Y1, Y1
	VMINPS 64(SI), Y2, Y2
	VMINPS 96(SI), Y3, Y3
	VMINPS 128(SI), Y4, Y4
	VMINPS 160(SI), Y5, Y5
	VMINPS 192(SI), Y6, Y6
	VMINPS 224(SI), Y7, Y7
	VMAXPS (SI), Y8, Y8
	VMAXPS 32(SI), Y9, Y9
	VMAXPS 64(SI), Y10, Y10
	VMAXPS 96(SI), Y11, Y11
	VMAXPS 128(SI), Y12, Y12
	VMAXPS 160(SI), Y13, Y13
	VMAXPS 192(SI), Y14, Y14
	VMAXPS 224(SI), Y15, Y15
	ADDQ $256, SI
	SUBQ $64, CX
	JMP r64
rfold:
	VMINPS Y2, Y0, Y0
	VMINPS Y3, Y1, Y1
	VMINPS Y6, Y4, Y4
	VMINPS Y7, Y5, Y5
	VMINPS Y4, Y0, Y0
	VMINPS Y5, Y1, Y1
	VMAXPS Y10, Y8, Y8
	VMAXPS Y11, Y9, Y9
	VMAXPS Y14, Y12, Y12
	VMAXPS Y15, Y13, Y13
	VMAXPS Y12, Y8, Y8
	VMAXPS Y13, Y9, Y9
r16:
	CMPQ CX, $16
	JLT rtail
	VMINPS (SI), Y0, Y0
	VMINPS 32(SI), Y1, Y1
	VMAXPS (SI), Y8, Y8
	VMAXPS 32(SI), Y9, Y9
	ADDQ $64, SI
	SUBQ $16, CX
	JMP r16
rtail:
	TESTQ CX, CX
	JZ rreduce
	VBROADCASTSS (SI), Y2
	VMINPS Y2, Y0, Y0
	VMINPS Y2, Y1, Y1
	VMAXPS Y2, Y8, Y8
	VMAXPS Y2, Y9, Y9
	ADDQ $4, SI
	DECQ CX
	JMP rtail
rreduce:
	// op(high 8 lanes, low 8), op(high 4, low 4), op(v, v{2,3,0,1}), op(v, v{1,0,3,2}), lane 0.
	VMINPS Y0, Y1, Y2
	VEXTRACTF128 $1, Y2, X3
	VMINPS X2, X3, X4
	VPERMILPS $0x4E, X4, X5
	VMINPS X5, X4, X6
	VPERMILPS $0xB1, X6, X7
	VMINPS X7, X6, X0
	VMOVSS X0, lo+16(FP)
	VMAXPS Y8, Y9, Y2
	VEXTRACTF128 $1, Y2, X3
	VMAXPS X2, X3, X4
	VPERMILPS $0x4E, X4, X5
	VMAXPS X5, X4, X6
	VPERMILPS $0xB1, X6, X7
	VMAXPS X7, X6, X0
	VMOVSS X0, hi+20(FP)
	VZEROUPPER
	RET

// q8a2sixteen and q8a2signs: 32 bytes of 16 and of 0x80.
DATA q8a2sixteen<>+0(SB)/8, $0x1010101010101010
DATA q8a2sixteen<>+8(SB)/8, $0x1010101010101010
DATA q8a2sixteen<>+16(SB)/8, $0x1010101010101010
DATA q8a2sixteen<>+24(SB)/8, $0x1010101010101010
GLOBL q8a2sixteen<>(SB), RODATA|NOPTR, $32
DATA q8a2signs<>+0(SB)/8, $0x8080808080808080
DATA q8a2signs<>+8(SB)/8, $0x8080808080808080
DATA q8a2signs<>+16(SB)/8, $0x8080808080808080
DATA q8a2signs<>+24(SB)/8, $0x8080808080808080
GLOBL q8a2signs<>(SB), RODATA|NOPTR, $32

// func lutA2(dst *int8, src *int8, n int, t *int8)
//
// dst[i] = t[uint8(src[i])] for n codes (a multiple of 64) with VPSHUFB's 16-entry lookups:
// the table's rows T0..T15 of 16 entries become, on the stack, D0 = T0, Dk = Tk ^ Tk-1 (k < 8)
// and E0 = T8, Ek = T8+k ^ T7+k. For a code u < 128, the index u - 16k has its sign bit clear
// (VPSHUFB then reads entry u & 15) exactly for k ≤ u>>4, so the XOR of the lookups of D0..D7
// telescopes to T(u>>4)[u & 15]; for u ≥ 128 the same on u ^ 0x80 with E0..E7 gives
// T(u>>4)[u & 15]; u's sign bit picks between the two (VPBLENDVB).
TEXT ·lutA2(SB), $512-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ t+24(FP), DX
	VBROADCASTI128 0(DX), Y0
	VMOVDQU Y0, 0(SP)
	VBROADCASTI128 128(DX), Y0
	VMOVDQU Y0, 256(SP)
#define DELTA(k) VBROADCASTI128 (16*(k-1))(DX), Y0; VBROADCASTI128 (16*k)(DX), Y1; VPXOR Y0, Y1, Y1; VMOVDQU Y1, (32*k)(SP); VBROADCASTI128 (128+16*(k-1))(DX), Y0; VBROADCASTI128 (128+16*k)(DX), Y1; VPXOR Y0, Y1, Y1; VMOVDQU Y1, (256+32*k)(SP)
	DELTA(1)
	DELTA(2)
	DELTA(3)
	DELTA(4)
	DELTA(5)
	DELTA(6)
	DELTA(7)
#undef DELTA
	VMOVDQU q8a2sixteen<>(SB), Y14
	VMOVDQU q8a2signs<>(SB), Y13
	SHRQ $6, CX
	JZ ldone
#define STEP(k, base, acc0, acc1) VPSUBB Y14, Y4, Y4; VPSUBB Y14, Y5, Y5; VMOVDQU (base+32*k)(SP), Y15; VPSHUFB Y4, Y15, Y6; VPSHUFB Y5, Y15, Y7; VPXOR Y6, acc0, acc0; VPXOR Y7, acc1, acc1
lloop:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 0(SP), Y15
	VPSHUFB Y0, Y15, Y2
	VPSHUFB Y1, Y15, Y3
	VMOVDQA Y0, Y4
	VMOVDQA Y1, Y5
	STEP(1, 0, Y2, Y3)
	STEP(2, 0, Y2, Y3)
	STEP(3, 0, Y2, Y3)
	STEP(4, 0, Y2, Y3)
	STEP(5, 0, Y2, Y3)
	STEP(6, 0, Y2, Y3)
	STEP(7, 0, Y2, Y3)
	VPXOR Y13, Y0, Y4
	VPXOR Y13, Y1, Y5
	VMOVDQU 256(SP), Y15
	VPSHUFB Y4, Y15, Y8
	VPSHUFB Y5, Y15, Y9
	STEP(1, 256, Y8, Y9)
	STEP(2, 256, Y8, Y9)
	STEP(3, 256, Y8, Y9)
	STEP(4, 256, Y8, Y9)
	STEP(5, 256, Y8, Y9)
	STEP(6, 256, Y8, Y9)
	STEP(7, 256, Y8, Y9)
	VPBLENDVB Y0, Y8, Y2, Y2
	VPBLENDVB Y1, Y9, Y3, Y3
	VMOVDQU Y2, (DI)
	VMOVDQU Y3, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ lloop
#undef STEP
ldone:
	VZEROUPPER
	RET

// q8a2pad3: VPSHUFB's index in each lane, output byte 4i+j from input byte 3i+min(j, 2).
DATA q8a2pad3<>+0(SB)/8, $0x0505040302020100
DATA q8a2pad3<>+8(SB)/8, $0x0b0b0a0908080706
GLOBL q8a2pad3<>(SB), RODATA|NOPTR, $16

// func pad3to4A2(dst *int8, src *int8, pixels int)
//
// Widens pixels of 3 codes to 4 (the fourth undefined) 8 at a time: pixels 0-3 and 4-7 to the
// two lanes (each load reads 16 codes, 4 past the 12 it uses: the caller leaves the last
// pixels to Go), one VPSHUFB.
TEXT ·pad3to4A2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ pixels+16(FP), CX
	VBROADCASTI128 q8a2pad3<>(SB), Y1
	SHRQ $3, CX
	JZ p3done
p3loop:
	VMOVDQU (SI), X0
	VINSERTI128 $1, 12(SI), Y0, Y0
	VPSHUFB Y1, Y0, Y0
	VMOVDQU Y0, (DI)
	ADDQ $24, SI
	ADDQ $32, DI
	DECQ CX
	JNZ p3loop
p3done:
	VZEROUPPER
	RET
