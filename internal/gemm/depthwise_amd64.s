//go:build amd64 && !purego

#include "textflag.h"

// func dwConv512(out *float32, x *float32, zero *float32, offs *int32, npix int, ntaps int, w *float32, wstride int, bias *float32, n int, lo float32, hi float32)
//
// Depthwise convolution through an indirection table (AVX-512F): for each pixel p < npix and
// channel c < n, out[p*n+c] = clamp(bias[c] + sum over t < ntaps of
// in(p,t)[c] * w[t*wstride+c], lo, hi), where in(p,t) = x + offs[p*ntaps+t] floats, or zero when
// that offset is negative (padding). Channels go 64 at a time (four zmm accumulators share each
// tap's address computation), then 16, then the last n%16 under a mask. The clamp keeps a NaN (bound as
// VMAXPS/VMINPS's first source, value as the second, which they return on NaN), as XNNPACK's.
TEXT ·dwConv512(SB), NOSPLIT, $0-88
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), R13
	MOVQ offs+24(FP), SI
	MOVQ ntaps+40(FP), R8
	MOVQ w+48(FP), R9
	MOVQ wstride+56(FP), R10
	SHLQ $2, R10
	MOVQ bias+64(FP), R11
	MOVQ n+72(FP), CX
	SHLQ $2, CX
	VBROADCASTSS lo+80(FP), Z14
	VBROADCASTSS hi+84(FP), Z15
	MOVQ npix+32(FP), AX
	TESTQ AX, AX
	JEQ dzdone
	TESTQ R8, R8
	JEQ dzdone
dzpix:
	XORQ BX, BX
dz64:
	MOVQ CX, AX
	SUBQ BX, AX
	CMPQ AX, $256
	JLT dz16
	VMOVUPS (R11)(BX*1), Z0
	VMOVUPS 64(R11)(BX*1), Z1
	VMOVUPS 128(R11)(BX*1), Z2
	VMOVUPS 192(R11)(BX*1), Z3
	MOVQ SI, R12
	MOVQ R9, AX
	MOVQ R8, DX
dz64t:
	MOVLQSX (R12), R15
	TESTQ R15, R15
	LEAQ (R13)(R15*4), R15
	CMOVQLT zero+16(FP), R15
	VMOVUPS (R15)(BX*1), Z4
	VFMADD231PS (AX)(BX*1), Z4, Z0
	VMOVUPS 64(R15)(BX*1), Z5
	VFMADD231PS 64(AX)(BX*1), Z5, Z1
	VMOVUPS 128(R15)(BX*1), Z6
	VFMADD231PS 128(AX)(BX*1), Z6, Z2
	VMOVUPS 192(R15)(BX*1), Z7
	VFMADD231PS 192(AX)(BX*1), Z7, Z3
	ADDQ $4, R12
	ADDQ R10, AX
	DECQ DX
	JNZ dz64t
	VMAXPS Z0, Z14, Z0
	VMINPS Z0, Z15, Z0
	VMAXPS Z1, Z14, Z1
	VMINPS Z1, Z15, Z1
	VMAXPS Z2, Z14, Z2
	VMINPS Z2, Z15, Z2
	VMAXPS Z3, Z14, Z3
	VMINPS Z3, Z15, Z3
	VMOVUPS Z0, (DI)(BX*1)
	VMOVUPS Z1, 64(DI)(BX*1)
	VMOVUPS Z2, 128(DI)(BX*1)
	VMOVUPS Z3, 192(DI)(BX*1)
	ADDQ $256, BX
	JMP dz64
dz16:
	MOVQ CX, AX
	SUBQ BX, AX
	CMPQ AX, $64
	JLT dz8
	VMOVUPS (R11)(BX*1), Z0
	MOVQ SI, R12
	MOVQ R9, AX
	MOVQ R8, DX
