//go:build amd64 && !purego

#include "textflag.h"

// func dwq8A2(x *int8, zrow *int8, offs *int32, npix int, ntaps int, w *int32, wstride int, bias *int32, scale *float32, out *int8, ldo int, c int, lo float32, hi float32, zp int32, ptrs *uintptr)
//
// The AVX2 int8 depthwise kernel (QDW.Run), for the first c channels (a multiple of 8; the
// caller does the rest): per pixel its taps' addresses (x + offs[tap], or zrow where the offset
// is negative) into ptrs, then per chunk of 32 or 8 channels acc = bias + Σ_taps
// x[tap][ch]·w[tap][ch] (w's taps wstride bytes apart), codes sign-extended to int32
// (VPMOVSXBD) and multiplied in int32 (VPMULLD) as XNNPACK's avx2 "mul32" depthwise kernels,
// then requantized as the GEMM's qs8 store (fp32 scale, clamp less the zero point, VCVTPS2DQ to
// nearest even, plus the zero point) and packed with signed saturation.
TEXT ·dwq8A2(SB), NOSPLIT, $0-120
	MOVQ x+0(FP), R8
	MOVQ zrow+8(FP), R9
	MOVQ offs+16(FP), R10
	MOVQ npix+24(FP), R11
	MOVQ ntaps+32(FP), R12
	MOVQ w+40(FP), R14
	MOVQ out+72(FP), R13
	MOVQ c+88(FP), R15
	VBROADCASTSS lo+96(FP), Y12
	VBROADCASTSS hi+100(FP), Y13
	VBROADCASTSS zp+104(FP), Y14 // the int32 bits
	TESTQ R11, R11
	JZ done
	TESTQ R15, R15
	JZ done

pixel:
	MOVQ ptrs+112(FP), DI
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
	CMPQ DX, $32
	JLT narrow
	MOVQ bias+56(FP), SI
	VMOVDQU (SI)(CX*4), Y0
	VMOVDQU 32(SI)(CX*4), Y1
	VMOVDQU 64(SI)(CX*4), Y2
	VMOVDQU 96(SI)(CX*4), Y3
	LEAQ (R14)(CX*4), DI
	MOVQ ptrs+112(FP), SI
	MOVQ R12, BX

wtap:
	MOVQ (SI), DX
	VPMOVSXBD (DX)(CX*1), Y4
	VPMOVSXBD 8(DX)(CX*1), Y5
	VPMOVSXBD 16(DX)(CX*1), Y6
	VPMOVSXBD 24(DX)(CX*1), Y7
	VPMULLD (DI), Y4, Y4
	VPMULLD 32(DI), Y5, Y5
	VPMULLD 64(DI), Y6, Y6
	VPMULLD 96(DI), Y7, Y7
	VPADDD Y4, Y0, Y0
	VPADDD Y5, Y1, Y1
	VPADDD Y6, Y2, Y2
	VPADDD Y7, Y3, Y3
	ADDQ $8, SI
	ADDQ wstride+48(FP), DI
	DECQ BX
	JNZ wtap
	MOVQ scale+64(FP), SI
	VCVTDQ2PS Y0, Y0
	VCVTDQ2PS Y1, Y1
	VCVTDQ2PS Y2, Y2
	VCVTDQ2PS Y3, Y3
	VMULPS (SI)(CX*4), Y0, Y0
	VMULPS 32(SI)(CX*4), Y1, Y1
	VMULPS 64(SI)(CX*4), Y2, Y2
	VMULPS 96(SI)(CX*4), Y3, Y3
	VMAXPS Y12, Y0, Y0
	VMAXPS Y12, Y1, Y1
	VMAXPS Y12, Y2, Y2
	VMAXPS Y12, Y3, Y3
	VMINPS Y13, Y0, Y0
	VMINPS Y13, Y1, Y1
	VMINPS Y13, Y2, Y2
	VMINPS Y13, Y3, Y3
	VCVTPS2DQ Y0, Y0
	VCVTPS2DQ Y1, Y1
	VCVTPS2DQ Y2, Y2
	VCVTPS2DQ Y3, Y3
	VPADDD Y14, Y0, Y0
	VPADDD Y14, Y1, Y1
	VPADDD Y14, Y2, Y2
	VPADDD Y14, Y3, Y3
	VPACKSSDW Y1, Y0, Y0 // c0-3 c8-11 | c4-7 c12-15
	VPACKSSDW Y3, Y2, Y2
	VPERMQ $0xD8, Y0, Y0
	VPERMQ $0xD8, Y2, Y2
	VEXTRACTI128 $1, Y0, X1
	VEXTRACTI128 $1, Y2, X3
	VPACKSSWB X1, X0, X0
	VPACKSSWB X3, X2, X2
	VMOVDQU X0, (R13)(CX*1)
	VMOVDQU X2, 16(R13)(CX*1)
	ADDQ $32, CX
	JMP wide

narrow:
	CMPQ CX, R15
	JGE nextpixel
	MOVQ bias+56(FP), SI
	VMOVDQU (SI)(CX*4), Y0
	LEAQ (R14)(CX*4), DI
	MOVQ ptrs+112(FP), SI
	MOVQ R12, BX

ntap:
	MOVQ (SI), DX
	VPMOVSXBD (DX)(CX*1), Y4
	VPMULLD (DI), Y4, Y4
	VPADDD Y4, Y0, Y0
	ADDQ $8, SI
	ADDQ wstride+48(FP), DI
	DECQ BX
	JNZ ntap
	MOVQ scale+64(FP), SI
	VCVTDQ2PS Y0, Y0
	VMULPS (SI)(CX*4), Y0, Y0
	VMAXPS Y12, Y0, Y0
	VMINPS Y13, Y0, Y0
	VCVTPS2DQ Y0, Y0
	VPADDD Y14, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPACKSSDW X1, X0, X0
	VPACKSSWB X0, X0, X0
	VMOVQ X0, (R13)(CX*1)
	ADDQ $8, CX
	JMP narrow

nextpixel:
	LEAQ (R10)(R12*4), R10
	ADDQ ldo+80(FP), R13
	DECQ R11
	JNZ pixel

done:
	VZEROUPPER
	RET
