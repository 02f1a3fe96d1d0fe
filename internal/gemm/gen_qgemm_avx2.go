//go:build ignore

// gen_qgemm_avx2 writes qgemm_avx2_amd64.s and qgemm_avx2_decl_amd64.go: the AVX2 int8 GEMM
// kernels (static qs8, int32 sums for the dynamic layers, and the indirect convolution) for 1
// to 3 rows of A and one panel of 16 output channels, on QPacked's layout unchanged (the layout
// is the VNNI kernels'; packed filters do not depend on the ISA).
//
// XNNPACK's avx2 "madd" design: a group's 64 weight bytes are four 16-byte quarters (4 channels
// × 4 input channels each), each sign-extended to 16 int16 (VPMOVSXBW) once per tile and shared
// by its rows; a row's 4 codes are broadcast and sign-extended to [x0..x3]×4; VPMADDWD multiplies
// them pairwise into 8 int32 (two partial sums per channel), exact (|x·w| ≤ 2^14, a pair ≤ 2^15),
// and VPADDD adds them to one of the row's 4 accumulators. VPMADDUBSW would need one fewer
// widening but saturates its int16 pairs, so it is not used. At the end two VPHADDD and a
// VPERMQ per 8 channels fold the partials to the 16 channels in order.
//
// The codes are multiplied signed, so the sums are Σ x·w; the bias the tile adds is the
// QS8's (which has (x_zp+128)·Σw folded out, for the VNNI kernels' x+128) plus 128·Σw (ksum
// shifted by 7): Σ x·w + bias - (x_zp+128)·Σw + 128·Σw, the same int32 as the Go loops' in
// wrapping arithmetic. qs8 then requantizes as XNNPACK's fp32 requantization (float(acc)·scale,
// clamped less the zero point, VCVTPS2DQ to nearest even, plus the zero point), packs with
// signed saturation and stores 16 codes, or the last panel's n by pieces of 8, 4, 2 and 1 (AVX2
// has no byte-masked store); acc stores the int32 sums, the last panel's with VPMASKMOVD.
//
// Registers: 4·rows accumulators from Y0, a quarter's weights in Y12, the product in Y13, rows
// 0 and 1's broadcast codes in Y14 and Y15; a third row's are kept on the stack and read as
// VPMADDWD's memory operand (16 ymm registers hold no more).
//
//	go generate ./internal/gemm
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"strings"
)

const maxRows = 3

type arg struct{ name, typ string }

// frame lays out ABI0 arguments: each at its size's alignment.
func frame(args []arg) (map[string]int, int, string) {
	off := map[string]int{}
	o := 0
	var sig []string
	for _, a := range args {
		sz := 8
		if a.typ == "float32" || a.typ == "int32" {
			sz = 4
		}
		o = (o + sz - 1) &^ (sz - 1)
		off[a.name] = o
		o += sz
		sig = append(sig, a.name+" "+a.typ)
	}
	return off, (o + 7) &^ 7, strings.Join(sig, ", ")
}

type gen struct {
	b, d bytes.Buffer
}

func (g *gen) w(format string, args ...any) { fmt.Fprintf(&g.b, format+"\n", args...) }

func (g *gen) fn(name string, args []arg, locals int) map[string]int {
	off, size, sig := frame(args)
	g.w("\n// func %s(%s)", name, sig)
	g.w("TEXT ·%s(SB), NOSPLIT, $%d-%d", name, locals, size)
	fmt.Fprintf(&g.d, "\n//go:noescape\nfunc %s(%s)\n", name, sig)
	return off
}

var rowReg = []string{"R9", "R10", "R11"}

// acc is row i's accumulator of quarter q.
func acc(i, q int) string { return fmt.Sprintf("Y%d", 4*i+q) }