dz16t:
	MOVLQSX (R12), R15
	TESTQ R15, R15
	LEAQ (R13)(R15*4), R15
	CMOVQLT zero+16(FP), R15
	VMOVUPS (R15)(BX*1), Z4
	VFMADD231PS (AX)(BX*1), Z4, Z0
	ADDQ $4, R12
	ADDQ R10, AX
	DECQ DX
	JNZ dz16t
	VMAXPS Z0, Z14, Z0
	VMINPS Z0, Z15, Z0
	VMOVUPS Z0, (DI)(BX*1)
	ADDQ $64, BX
	JMP dz16
dz8:
	// The last n%16 channels under a mask (masked-off lanes are neither read nor written).
	MOVQ CX, AX
	SUBQ BX, AX
	JLE dznext
	SHRQ $2, AX
	MOVQ CX, R14 // (the shift count must be in CX)
	MOVQ AX, CX
	MOVL $1, AX
	SHLL CX, AX
	DECL AX
	KMOVW AX, K1
	MOVQ R14, CX
	VMOVUPS.Z (R11)(BX*1), K1, Z0
	MOVQ SI, R12
	MOVQ R9, AX
	MOVQ R8, DX
dz8t:
	MOVLQSX (R12), R15
	TESTQ R15, R15
	LEAQ (R13)(R15*4), R15
	CMOVQLT zero+16(FP), R15
	VMOVUPS.Z (R15)(BX*1), K1, Z4
	VMOVUPS.Z (AX)(BX*1), K1, Z5
	VFMADD231PS Z5, Z4, Z0
	ADDQ $4, R12
	ADDQ R10, AX
	DECQ DX
	JNZ dz8t
	VMAXPS Z0, Z14, Z0
	VMINPS Z0, Z15, Z0
	VMOVUPS Z0, K1, (DI)(BX*1)
dznext:
	ADDQ CX, DI
	LEAQ (SI)(R8*4), SI
	DECQ npix+32(FP)
	JNZ dzpix
dzdone:
	VZEROUPPER
	RET

// dymask<>+32-4·n: eight int32 lanes, the first n all ones (VMASKMOVPS takes the sign bit).
DATA dymask<>+0(SB)/8, $0xffffffffffffffff
DATA dymask<>+8(SB)/8, $0xffffffffffffffff
DATA dymask<>+16(SB)/8, $0xffffffffffffffff
DATA dymask<>+24(SB)/8, $0xffffffffffffffff
DATA dymask<>+32(SB)/8, $0
DATA dymask<>+40(SB)/8, $0
DATA dymask<>+48(SB)/8, $0
DATA dymask<>+56(SB)/8, $0
GLOBL dymask<>(SB), RODATA|NOPTR, $64

// func dwConv256(out *float32, x *float32, zero *float32, offs *int32, npix int, ntaps int, w *float32, wstride int, bias *float32, n int, lo float32, hi float32)
//
// dwConv512 for AVX2/FMA3 machines: the same loops in ymm, 32 channels at a time (four
// accumulators share each tap's address computation), then 8, then the last n%8 under a
// VMASKMOVPS mask (masked-off lanes are neither read nor written).
TEXT ·dwConv256(SB), NOSPLIT, $0-88
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), R13
	MOVQ offs+24(FP), SI
	MOVQ ntaps+40(FP), R8
	MOVQ w+48(FP), R9
	MOVQ wstride+56(FP), R10
	SHLQ $2, R10
	MOVQ bias+64(FP), R11
	MOVQ n+72(FP), CX
	SHLQ $2, CX
	VBROADCASTSS lo+80(FP), Y14
	VBROADCASTSS hi+84(FP), Y15
	MOVQ npix+32(FP), AX
	TESTQ AX, AX
	JEQ dydone
	TESTQ R8, R8
	JEQ dydone
dypix:
	XORQ BX, BX
