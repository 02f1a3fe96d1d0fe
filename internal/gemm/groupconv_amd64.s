//go:build amd64 && !purego

#include "textflag.h"

// func igemm8x8(dst *float32, ld int, x *float32, zero *float32, offs *int64, nt int, gin int, w *float32, lo float32, hi float32)
//
// AVX2 grouped-convolution block, XNNPACK's IGEMM shape: dst[r*ld + j] = clamp(w[j] + Σ_t Σ_i
// in(r,t)[i]·w[(1 + t*gin + i)*8 + j], lo, hi) for 8 pixels r and 8 channels j, where in(r,t) =
// x + offs[t*8 + r] bytes, or zero where that offset is negative. Eight accumulators start from
// the bias row; per tap the eight row pointers are picked (CMOV), then per input channel one
// weight row is loaded and each pixel's value broadcast into its fused multiply-add.
TEXT ·igemm8x8(SB), NOSPLIT, $0-72
	MOVQ x+16(FP), AX
	MOVQ zero+24(FP), BX
	MOVQ offs+32(FP), DI
	MOVQ nt+40(FP), DX
	MOVQ w+56(FP), SI
	VMOVUPS (SI), Y0
	VMOVAPS Y0, Y1
	VMOVAPS Y0, Y2
	VMOVAPS Y0, Y3
	VMOVAPS Y0, Y4
	VMOVAPS Y0, Y5
	VMOVAPS Y0, Y6
	VMOVAPS Y0, Y7
	ADDQ $32, SI
	TESTQ DX, DX
	JEQ gstore
gtap:
	MOVQ 0(DI), R8
	TESTQ R8, R8
	LEAQ (AX)(R8*1), R8
	CMOVQLT BX, R8
	MOVQ 8(DI), R9
	TESTQ R9, R9
	LEAQ (AX)(R9*1), R9
	CMOVQLT BX, R9
	MOVQ 16(DI), R10
	TESTQ R10, R10
	LEAQ (AX)(R10*1), R10
	CMOVQLT BX, R10
	MOVQ 24(DI), R11
	TESTQ R11, R11
	LEAQ (AX)(R11*1), R11
	CMOVQLT BX, R11
	MOVQ 32(DI), R12
	TESTQ R12, R12
	LEAQ (AX)(R12*1), R12
	CMOVQLT BX, R12
	MOVQ 40(DI), R13
	TESTQ R13, R13
	LEAQ (AX)(R13*1), R13
	CMOVQLT BX, R13
	MOVQ 48(DI), R14
	TESTQ R14, R14
	LEAQ (AX)(R14*1), R14
	CMOVQLT BX, R14
	MOVQ 56(DI), R15
	TESTQ R15, R15
	LEAQ (AX)(R15*1), R15
	CMOVQLT BX, R15
	XORQ CX, CX
gk:
	VMOVUPS (SI), Y8
	VBROADCASTSS (R8)(CX*4), Y9
	VFMADD231PS Y8, Y9, Y0
	VBROADCASTSS (R9)(CX*4), Y10
	VFMADD231PS Y8, Y10, Y1
	VBROADCASTSS (R10)(CX*4), Y11
	VFMADD231PS Y8, Y11, Y2
	VBROADCASTSS (R11)(CX*4), Y12
	VFMADD231PS Y8, Y12, Y3
	VBROADCASTSS (R12)(CX*4), Y13
	VFMADD231PS Y8, Y13, Y4
	VBROADCASTSS (R13)(CX*4), Y14
	VFMADD231PS Y8, Y14, Y5
	VBROADCASTSS (R14)(CX*4), Y15
	VFMADD231PS Y8, Y15, Y6
	VBROADCASTSS (R15)(CX*4), Y9
	VFMADD231PS Y8, Y9, Y7
	ADDQ $32, SI
	INCQ CX
	CMPQ CX, gin+48(FP)
	JLT gk
	ADDQ $64, DI
	DECQ DX
	JNZ gtap
gstore:
	VBROADCASTSS lo+64(FP), Y14
	VBROADCASTSS hi+68(FP), Y15
	MOVQ dst+0(FP), DI
	MOVQ ld+8(FP), R8
	SHLQ $2, R8
	VMAXPS Y0, Y14, Y0
	VMINPS Y0, Y15, Y0
	VMOVUPS Y0, (DI)
	ADDQ R8, DI
	VMAXPS Y1, Y14, Y1
	VMINPS Y1, Y15, Y1
	VMOVUPS Y1, (DI)
	ADDQ R8, DI
	VMAXPS Y2, Y14, Y2
	VMINPS Y2, Y15, Y2
	VMOVUPS Y2, (DI)
	ADDQ R8, DI
	VMAXPS Y3, Y14, Y3
	VMINPS Y3, Y15, Y3
	VMOVUPS Y3, (DI)
	ADDQ R8, DI
	VMAXPS Y4, Y14, Y4
	VMINPS Y4, Y15, Y4
	VMOVUPS Y4, (DI)
	ADDQ R8, DI
	VMAXPS Y5, Y14, Y5
	VMINPS Y5, Y15, Y5
	VMOVUPS Y5, (DI)
	ADDQ R8, DI
	VMAXPS Y6, Y14, Y6
	VMINPS Y6, Y15, Y6
	VMOVUPS Y6, (DI)
	ADDQ R8, DI
	VMAXPS Y7, Y14, Y7
	VMINPS Y7, Y15, Y7
	VMOVUPS Y7, (DI)
	VZEROUPPER
	RET
