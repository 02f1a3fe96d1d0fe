//go:build amd64 && !purego

#include "textflag.h"

DATA erfk<>+0(SB)/8, $0x7fffffffffffffff  // |x| mask
DATA erfk<>+8(SB)/8, $0x8000000000000000  // sign mask
DATA erfk<>+16(SB)/8, $0x3ff0000000000000 // 1
DATA erfk<>+24(SB)/8, $0x4010000000000000 // 4
DATA erfk<>+32(SB)/8, $0x4020000000000000 // 8
DATA erfk<>+40(SB)/8, $0x4008000000000000 // 3
DATA erfk<>+48(SB)/8, $0x402c000000000000 // 14
DATA erfk<>+56(SB)/8, $0x3fe0000000000000 // 1/2
DATA erfk<>+64(SB)/8, $0x4330000000000000 // 2^52: adding it leaves a small integer in the low bits
GLOBL erfk<>(SB), RODATA|NOPTR, $72

// func erf512(dst *float32, src *float32, n int, tab *float64)
//
// AVX-512F: Erf for n floats (a multiple of 8), eight float64 lanes at a time. tab holds the
// eight coefficients of the 16 polynomials (entry 0: erf(x)/x in 8x²-1 for |x| < 1/2, entries
// 1-14 the pieces of width 1/4 from 1/2 to 4), coefficient-major, kept in Z16-Z31; each lane's
// coefficients are picked by VPERMI2PD on its entry number, so no gathers. Per lane: t = |x|,
// entry e = clamp(floor(4t - 1), 1, 14) (0 where t < 1/2), u = 8t - 3 - 2e (8x² - 1 for entry
// 0), the degree-7 polynomial in Estrin's scheme, times x for entry 0, else with x's sign;
// ±1 where t ≥ 4 and NaN for NaN; rounded to float32.
TEXT ·erf512(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ tab+24(FP), AX
	VMOVUPD 0(AX), Z16
	VMOVUPD 64(AX), Z17
	VMOVUPD 128(AX), Z18
	VMOVUPD 192(AX), Z19
	VMOVUPD 256(AX), Z20
	VMOVUPD 320(AX), Z21
	VMOVUPD 384(AX), Z22
	VMOVUPD 448(AX), Z23
	VMOVUPD 512(AX), Z24
	VMOVUPD 576(AX), Z25
	VMOVUPD 640(AX), Z26
	VMOVUPD 704(AX), Z27
	VMOVUPD 768(AX), Z28
	VMOVUPD 832(AX), Z29
	VMOVUPD 896(AX), Z30
	VMOVUPD 960(AX), Z31
	SHRQ $3, CX
	JEQ erfdone
erfloop:
	VCVTPS2PD (SI), Z0                      // x
	VPANDQ.BCST erfk<>+0(SB), Z0, Z1        // t = |x|
	VMULPD.BCST erfk<>+24(SB), Z1, Z2       // 4t
	VSUBPD.BCST erfk<>+16(SB), Z2, Z2       // 4t - 1
	VRNDSCALEPD $9, Z2, Z2                  // floor
	VMAXPD.BCST erfk<>+16(SB), Z2, Z2       // ≥ 1
	VMINPD.BCST erfk<>+48(SB), Z2, Z2       // ≤ 14
	VCMPPD.BCST $1, erfk<>+56(SB), Z1, K1   // t < 1/2
	VMULPD.BCST erfk<>+32(SB), Z1, Z3       // 8t
	VSUBPD.BCST erfk<>+40(SB), Z3, Z3       // 8t - 3
	VADDPD Z2, Z2, Z4
	VSUBPD Z4, Z3, Z3                       // u = 8t - 3 - 2e
	VMULPD Z0, Z0, Z5
	VMULPD.BCST erfk<>+32(SB), Z5, Z5
	VSUBPD.BCST erfk<>+16(SB), Z5, Z5       // 8x² - 1
	VMOVAPD Z5, K1, Z3
	VPXORQ Z6, Z6, Z6
	VMOVAPD Z6, K1, Z2                      // entry 0 below 1/2
	VADDPD.BCST erfk<>+64(SB), Z2, Z7       // entry numbers as integers
	VMULPD Z3, Z3, Z8                       // u²
	VMULPD Z8, Z8, Z9                       // u⁴
	VMOVAPD Z7, Z10
	VPERMI2PD Z17, Z16, Z10                 // c0
	VMOVAPD Z7, Z11
	VPERMI2PD Z19, Z18, Z11                 // c1
	VFMADD213PD Z10, Z3, Z11                // p01 = c1·u + c0
	VMOVAPD Z7, Z10
	VPERMI2PD Z21, Z20, Z10                 // c2
	VMOVAPD Z7, Z12
	VPERMI2PD Z23, Z22, Z12                 // c3
	VFMADD213PD Z10, Z3, Z12                // p23
	VFMADD213PD Z11, Z8, Z12                // p03 = p23·u² + p01
	VMOVAPD Z7, Z10
	VPERMI2PD Z25, Z24, Z10                 // c4
	VMOVAPD Z7, Z11
	VPERMI2PD Z27, Z26, Z11                 // c5
	VFMADD213PD Z10, Z3, Z11                // p45
	VMOVAPD Z7, Z10
	VPERMI2PD Z29, Z28, Z10                 // c6
	VMOVAPD Z7, Z13
	VPERMI2PD Z31, Z30, Z13                 // c7
	VFMADD213PD Z10, Z3, Z13                // p67
	VFMADD213PD Z11, Z8, Z13                // p47
	VFMADD213PD Z12, Z9, Z13                // q = p47·u⁴ + p03
	VPANDQ.BCST erfk<>+8(SB), Z0, Z4        // x's sign
	VPORQ Z4, Z13, Z14                      // pieces: ±q (q > 0 there)
	VMULPD Z0, Z13, Z5
	VMOVAPD Z5, K1, Z14                     // below 1/2: x·q
	VCMPPD.BCST $5, erfk<>+24(SB), Z1, K2   // !(t < 4): 4 and beyond, or NaN
	VPORQ.BCST erfk<>+16(SB), Z4, Z6        // ±1
	VMOVAPD Z6, K2, Z14
	VCMPPD $3, Z0, Z0, K3                   // NaN
	VMOVAPD Z0, K3, Z14
	VCVTPD2PS Z14, Y14
	VMOVUPS Y14, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ erfloop
erfdone:
	VZEROUPPER
	RET

// erf4<>: erf256's constants, each in four float64 lanes (a ymm memory operand).
DATA erf4<>+0(SB)/8, $0x7fffffffffffffff   // |x| mask
DATA erf4<>+8(SB)/8, $0x7fffffffffffffff
DATA erf4<>+16(SB)/8, $0x7fffffffffffffff
DATA erf4<>+24(SB)/8, $0x7fffffffffffffff
DATA erf4<>+32(SB)/8, $0x8000000000000000  // sign mask
DATA erf4<>+40(SB)/8, $0x8000000000000000
DATA erf4<>+48(SB)/8, $0x8000000000000000
DATA erf4<>+56(SB)/8, $0x8000000000000000
DATA erf4<>+64(SB)/8, $0x3ff0000000000000  // 1
DATA erf4<>+72(SB)/8, $0x3ff0000000000000
DATA erf4<>+80(SB)/8, $0x3ff0000000000000
DATA erf4<>+88(SB)/8, $0x3ff0000000000000
DATA erf4<>+96(SB)/8, $0x4010000000000000  // 4
DATA erf4<>+104(SB)/8, $0x4010000000000000
DATA erf4<>+112(SB)/8, $0x4010000000000000
DATA erf4<>+120(SB)/8, $0x4010000000000000
DATA erf4<>+128(SB)/8, $0x4020000000000000 // 8
DATA erf4<>+136(SB)/8, $0x4020000000000000
DATA erf4<>+144(SB)/8, $0x4020000000000000
DATA erf4<>+152(SB)/8, $0x4020000000000000
DATA erf4<>+160(SB)/8, $0x4008000000000000 // 3
DATA erf4<>+168(SB)/8, $0x4008000000000000
DATA erf4<>+176(SB)/8, $0x4008000000000000
DATA erf4<>+184(SB)/8, $0x4008000000000000
DATA erf4<>+192(SB)/8, $0x402c000000000000 // 14
DATA erf4<>+200(SB)/8, $0x402c000000000000
DATA erf4<>+208(SB)/8, $0x402c000000000000
DATA erf4<>+216(SB)/8, $0x402c000000000000
DATA erf4<>+224(SB)/8, $0x3fe0000000000000 // 1/2
DATA erf4<>+232(SB)/8, $0x3fe0000000000000
DATA erf4<>+240(SB)/8, $0x3fe0000000000000
DATA erf4<>+248(SB)/8, $0x3fe0000000000000
GLOBL erf4<>(SB), RODATA|NOPTR, $256

// func erf256(dst *float32, src *float32, n int, tab *float64)
//
// erf512 for AVX2/FMA3, four float64 lanes at a time, the same operations in the same order (so
// the two give the same floats): the entry number e picks each lane's coefficient from tab with
// VGATHERDPD (AVX2 has no two-table permute), where e is clamped to [1, 14] before it becomes
// an index (a NaN lane's e is 1), so no gather leaves the table. n is a multiple of 4.
TEXT ·erf256(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ tab+24(FP), AX
	SHRQ $2, CX
	JEQ erf4done
erf4loop:
	VCVTPS2PD (SI), Y0                      // x
	VANDPD erf4<>+0(SB), Y0, Y1             // t = |x|
	VMULPD erf4<>+96(SB), Y1, Y2            // 4t
	VSUBPD erf4<>+64(SB), Y2, Y2            // 4t - 1
	VROUNDPD $9, Y2, Y2                     // floor
	VMAXPD erf4<>+64(SB), Y2, Y2            // ≥ 1 (1 for NaN: the second source)
	VMINPD erf4<>+192(SB), Y2, Y2           // ≤ 14
	VCMPPD $1, erf4<>+224(SB), Y1, Y9       // t < 1/2
	VMULPD erf4<>+128(SB), Y1, Y3           // 8t
	VSUBPD erf4<>+160(SB), Y3, Y3           // 8t - 3
	VADDPD Y2, Y2, Y4
	VSUBPD Y4, Y3, Y3                       // u = 8t - 3 - 2e
	VMULPD Y0, Y0, Y5
	VMULPD erf4<>+128(SB), Y5, Y5
	VSUBPD erf4<>+64(SB), Y5, Y5            // 8x² - 1
	VBLENDVPD Y9, Y5, Y3, Y3
	VANDNPD Y2, Y9, Y2                      // entry 0 below 1/2
	VCVTTPD2DQY Y2, X7                      // entry numbers as int32 indices
	VMULPD Y3, Y3, Y8                       // u²
	VMULPD Y8, Y8, Y6                       // u⁴
	VPCMPEQD Y15, Y15, Y15
	VGATHERDPD Y15, 0(AX)(X7*8), Y10        // c0
	VPCMPEQD Y15, Y15, Y15
	VGATHERDPD Y15, 128(AX)(X7*8), Y11      // c1
	VFMADD213PD Y10, Y3, Y11                // p01 = c1·u + c0
	VPCMPEQD Y15, Y15, Y15
	VGATHERDPD Y15, 256(AX)(X7*8), Y10      // c2
	VPCMPEQD Y15, Y15, Y15
	VGATHERDPD Y15, 384(AX)(X7*8), Y12      // c3
	VFMADD213PD Y10, Y3, Y12                // p23
	VFMADD213PD Y11, Y8, Y12                // p03 = p23·u² + p01
	VPCMPEQD Y15, Y15, Y15
	VGATHERDPD Y15, 512(AX)(X7*8), Y10      // c4
	VPCMPEQD Y15, Y15, Y15
	VGATHERDPD Y15, 640(AX)(X7*8), Y11      // c5
	VFMADD213PD Y10, Y3, Y11                // p45
	VPCMPEQD Y15, Y15, Y15
	VGATHERDPD Y15, 768(AX)(X7*8), Y10      // c6
	VPCMPEQD Y15, Y15, Y15
	VGATHERDPD Y15, 896(AX)(X7*8), Y13      // c7
	VFMADD213PD Y10, Y3, Y13                // p67
	VFMADD213PD Y11, Y8, Y13                // p47
	VFMADD213PD Y12, Y6, Y13                // q = p47·u⁴ + p03
	VANDPD erf4<>+32(SB), Y0, Y4            // x's sign
	VORPD Y4, Y13, Y14                      // pieces: ±q (q > 0 there)
	VMULPD Y0, Y13, Y5
	VBLENDVPD Y9, Y5, Y14, Y14              // below 1/2: x·q
	VCMPPD $5, erf4<>+96(SB), Y1, Y5        // !(t < 4): 4 and beyond, or NaN
	VORPD erf4<>+64(SB), Y4, Y10            // ±1
	VBLENDVPD Y5, Y10, Y14, Y14
	VCMPPD $3, Y0, Y0, Y5                   // NaN
	VBLENDVPD Y5, Y0, Y14, Y14
	VCVTPD2PSY Y14, X14
	VMOVUPS X14, (DI)
	ADDQ $16, SI
	ADDQ $16, DI
	DECQ CX
	JNZ erf4loop
erf4done:
	VZEROUPPER
	RET