dy32:
	MOVQ CX, AX
	SUBQ BX, AX
	CMPQ AX, $128
	JLT dy8
	VMOVUPS (R11)(BX*1), Y0
	VMOVUPS 32(R11)(BX*1), Y1
	VMOVUPS 64(R11)(BX*1), Y2
	VMOVUPS 96(R11)(BX*1), Y3
	MOVQ SI, R12
	MOVQ R9, AX
	MOVQ R8, DX
dy32t:
	MOVLQSX (R12), R15
	TESTQ R15, R15
	LEAQ (R13)(R15*4), R15
	CMOVQLT zero+16(FP), R15
	VMOVUPS (R15)(BX*1), Y4
	VFMADD231PS (AX)(BX*1), Y4, Y0
	VMOVUPS 32(R15)(BX*1), Y5
	VFMADD231PS 32(AX)(BX*1), Y5, Y1
	VMOVUPS 64(R15)(BX*1), Y6
	VFMADD231PS 64(AX)(BX*1), Y6, Y2
	VMOVUPS 96(R15)(BX*1), Y7
	VFMADD231PS 96(AX)(BX*1), Y7, Y3
	ADDQ $4, R12
	ADDQ R10, AX
	DECQ DX
	JNZ dy32t
	VMAXPS Y0, Y14, Y0
	VMINPS Y0, Y15, Y0
	VMAXPS Y1, Y14, Y1
	VMINPS Y1, Y15, Y1
	VMAXPS Y2, Y14, Y2
	VMINPS Y2, Y15, Y2
	VMAXPS Y3, Y14, Y3
	VMINPS Y3, Y15, Y3
	VMOVUPS Y0, (DI)(BX*1)
	VMOVUPS Y1, 32(DI)(BX*1)
	VMOVUPS Y2, 64(DI)(BX*1)
	VMOVUPS Y3, 96(DI)(BX*1)
	ADDQ $128, BX
	JMP dy32
dy8:
	MOVQ CX, AX
	SUBQ BX, AX
	CMPQ AX, $32
	JLT dytail
	VMOVUPS (R11)(BX*1), Y0
	MOVQ SI, R12
	MOVQ R9, AX
	MOVQ R8, DX
dy8t:
	MOVLQSX (R12), R15
	TESTQ R15, R15
	LEAQ (R13)(R15*4), R15
	CMOVQLT zero+16(FP), R15
	VMOVUPS (R15)(BX*1), Y4
	VFMADD231PS (AX)(BX*1), Y4, Y0
	ADDQ $4, R12
	ADDQ R10, AX
	DECQ DX
	JNZ dy8t
	VMAXPS Y0, Y14, Y0
	VMINPS Y0, Y15, Y0
	VMOVUPS Y0, (DI)(BX*1)
	ADDQ $32, BX
	JMP dy8
dytail:
	MOVQ CX, AX
	SUBQ BX, AX
	JLE dynext
	LEAQ dymask<>+32(SB), R14
	SUBQ AX, R14
	VMOVDQU (R14), Y13
	VMASKMOVPS (R11)(BX*1), Y13, Y0
	MOVQ SI, R12
	MOVQ R9, AX
	MOVQ R8, DX
dytailt:
	MOVLQSX (R12), R15
	TESTQ R15, R15
	LEAQ (R13)(R15*4), R15
	CMOVQLT zero+16(FP), R15
	VMASKMOVPS (R15)(BX*1), Y13, Y4
	VMASKMOVPS (AX)(BX*1), Y13, Y5
	VFMADD231PS Y5, Y4, Y0
	ADDQ $4, R12
	ADDQ R10, AX
	DECQ DX
	JNZ dytailt
	VMAXPS Y0, Y14, Y0
	VMINPS Y0, Y15, Y0
	VMASKMOVPS Y0, Y13, (DI)(BX*1)
dynext:
	ADDQ CX, DI
	LEAQ (SI)(R8*4), SI
	DECQ npix+32(FP)
	JNZ dypix
dydone:
	VZEROUPPER
	RET