// groups emits the loop over DX groups of 4 input channels: rows' codes at rowReg[i] + CX, the
// panel's weights at DI (advanced 64 bytes a group).
func (g *gen) groups(name string, r int) {
	g.w("%s_loop:", name)
	for i := 0; i < r; i++ {
		x := []string{"Y14", "Y15", "Y13"}[i]
		xx := "X" + x[1:]
		g.w("\tVPBROADCASTD (%s)(CX*1), %s", rowReg[i], xx)
		g.w("\tVPMOVSXBW %s, %s", xx, x)
		if i == 2 {
			g.w("\tVMOVDQU Y13, x2-32(SP)")
		}
	}
	for q := 0; q < 4; q++ {
		g.w("\tVPMOVSXBW %d(DI), Y12", 16*q)
		for i := 0; i < r; i++ {
			src := []string{"Y14", "Y15", "x2-32(SP)"}[i]
			g.w("\tVPMADDWD %s, Y12, Y13", src)
			g.w("\tVPADDD Y13, %s, %s", acc(i, q), acc(i, q))
		}
	}
	g.w("\tADDQ $64, DI")
	g.w("\tADDQ $4, CX")
	g.w("\tDECQ DX")
	g.w("\tJNZ %s_loop", name)
}

// zero clears the accumulators.
func (g *gen) zero(r int) {
	for i := 0; i < r; i++ {
		for q := 0; q < 4; q++ {
			g.w("\tVPXOR %s, %s, %s", acc(i, q), acc(i, q), acc(i, q))
		}
	}
}

// fold turns each row's 4 partial accumulators into its channels 0-7 in acc(i, 0) and 8-15 in
// acc(i, 2), plus bias + ksum<<7 (in Y12, Y13 after).
func (g *gen) fold(r int, off map[string]int) {
	for i := 0; i < r; i++ {
		g.w("\tVPHADDD %s, %s, %s", acc(i, 1), acc(i, 0), acc(i, 0)) // c0 c1 c4 c5 | c2 c3 c6 c7
		g.w("\tVPHADDD %s, %s, %s", acc(i, 3), acc(i, 2), acc(i, 2)) // c8 c9 c12 c13 | c10 c11 c14 c15
		g.w("\tVPERMQ $0xD8, %s, %s", acc(i, 0), acc(i, 0))
		g.w("\tVPERMQ $0xD8, %s, %s", acc(i, 2), acc(i, 2))
	}
	g.w("\tMOVQ ksum+%d(FP), AX", off["ksum"])
	g.w("\tMOVQ bias+%d(FP), BX", off["bias"])
	g.w("\tVMOVDQU (AX)(R15*1), Y12")
	g.w("\tVMOVDQU 32(AX)(R15*1), Y13")
	g.w("\tVPSLLD $7, Y12, Y12")
	g.w("\tVPSLLD $7, Y13, Y13")
	g.w("\tVPADDD (BX)(R15*1), Y12, Y12")
	g.w("\tVPADDD 32(BX)(R15*1), Y13, Y13")
	for i := 0; i < r; i++ {
		g.w("\tVPADDD Y12, %s, %s", acc(i, 0), acc(i, 0))
		g.w("\tVPADDD Y13, %s, %s", acc(i, 2), acc(i, 2))
	}
}

