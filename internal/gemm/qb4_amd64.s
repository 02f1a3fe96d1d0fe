//go:build amd64 && !purego

#include "textflag.h"

// func groupSumsQ8(dst *int32, src *int8, n int)
// dst[g] = Σ (x+128) over the 8 codes of group g, for the 8·n groups of n 64-byte chunks:
// flipped to unsigned (XOR 0x80), VPSADBW against zero (one sum per 8 bytes), narrowed to
// int32.
TEXT ·groupSumsQ8(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVL $0x80808080, AX
	VPBROADCASTD AX, Z1
	VPXORD Z2, Z2, Z2
	TESTQ CX, CX
	JZ done
loop:
	VPXORD (SI), Z1, Z0
	VPSADBW Z2, Z0, Z0
	VPMOVQD Z0, (DI)
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ loop
done:
	VZEROUPPER
	RET

// The dwords of a VPSADBW pair merged by shift and OR (g0 g4 g1 g5 | g2 g6 g3 g7) back in
// group order.
DATA qb4a2SumsPerm<>+0(SB)/4, $0
DATA qb4a2SumsPerm<>+4(SB)/4, $2
DATA qb4a2SumsPerm<>+8(SB)/4, $4
DATA qb4a2SumsPerm<>+12(SB)/4, $6
DATA qb4a2SumsPerm<>+16(SB)/4, $1
DATA qb4a2SumsPerm<>+20(SB)/4, $3
DATA qb4a2SumsPerm<>+24(SB)/4, $5
DATA qb4a2SumsPerm<>+28(SB)/4, $7
GLOBL qb4a2SumsPerm<>(SB), RODATA|NOPTR, $32

// func groupSumsAVX2(dst *int32, src *int8, n int)
// groupSumsQ8 in ymm registers: per 64-byte chunk two VPSADBW (four 8-byte sums each, as
// qwords), the second's sums shifted into the first's high dwords and permuted to group order.
TEXT ·groupSumsAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVL $0x80808080, AX
	MOVD AX, X1
	VPBROADCASTD X1, Y1
	VPXOR Y2, Y2, Y2
	VMOVDQU qb4a2SumsPerm<>(SB), Y4
	TESTQ CX, CX
	JZ done2
loop2:
	VPXOR (SI), Y1, Y0
	VPXOR 32(SI), Y1, Y3
	VPSADBW Y2, Y0, Y0
	VPSADBW Y2, Y3, Y3
	VPSLLQ $32, Y3, Y3
	VPOR Y3, Y0, Y0
	VPERMD Y0, Y4, Y0
	VMOVDQU Y0, (DI)
	ADDQ $64, SI
	ADDQ $32, DI
	DECQ CX
	JNZ loop2
done2:
	VZEROUPPER
	RET
