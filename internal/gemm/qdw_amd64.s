//go:build amd64 && !purego

#include "textflag.h"

// func dwq8(x *int8, zrow *int8, offs *int32, npix int, ntaps int, w *int32, bias *int32, scale *float32, out *int8, ldo int, c int, lo float32, hi float32, zp int32)
//
// The int8 depthwise kernel (QDW.Run): for each of npix output pixels, each chunk of 16
// channels: acc = bias + Σ_taps x[tap][c]·w[tap][c] (x[tap] = x + offs[tap], or zrow where the
// offset is negative), sign-extended to int32 and multiplied in int32 as XNNPACK's AVX-512
// "mul32" depthwise kernels do, then requantized as the GEMM's qs8 store. The last chunk's loads
// and store are masked.
TEXT ·dwq8(SB), NOSPLIT, $0-100
	MOVQ x+0(FP), R8
	MOVQ zrow+8(FP), R9
	MOVQ offs+16(FP), R10
	MOVQ npix+24(FP), R11
	MOVQ ntaps+32(FP), R12
	MOVQ out+64(FP), R13
	MOVQ c+80(FP), R15
	LEAQ 15(R15), R14
	ANDQ $-16, R14
	SHLQ $2, R14
	VBROADCASTSS lo+88(FP), Z28
	VBROADCASTSS hi+92(FP), Z29
	MOVL zp+96(FP), AX
	VPBROADCASTD AX, Z30
	TESTQ R11, R11
	JZ done
pixel:
	XORQ CX, CX
chunk:
	MOVQ R15, DX
	SUBQ CX, DX
	MOVL $0xFFFF, AX
	CMPQ DX, $16
	JGE full
	BZHIL DX, AX, AX
full:
	KMOVW AX, K1
	MOVQ bias+48(FP), SI
	VMOVDQU32 (SI)(CX*4), Z0
	MOVQ w+40(FP), DI
	LEAQ (DI)(CX*4), DI
	MOVQ R10, SI
	MOVQ R12, BX
tap:
	MOVLQSX (SI), AX
	LEAQ (R8)(AX*1), DX
	TESTQ AX, AX
	CMOVQLT R9, DX
	VPMOVSXBD.Z (DX)(CX*1), K1, Z1
	VPMULLD (DI), Z1, Z1
	VPADDD Z1, Z0, Z0
	ADDQ $4, SI
	ADDQ R14, DI
	DECQ BX
	JNZ tap
	MOVQ scale+56(FP), SI
	VCVTDQ2PS Z0, Z0
	VMULPS (SI)(CX*4), Z0, Z0
	VMAXPS Z28, Z0, Z0
	VMINPS Z29, Z0, Z0
	VCVTPS2DQ Z0, Z0
	VPADDD Z30, Z0, Z0
	VPMOVSDB Z0, K1, (R13)(CX*1)
	ADDQ $16, CX
	CMPQ CX, R15
	JLT chunk
	LEAQ (R10)(R12*4), R10
	ADDQ ldo+72(FP), R13
	DECQ R11
	JNZ pixel
done:
	VZEROUPPER
	RET