// qs8Store requantizes the folded rows and stores them (c, ldc, scale, lo, hi, zp, n args).
func (g *gen) qs8Store(name string, r int, off map[string]int) {
	g.w("\tMOVQ scale+%d(FP), BX", off["scale"])
	g.w("\tLEAQ (BX)(R15*1), BX")
	g.w("\tVBROADCASTSS lo+%d(FP), Y14", off["lo"])
	g.w("\tVBROADCASTSS hi+%d(FP), Y15", off["hi"])
	g.w("\tVBROADCASTSS zp+%d(FP), Y1", off["zp"]) // the int32 bits
	for i := 0; i < r; i++ {
		for h := 0; h < 2; h++ {
			z := acc(i, 2*h)
			g.w("\tVCVTDQ2PS %s, %s", z, z)
			g.w("\tVMULPS %d(BX), %s, %s", 32*h, z, z)
			g.w("\tVMAXPS Y14, %s, %s", z, z)
			g.w("\tVMINPS Y15, %s, %s", z, z)
			g.w("\tVCVTPS2DQ %s, %s", z, z)
			g.w("\tVPADDD Y1, %s, %s", z, z)
		}
		lo, hi := acc(i, 0), acc(i, 2)
		g.w("\tVPACKSSDW %s, %s, %s", hi, lo, lo) // c0-3 c8-11 | c4-7 c12-15
		g.w("\tVPERMQ $0xD8, %s, %s", lo, lo)
		g.w("\tVEXTRACTI128 $1, %s, X%s", lo, hi[1:])
		g.w("\tVPACKSSWB X%s, X%s, X%s", hi[1:], lo[1:], lo[1:])
	}
	g.w("\tMOVQ R14, R9")
	g.w("\tMOVQ ldc+%d(FP), AX", off["ldc"])
	g.lastN(off)
	g.w("\tCMPQ SI, $16")
	g.w("\tJNE %s_tail", name)
	for i := 0; i < r; i++ {
		g.w("\tVMOVDQU X%s, (R9)", acc(i, 0)[1:])
		if i < r-1 {
			g.w("\tADDQ AX, R9")
		}
	}
	g.w("\tJMP %s_next", name)
	g.w("%s_tail:", name)
	for i := 0; i < r; i++ {
		x := "X" + acc(i, 0)[1:]
		l := fmt.Sprintf("%s_t%d", name, i)
		g.w("\tMOVQ R9, R12")
		g.w("\tTESTQ $8, SI")
		g.w("\tJZ %s_4", l)
		g.w("\tVMOVQ %s, (R12)", x)
		g.w("\tVPSRLDQ $8, %s, %s", x, x)
		g.w("\tADDQ $8, R12")
		g.w("%s_4:", l)
		g.w("\tTESTQ $4, SI")
		g.w("\tJZ %s_2", l)
		g.w("\tVMOVD %s, (R12)", x)
		g.w("\tVPSRLDQ $4, %s, %s", x, x)
		g.w("\tADDQ $4, R12")
		g.w("%s_2:", l)
		g.w("\tVMOVD %s, DX", x)
		g.w("\tTESTQ $2, SI")
		g.w("\tJZ %s_1", l)
		g.w("\tMOVW DX, (R12)")
		g.w("\tSHRL $16, DX")
		g.w("\tADDQ $2, R12")
		g.w("%s_1:", l)
		g.w("\tTESTQ $1, SI")
		g.w("\tJZ %s_done", l)
		g.w("\tMOVB DX, (R12)")
		g.w("%s_done:", l)
		if i < r-1 {
			g.w("\tADDQ AX, R9")
		}
	}
	g.w("\tJMP %s_next", name)
}

// accStore stores the folded rows' int32 sums (c, ldc, n args).
func (g *gen) accStore(name string, r int, off map[string]int) {
	g.w("\tMOVQ R14, R9")
	g.w("\tMOVQ ldc+%d(FP), AX", off["ldc"])
	g.w("\tSHLQ $2, AX")
	g.lastN(off)
	g.w("\tCMPQ SI, $16")
	g.w("\tJNE %s_tail", name)
	for i := 0; i < r; i++ {
		g.w("\tVMOVDQU %s, (R9)", acc(i, 0))
		g.w("\tVMOVDQU %s, 32(R9)", acc(i, 2))
		if i < r-1 {
			g.w("\tADDQ AX, R9")
		}
	}
	g.w("\tJMP %s_next", name)
	g.w("%s_tail:", name)
	// Lane l of the masks is on where l < n: the table is 16 ones then 16 zeros, read from 16-n.
	g.w("\tLEAQ q8a2mask<>(SB), DX")
	g.w("\tSHLQ $2, SI")
	g.w("\tSUBQ SI, DX")
	g.w("\tVMOVDQU 64(DX), Y14")
	g.w("\tVMOVDQU 96(DX), Y15")
	for i := 0; i < r; i++ {
		g.w("\tVPMASKMOVD %s, Y14, (R9)", acc(i, 0))
		g.w("\tVPMASKMOVD %s, Y15, 32(R9)", acc(i, 2))
		if i < r-1 {
			g.w("\tADDQ AX, R9")
		}
	}
	g.w("\tJMP %s_next", name)
}

