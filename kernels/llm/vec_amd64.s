//go:build amd64 && !purego

#include "textflag.h"

// func dotRowsAVX2(q *float32, k *float32, stride int, n int, d int, out *float32)
// out[c] = dot(q[:d], k[c*stride:][:d]) for c < n: four 8-lane FMA accumulators over 32 floats a
// step, then 8 at a time, the lanes summed pairwise, then the last floats one at a time. One
// call covers a decode step's scores against every cached key of a head (n = 1 is dot).
TEXT ·dotRowsAVX2(SB), NOSPLIT, $0-48
	MOVQ q+0(FP), R8
	MOVQ k+8(FP), R9
	MOVQ stride+16(FP), R10
	SHLQ $2, R10
	MOVQ n+24(FP), R11
	MOVQ d+32(FP), R12
	MOVQ out+40(FP), R13

rowsloop:
	TESTQ R11, R11
	JE    rowsdone
	MOVQ R8, SI
	MOVQ R9, DI
	MOVQ R12, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

rdot32:
	CMPQ CX, $32
	JL   rdot8
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JMP  rdot32

rdot8:
	CMPQ CX, $8
	JL   rdotsum
	VMOVUPS (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  rdot8

rdotsum:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0

rdot1:
	TESTQ CX, CX
	JE    rdotdone
	VMOVSS (SI), X4
	VFMADD231SS (DI), X4, X0
	ADDQ $4, SI
	ADDQ $4, DI
	DECQ CX
	JMP  rdot1

rdotdone:
	VMOVSS X0, (R13)
	ADDQ $4, R13
	ADDQ R10, R9
	DECQ R11
	JMP  rowsloop

rowsdone:
	VZEROUPPER
	RET

// func axpyRowsAVX2(dst *float32, v *float32, stride int, p *float32, n int, d int)
// dst[:d] += p[c]·v[c*stride:][:d] for c = 0..n-1 in order, one fused multiply-add per element
// and row (so the bits of n single-row calls), with 32 columns of dst kept in registers across
// all n rows (n = 1 is axpy).
TEXT ·axpyRowsAVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ v+8(FP), R9
	MOVQ stride+16(FP), R10
	SHLQ $2, R10
	MOVQ p+24(FP), R8
	MOVQ n+32(FP), R11
	MOVQ d+40(FP), CX
	TESTQ R11, R11
	JE    axrdone

axr32:
	CMPQ CX, $32
	JL   axr8
	VMOVUPS (DI), Y1
	VMOVUPS 32(DI), Y2
	VMOVUPS 64(DI), Y3
	VMOVUPS 96(DI), Y4
	MOVQ R9, SI
	MOVQ R8, DX
	MOVQ R11, BX

axr32row:
	VBROADCASTSS (DX), Y0
	VFMADD231PS (SI), Y0, Y1
	VFMADD231PS 32(SI), Y0, Y2
	VFMADD231PS 64(SI), Y0, Y3
	VFMADD231PS 96(SI), Y0, Y4
	ADDQ $4, DX
	ADDQ R10, SI
	DECQ BX
	JNZ  axr32row
	VMOVUPS Y1, (DI)
	VMOVUPS Y2, 32(DI)
	VMOVUPS Y3, 64(DI)
	VMOVUPS Y4, 96(DI)
	ADDQ $128, DI
	ADDQ $128, R9
	SUBQ $32, CX
	JMP  axr32

axr8:
	CMPQ CX, $8
	JL   axr1
	VMOVUPS (DI), Y1
	MOVQ R9, SI
	MOVQ R8, DX
	MOVQ R11, BX

axr8row:
	VBROADCASTSS (DX), Y0
	VFMADD231PS (SI), Y0, Y1
	ADDQ $4, DX
	ADDQ R10, SI
	DECQ BX
	JNZ  axr8row
	VMOVUPS Y1, (DI)
	ADDQ $32, DI
	ADDQ $32, R9
	SUBQ $8, CX
	JMP  axr8

axr1:
	TESTQ CX, CX
	JE    axrdone
	VMOVSS (DI), X1
	MOVQ R9, SI
	MOVQ R8, DX
	MOVQ R11, BX

axr1row:
	VMOVSS (DX), X0
	VFMADD231SS (SI), X0, X1
	ADDQ $4, DX
	ADDQ R10, SI
	DECQ BX
	JNZ  axr1row
	VMOVSS X1, (DI)
	ADDQ $4, DI
	ADDQ $4, R9
	DECQ CX
	JMP  axr1

axrdone:
	VZEROUPPER
	RET
