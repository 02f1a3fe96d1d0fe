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
