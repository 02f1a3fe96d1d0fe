//go:build amd64 && !purego

#include "textflag.h"

// emask<>+32-4·n: eight int32 lanes, the first n all ones (VMASKMOVPS takes the sign bit).
DATA emask<>+0(SB)/8, $0xffffffffffffffff
DATA emask<>+8(SB)/8, $0xffffffffffffffff
DATA emask<>+16(SB)/8, $0xffffffffffffffff
DATA emask<>+24(SB)/8, $0xffffffffffffffff
DATA emask<>+32(SB)/8, $0
DATA emask<>+40(SB)/8, $0
DATA emask<>+48(SB)/8, $0
DATA emask<>+56(SB)/8, $0
GLOBL emask<>(SB), RODATA|NOPTR, $64

// func stridedCopy256(dst *float32, dstStride int, src *float32, srcStride int, count int, run int)
//
// stridedCopy512 for AVX2: count runs of run floats, run r from src + r*srcStride to
// dst + r*dstStride (strides in floats): whole ymm moves, then one VMASKMOVPS move for run%8
// (masked-off lanes are neither read nor written, so nothing outside a run is touched).
TEXT ·stridedCopy256(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ dstStride+8(FP), R8
	SHLQ $2, R8
	MOVQ src+16(FP), SI
	MOVQ srcStride+24(FP), R9
	SHLQ $2, R9
	MOVQ count+32(FP), R10
	MOVQ run+40(FP), R11
	MOVQ R11, CX
	ANDQ $7, CX
	SHLQ $2, CX
	LEAQ emask<>+32(SB), BX
	SUBQ CX, BX
	VMOVDQU (BX), Y1
	SHRQ $3, R11
	TESTQ R10, R10
	JEQ sydone
syloop:
	MOVQ SI, R12
	MOVQ DI, R13
	MOVQ R11, BX
syfull:
	TESTQ BX, BX
	JEQ sytail
	VMOVUPS (R12), Y0
	VMOVUPS Y0, (R13)
	ADDQ $32, R12
	ADDQ $32, R13
	DECQ BX
	JMP syfull
sytail:
	TESTQ CX, CX
	JEQ synext
	VMASKMOVPS (R12), Y1, Y0
	VMASKMOVPS Y0, Y1, (R13)
synext:
	ADDQ R9, SI
	ADDQ R8, DI
	DECQ R10
	JNZ syloop
sydone:
	VZEROUPPER
	RET

// func sumRows256(acc *float32, x *float32, rows int, stride int, n int)
//
// sumRows512 for AVX2, in the same order (so both give the same sums): acc[c] += sum over
// r < rows of x[r*stride + c] for c < n (stride in floats), 8 channels at a time (the last block
// masked), two accumulators over alternate rows to hide the add latency.
TEXT ·sumRows256(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ stride+24(FP), R8
	SHLQ $2, R8
	MOVQ n+32(FP), DX
	MOVQ rows+16(FP), R10
	SHRQ $1, R10
	MOVQ rows+16(FP), R11
	ANDQ $1, R11
syblock:
	CMPQ DX, $8
	JLT sypart
	VMOVUPS (DI), Y0
	VXORPS Y1, Y1, Y1
	MOVQ SI, R9
	MOVQ R10, CX
	TESTQ CX, CX
	JEQ syodd
sypair:
	VADDPS (R9), Y0, Y0
	VADDPS (R9)(R8*1), Y1, Y1
	LEAQ (R9)(R8*2), R9
	DECQ CX
	JNZ sypair
syodd:
	TESTQ R11, R11
	JEQ systore
	VADDPS (R9), Y0, Y0
systore:
	VADDPS Y1, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	SUBQ $8, DX
	JMP syblock
sypart:
	TESTQ DX, DX
	JLE sysdone
	SHLQ $2, DX
	LEAQ emask<>+32(SB), BX
	SUBQ DX, BX
	VMOVDQU (BX), Y5
	VMASKMOVPS (DI), Y5, Y0
	VXORPS Y1, Y1, Y1
	MOVQ SI, R9
	MOVQ R10, CX
	TESTQ CX, CX
	JEQ sypodd
syppair:
	VMASKMOVPS (R9), Y5, Y2
	VADDPS Y2, Y0, Y0
	VMASKMOVPS (R9)(R8*1), Y5, Y3
	VADDPS Y3, Y1, Y1
	LEAQ (R9)(R8*2), R9
	DECQ CX
	JNZ syppair
sypodd:
	TESTQ R11, R11
	JEQ sypstore
	VMASKMOVPS (R9), Y5, Y2
	VADDPS Y2, Y0, Y0
sypstore:
	VADDPS Y1, Y0, Y0
	VMASKMOVPS Y0, Y5, (DI)
sysdone:
	VZEROUPPER
	RET
