//go:build amd64 && !purego

#include "textflag.h"

// sigmoid8's constants (kernel_amd64.s), repeated: DATA symbols are private to their file.
DATA siluconst<>+0(SB)/4, $0x7fffffff  // |x| mask
DATA siluconst<>+4(SB)/4, $0x4b40007f  // magic bias 0x1.8000FEp23
DATA siluconst<>+8(SB)/4, $0xbfb8aa3b  // -log2(e)
DATA siluconst<>+12(SB)/4, $0x3f317218 // ln2 (0x1.62E430p-1)
DATA siluconst<>+16(SB)/4, $0xbc07cfce // c5 -0x1.0F9F9Cp-7
DATA siluconst<>+20(SB)/4, $0x3d2b9d0d // c4 0x1.573A1Ap-5
DATA siluconst<>+24(SB)/4, $0xbe2aad40 // c3 -0x1.555A80p-3
DATA siluconst<>+28(SB)/4, $0x3efffee3 // c2 0x1.FFFDC6p-2
DATA siluconst<>+32(SB)/4, $0xbf7ffffb // c1 -0x1.FFFFF6p-1
DATA siluconst<>+36(SB)/4, $0x3f800000 // 1.0
DATA siluconst<>+40(SB)/4, $0x42aeac4f // denormal cutoff 0x1.5D589Ep6
GLOBL siluconst<>(SB), RODATA|NOPTR, $44

// func silu8(dst *float32, src *float32, n int, sigFirst bool)
//
// dst[i] = x·f for x = src[i], i < n (a multiple of 8), f = sigmoid(x) computed instruction for
// instruction as sigmoid8 does; the product as vmul8's VMULPS, x the first source (f with
// sigFirst), whose NaN the product keeps when both are NaN.
TEXT ·silu8(SB), NOSPLIT, $0-25
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVBLZX sigFirst+24(FP), BX
	VBROADCASTSS siluconst<>+0(SB), Y15  // abs mask
	VBROADCASTSS siluconst<>+4(SB), Y14  // magic bias
	VBROADCASTSS siluconst<>+8(SB), Y13  // -log2e
	VBROADCASTSS siluconst<>+12(SB), Y12 // ln2
	VBROADCASTSS siluconst<>+16(SB), Y11 // c5
	VBROADCASTSS siluconst<>+20(SB), Y10 // c4
	VBROADCASTSS siluconst<>+24(SB), Y9  // c3
	VBROADCASTSS siluconst<>+28(SB), Y8  // c2
	VBROADCASTSS siluconst<>+32(SB), Y7  // c1
	VBROADCASTSS siluconst<>+36(SB), Y6  // 1.0
	VBROADCASTSS siluconst<>+40(SB), Y5  // cutoff
	VXORPS Y4, Y4, Y4                    // 0
	SHRQ $3, CX
	JEQ sidone
siloop:
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
	VBLENDVPS Y1, Y3, Y2, Y2    // f = x > 0 ? 1-f : f
	TESTQ BX, BX
	JNE sisig
	VMULPS Y2, Y0, Y2           // x·f
	JMP sistore
sisig:
	VMULPS Y0, Y2, Y2           // f·x
sistore:
	VMOVUPS Y2, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ siloop
sidone:
	VZEROUPPER
	RET