// lastN sets SI to the channels the current panel stores: 16, or n in the last (R13 = 1).
func (g *gen) lastN(off map[string]int) {
	g.w("\tMOVQ $16, SI")
	g.w("\tCMPQ R13, $1")
	g.w("\tCMOVQEQ n+%d(FP), SI", off["n"])
}

// panels emits the loop over v panels around body (one panel's tile, which jumps to
// name_next when stored): R8 the panel's weights, R14 its outputs (cstep bytes a panel), R15
// the byte offset of its bias, ksum and scale, R13 the panels left.
func (g *gen) panels(name string, off map[string]int, cstep int, body func()) {
	g.w("\tMOVQ b+%d(FP), R8", off["b"])
	g.w("\tMOVQ c+%d(FP), R14", off["c"])
	g.w("\tMOVQ v+%d(FP), R13", off["v"])
	g.w("\tXORQ R15, R15")
	g.w("%s_panel:", name)
	body()
	g.w("%s_next:", name)
	g.w("\tADDQ pstride+%d(FP), R8", off["pstride"])
	g.w("\tADDQ $%d, R14", cstep)
	g.w("\tADDQ $64, R15")
	g.w("\tDECQ R13")
	g.w("\tJNZ %s_panel", name)
	g.w("\tVZEROUPPER")
	g.w("\tRET")
}

func locals(r int) int {
	if r > 2 {
		return 32
	}
	return 0
}

func (g *gen) table(kind, sig string) {
	fmt.Fprintf(&g.d, "\n// %s[r] is the kernel for r rows (1 to %d) of one panel.\nvar %s = [%d]func(%s){nil", kind, maxRows, kind, maxRows+1, sig)
	for r := 1; r <= maxRows; r++ {
		fmt.Fprintf(&g.d, ", %sR%d", kind, r)
	}
	fmt.Fprintf(&g.d, "}\n")
}

