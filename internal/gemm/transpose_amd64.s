//go:build amd64 && !purego

#include "textflag.h"

// func transpose8x8(dst *float32, ldd int, src *float32, lds int, rows int, cols int)
//
// AVX2: dst[c*ldd + r] = src[r*lds + c] for r < rows, c < cols, both multiples of 8 (strides in
// floats). Each 8×8 block is eight row loads, unpack lo/hi of row pairs, shuffles of those pairs
// into 4-row groups, and 128-bit lane permutes into eight column stores.
TEXT ·transpose8x8(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ ldd+8(FP), R8
	SHLQ $2, R8
	MOVQ src+16(FP), SI
	MOVQ lds+24(FP), R9
	SHLQ $2, R9
	MOVQ rows+32(FP), R10
	SHRQ $3, R10
	MOVQ cols+40(FP), R11
	SHRQ $3, R11
	TESTQ R10, R10
	JEQ tdone
	TESTQ R11, R11
	JEQ tdone
	LEAQ (R9)(R9*2), R14 // 3*lds
	LEAQ (R8)(R8*2), R15 // 3*ldd
trow:
	MOVQ SI, R12 // the block's source: row block, column block j
	MOVQ DI, R13 // its destination: column block j's 8 rows, this row block's 8 columns
	MOVQ R11, BX
tblock:
	MOVQ R12, AX
	VMOVUPS (AX), Y0
	VMOVUPS (AX)(R9*1), Y1
	VMOVUPS (AX)(R9*2), Y2
	VMOVUPS (AX)(R14*1), Y3
	LEAQ (AX)(R9*4), AX
	VMOVUPS (AX), Y4
	VMOVUPS (AX)(R9*1), Y5
	VMOVUPS (AX)(R9*2), Y6
	VMOVUPS (AX)(R14*1), Y7
	VUNPCKLPS Y1, Y0, Y8
	VUNPCKHPS Y1, Y0, Y9
	VUNPCKLPS Y3, Y2, Y10
	VUNPCKHPS Y3, Y2, Y11
	VUNPCKLPS Y5, Y4, Y12
	VUNPCKHPS Y5, Y4, Y13
	VUNPCKLPS Y7, Y6, Y14
	VUNPCKHPS Y7, Y6, Y15
	VSHUFPS $0x44, Y10, Y8, Y0
	VSHUFPS $0xEE, Y10, Y8, Y1
	VSHUFPS $0x44, Y11, Y9, Y2
	VSHUFPS $0xEE, Y11, Y9, Y3
	VSHUFPS $0x44, Y14, Y12, Y4
	VSHUFPS $0xEE, Y14, Y12, Y5
	VSHUFPS $0x44, Y15, Y13, Y6
	VSHUFPS $0xEE, Y15, Y13, Y7
	VPERM2F128 $0x20, Y4, Y0, Y8
	VPERM2F128 $0x20, Y5, Y1, Y9
	VPERM2F128 $0x20, Y6, Y2, Y10
	VPERM2F128 $0x20, Y7, Y3, Y11
	VPERM2F128 $0x31, Y4, Y0, Y12
	VPERM2F128 $0x31, Y5, Y1, Y13
	VPERM2F128 $0x31, Y6, Y2, Y14
	VPERM2F128 $0x31, Y7, Y3, Y15
	MOVQ R13, AX
	VMOVUPS Y8, (AX)
	VMOVUPS Y9, (AX)(R8*1)
	VMOVUPS Y10, (AX)(R8*2)
	VMOVUPS Y11, (AX)(R15*1)
	LEAQ (AX)(R8*4), AX
	VMOVUPS Y12, (AX)
	VMOVUPS Y13, (AX)(R8*1)
	VMOVUPS Y14, (AX)(R8*2)
	VMOVUPS Y15, (AX)(R15*1)
	ADDQ $32, R12
	LEAQ (R13)(R8*8), R13
	DECQ BX
	JNZ tblock
	LEAQ (SI)(R9*8), SI
	ADDQ $32, DI
	DECQ R10
	JNZ trow
tdone:
	VZEROUPPER
	RET
