//go:build amd64 && !purego

#include "textflag.h"

// func dwq8(x *int8, zrow *int8, offs *int32, npix int, ntaps int, w *int32, bias *int32, scale *float32, out *int8, ldo int, c int, lo float32, hi float32, zp int32, ptrs *uintptr)
//
// The int8 depthwise kernel (QDW.Run): for each of npix output pixels, first its taps'
// addresses (x + offs[tap], or zrow where the offset is negative) into ptrs, then for each
// group of 64, 32 or 16 channels: acc = bias + Σ_taps x[tap][c]·w[tap][c], sign-extended to
// int32 and multiplied in int32 as XNNPACK's AVX-512 "mul32" depthwise kernels do, then
// requantized as the GEMM's qs8 store. The last chunk's loads and store are masked.
TEXT ·dwq8(SB), NOSPLIT, $0-112
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
	// The pixel's tap addresses.
	MOVQ ptrs+104(FP), DI
	MOVQ R10, SI
	MOVQ R12, BX
resolve:
	MOVLQSX (SI), AX
	LEAQ (R8)(AX*1), DX
	TESTQ AX, AX
	CMOVQLT R9, DX
	MOVQ DX, (DI)
	ADDQ $4, SI
	ADDQ $8, DI
	DECQ BX
	JNZ resolve
	XORQ CX, CX
wide:
	MOVQ R15, DX
	SUBQ CX, DX
	CMPQ DX, $64
	JLT half
	MOVQ bias+48(FP), SI
	VMOVDQU32 (SI)(CX*4), Z0
	VMOVDQU32 64(SI)(CX*4), Z2
	VMOVDQU32 128(SI)(CX*4), Z4
	VMOVDQU32 192(SI)(CX*4), Z6
	MOVQ w+40(FP), DI
	LEAQ (DI)(CX*4), DI
	MOVQ ptrs+104(FP), SI
	MOVQ R12, BX
wtap:
	MOVQ (SI), DX
	VPMOVSXBD (DX)(CX*1), Z1
	VPMOVSXBD 16(DX)(CX*1), Z3
	VPMOVSXBD 32(DX)(CX*1), Z5
	VPMOVSXBD 48(DX)(CX*1), Z7
	VPMULLD (DI), Z1, Z1
	VPMULLD 64(DI), Z3, Z3
	VPMULLD 128(DI), Z5, Z5
	VPMULLD 192(DI), Z7, Z7
	VPADDD Z1, Z0, Z0
	VPADDD Z3, Z2, Z2
	VPADDD Z5, Z4, Z4
	VPADDD Z7, Z6, Z6
	ADDQ $8, SI
	ADDQ R14, DI
	DECQ BX
	JNZ wtap
	MOVQ scale+56(FP), SI
	VCVTDQ2PS Z0, Z0
	VCVTDQ2PS Z2, Z2
	VCVTDQ2PS Z4, Z4
	VCVTDQ2PS Z6, Z6
	VMULPS (SI)(CX*4), Z0, Z0
	VMULPS 64(SI)(CX*4), Z2, Z2
	VMULPS 128(SI)(CX*4), Z4, Z4
	VMULPS 192(SI)(CX*4), Z6, Z6
	VMAXPS Z28, Z0, Z0
	VMAXPS Z28, Z2, Z2
	VMAXPS Z28, Z4, Z4
	VMAXPS Z28, Z6, Z6
	VMINPS Z29, Z0, Z0
	VMINPS Z29, Z2, Z2
	VMINPS Z29, Z4, Z4
	VMINPS Z29, Z6, Z6
	VCVTPS2DQ Z0, Z0
	VCVTPS2DQ Z2, Z2
	VCVTPS2DQ Z4, Z4
	VCVTPS2DQ Z6, Z6
	VPADDD Z30, Z0, Z0
	VPADDD Z30, Z2, Z2
	VPADDD Z30, Z4, Z4
	VPADDD Z30, Z6, Z6
	VPMOVSDB Z0, (R13)(CX*1)
	VPMOVSDB Z2, 16(R13)(CX*1)
	VPMOVSDB Z4, 32(R13)(CX*1)
	VPMOVSDB Z6, 48(R13)(CX*1)
	ADDQ $64, CX
	JMP wide
half:
	// One group of 32 channels.
	CMPQ DX, $32
	JLT chunkcheck
	MOVQ bias+48(FP), SI
	VMOVDQU32 (SI)(CX*4), Z0
	VMOVDQU32 64(SI)(CX*4), Z2
	MOVQ w+40(FP), DI
	LEAQ (DI)(CX*4), DI
	MOVQ ptrs+104(FP), SI
	MOVQ R12, BX
htap:
	MOVQ (SI), DX
	VPMOVSXBD (DX)(CX*1), Z1
	VPMOVSXBD 16(DX)(CX*1), Z3
	VPMULLD (DI), Z1, Z1
	VPMULLD 64(DI), Z3, Z3
	VPADDD Z1, Z0, Z0
	VPADDD Z3, Z2, Z2
	ADDQ $8, SI
	ADDQ R14, DI
	DECQ BX
	JNZ htap
	MOVQ scale+56(FP), SI
	VCVTDQ2PS Z0, Z0
	VCVTDQ2PS Z2, Z2
	VMULPS (SI)(CX*4), Z0, Z0
	VMULPS 64(SI)(CX*4), Z2, Z2
	VMAXPS Z28, Z0, Z0
	VMAXPS Z28, Z2, Z2
	VMINPS Z29, Z0, Z0
	VMINPS Z29, Z2, Z2
	VCVTPS2DQ Z0, Z0
	VCVTPS2DQ Z2, Z2
	VPADDD Z30, Z0, Z0
	VPADDD Z30, Z2, Z2
	VPMOVSDB Z0, (R13)(CX*1)
	VPMOVSDB Z2, 16(R13)(CX*1)
	ADDQ $32, CX
chunkcheck:
	CMPQ CX, R15
	JGE nextpixel
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
	MOVQ ptrs+104(FP), SI
	MOVQ R12, BX
tap:
	MOVQ (SI), DX
	VPMOVSXBD.Z (DX)(CX*1), K1, Z1
	VPMULLD (DI), Z1, Z1
	VPADDD Z1, Z0, Z0
	ADDQ $8, SI
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
nextpixel:
	LEAQ (R10)(R12*4), R10
	ADDQ ldo+72(FP), R13
	DECQ R11
	JNZ pixel
done:
	VZEROUPPER
	RET