func main() {
	g := &gen{}
	g.w("// Code generated by gen_qgemm_avx2.go; DO NOT EDIT.")
	g.w("")
	g.w("//go:build amd64 && !purego")
	g.w("")
	g.w(`#include "textflag.h"`)
	g.w("")
	g.w("// q8a2mask: 16 lanes on, 16 off, for the masked stores of a last partial panel.")
	for i := 0; i < 32; i++ {
		v := "0xffffffff"
		if i >= 16 {
			v = "0"
		}
		g.w("DATA q8a2mask<>+%d(SB)/4, $%s", 4*i, v)
	}
	g.w("GLOBL q8a2mask<>(SB), RODATA|NOPTR, $128")
	fmt.Fprintf(&g.d, "// Code generated by gen_qgemm_avx2.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\npackage gemm\n")

	gemmArgs := []arg{{"a", "*int8"}, {"lda", "int"}, {"b", "*int8"}, {"pstride", "int"}, {"kg", "int"}, {"v", "int"}, {"bias", "*int32"}, {"ksum", "*int32"}}
	qs8Args := append(append([]arg{}, gemmArgs...), arg{"scale", "*float32"}, arg{"c", "*int8"}, arg{"ldc", "int"},
		arg{"lo", "float32"}, arg{"hi", "float32"}, arg{"zp", "int32"}, arg{"n", "int"})
	accArgs := append(append([]arg{}, gemmArgs...), arg{"c", "*int32"}, arg{"ldc", "int"}, arg{"n", "int"})
	for _, kind := range []string{"qs8A2", "qaccA2"} {
		args := qs8Args
		if kind == "qaccA2" {
			args = accArgs
		}
		for r := 1; r <= maxRows; r++ {
			name := fmt.Sprintf("%sR%d", kind, r)
			off := g.fn(name, args, locals(r))
			cstep := 16
			if kind == "qaccA2" {
				cstep = 64
			}
			g.panels(name, off, cstep, func() {
				g.w("\tMOVQ a+%d(FP), R9", off["a"])
				g.w("\tMOVQ lda+%d(FP), AX", off["lda"])
				for i := 1; i < r; i++ {
					g.w("\tLEAQ (%s)(AX*1), %s", rowReg[i-1], rowReg[i])
				}
				g.w("\tMOVQ R8, DI")
				g.w("\tMOVQ kg+%d(FP), DX", off["kg"])
				g.zero(r)
				g.w("\tXORQ CX, CX")
				g.w("\tTESTQ DX, DX")
				g.w("\tJZ %s_fold", name)
				g.groups(name, r)
				g.w("%s_fold:", name)
				g.fold(r, off)
				if kind == "qs8A2" {
					g.qs8Store(name, r, off)
				} else {
					g.accStore(name, r, off)
				}
			})
		}
		_, _, sig := frame(args)
		g.table(kind, sig)
	}

	// The indirect kernels: row i's codes for tap t at x + tab[t·6 + i] (the zero-point row
	// where that offset is negative); the filter's input channels are tap-major, kgc groups of 4
	// per tap.
	indArgs := []arg{{"tab", "*int32"}, {"ntaps", "int"}, {"kgc", "int"}, {"x", "*int8"}, {"zrow", "*int8"}, {"b", "*int8"},
		{"pstride", "int"}, {"v", "int"}, {"bias", "*int32"}, {"ksum", "*int32"}, {"scale", "*float32"}, {"c", "*int8"}, {"ldc", "int"},
		{"lo", "float32"}, {"hi", "float32"}, {"zp", "int32"}, {"n", "int"}}
	for r := 1; r <= maxRows; r++ {
		name := fmt.Sprintf("qi8A2R%d", r)
		off := g.fn(name, indArgs, locals(r))
		g.panels(name, off, 16, func() {
			g.w("\tMOVQ tab+%d(FP), SI", off["tab"])
			g.w("\tMOVQ R8, DI")
			g.w("\tMOVQ ntaps+%d(FP), BX", off["ntaps"])
			g.zero(r)
			g.w("%s_tap:", name)
			for i := 0; i < r; i++ {
				g.w("\tMOVLQSX %d(SI), AX", 4*i)
				g.w("\tMOVQ x+%d(FP), %s", off["x"], rowReg[i])
				g.w("\tADDQ AX, %s", rowReg[i])
				g.w("\tTESTQ AX, AX")
				g.w("\tCMOVQLT zrow+%d(FP), %s", off["zrow"], rowReg[i])
			}
			g.w("\tADDQ $24, SI")
			g.w("\tXORQ CX, CX")
			g.w("\tMOVQ kgc+%d(FP), DX", off["kgc"])
			g.groups(name, r)
			g.w("\tDECQ BX")
			g.w("\tJNZ %s_tap", name)
			g.fold(r, off)
			g.qs8Store(name, r, off)
		})
	}
	_, _, sig := frame(indArgs)
	g.table("qi8A2", sig)

	if err := os.WriteFile("qgemm_avx2_amd64.s", g.b.Bytes(), 0o644); err != nil {
		panic(err)
	}
	decl, err := format.Source(g.d.Bytes())
	if err != nil {
		panic(err)
	}
	if err := os.WriteFile("qgemm_avx2_decl_amd64.go", decl, 0o644); err != nil {
		panic(err)
	}
}
