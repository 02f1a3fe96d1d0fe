package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQElementwise checks the int8 clamp and addition of every kernel set against their
// definitions, at lengths around the vector widths.
func TestQElementwise(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, isa := range Int8ISAs() {
		restore, err := UseInt8ISA(isa)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{0, 1, 15, 16, 17, 63, 64, 65, 200} {
			t.Run(fmt.Sprintf("%s/%d", isa, n), func(t *testing.T) {
				d := randCodes(r, n)
				want := slices.Clone(d)
				for i, v := range want {
					want[i] = min(max(v, -20), 90)
				}
				ClampQ8(d, -20, 90)
				if !slices.Equal(d, want) {
					t.Fatalf("clamp: got %v want %v", d, want)
				}
				m, src := randCodes(r, n), randCodes(r, n)
				wantMax := slices.Clone(m)
				for i, v := range src {
					wantMax[i] = max(wantMax[i], v)
				}
				MaxQ8(m, src)
				if !slices.Equal(m, wantMax) {
					t.Fatalf("max: got %v want %v", m, wantMax)
				}
				a, b := randCodes(r, n), randCodes(r, n)
				q := &QAdd{AM: 700000, BM: -450000, Bias: 1<<19 - 3000, Shift: 20, ZP: -5, Lo: -128, Hi: 100}
				got := make([]int8, n)
				q.Run(got, a, b)
				for i := range want[:n] {
					v := (q.Bias+int32(a[i])*q.AM+int32(b[i])*q.BM)>>q.Shift + q.ZP
					want[i] = int8(min(max(v, q.Lo), q.Hi))
				}
				if !slices.Equal(got, want[:n]) {
					t.Fatalf("add: got %v want %v", got, want[:n])
				}
			})
		}
		restore()
	}
}

// TestQConvert checks the int8 conversions and product of every kernel set against the portable
// loops, NaN and infinities included.
func TestQConvert(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 15, 16, 33, 100} {
		x := make([]float32, n)
		for i := range x {
			x[i] = (r.Float32() - 0.5) * 600
		}
		x[0] = float32(math.NaN())
		if n > 2 {
			x[1], x[2] = float32(math.Inf(1)), float32(math.Inf(-1))
		}
		if n > 3 {
			x[3] = float32(math.Copysign(0, -1))
		}
		codes, a, b := randCodes(r, n), randCodes(r, n), randCodes(r, n)
		wantQ, wantD, wantM := make([]int8, n), make([]float32, n), make([]int8, n)
		quantizeQ8Go(wantQ, x, 0.7, float32(-128-9), float32(127-9), 9, 0)
		dequantizeQ8Go(wantD, codes, 0.03, -7)
		m := &QMul{AZP: 3, BZP: -11, Scale: 0.004, ZP: 5, Lo: -100, Hi: 127}
		mulQ8Go(m, wantM, a, b)
		for _, isa := range Int8ISAs() {
			restore, _ := UseInt8ISA(isa)
			gotQ, gotD, gotM := make([]int8, n), make([]float32, n), make([]int8, n)
			QuantizeQ8(gotQ, x, 0.7, 9)
			DequantizeQ8(gotD, codes, 0.03, -7)
			m.Run(gotM, a, b)
			restore()
			if !slices.Equal(gotQ, wantQ) || !slices.Equal(gotD, wantD) || !slices.Equal(gotM, wantM) {
				t.Fatalf("%s n=%d: quantize %v / %v, dequantize %v / %v, mul %v / %v", isa, n, gotQ, wantQ, gotD, wantD, gotM, wantM)
			}
		}
	}
}

func TestSumRowsQ8(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, c := range []struct{ rows, c int }{{1, 1}, {3, 16}, {7, 33}, {49, 1280}, {2, 5}} {
		x := randCodes(r, c.rows*c.c)
		want := make([]int32, c.c)
		for i := range want {
			want[i] = int32(i)
		}
		got := slices.Clone(want)
		sumRowsQ8Go(want, x, c.rows, c.c)
		for _, isa := range Int8ISAs() {
			restore, _ := UseInt8ISA(isa)
			g := slices.Clone(got)
			SumRowsQ8(g, x, c.rows, c.c)
			restore()
			if !slices.Equal(g, want) {
				t.Fatalf("%s %+v: got %v want %v", isa, c, g, want)
			}
		}
	}
}

// TestRowMinMax: the assembly reduction is the portable emulation's, bit for bit, NaN and
// infinities anywhere in rows of every length class; QuantizeQD8 turns NaN into 127.
func TestRowMinMax(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	special := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}
	for _, n := range []int{1, 5, 16, 17, 63, 64, 65, 130, 200, 2048} {
		for trial := range 20 {
			x := make([]float32, n)
			for i := range x {
				x[i] = (r.Float32() - 0.5) * 10
			}
			for range trial % 4 {
				x[r.IntN(n)] = special[r.IntN(len(special))]
			}
			wlo, whi := rowMinMaxGo(x)
			for _, isa := range Int8ISAs() {
				restore, _ := UseInt8ISA(isa)
				lo, hi := RowMinMax(x)
				q := make([]int8, n)
				QuantizeQD8(q, x, 3.5, -4)
				restore()
				if math.Float32bits(lo) != math.Float32bits(wlo) || math.Float32bits(hi) != math.Float32bits(whi) {
					t.Fatalf("%s n=%d: (%v, %v), want (%v, %v)", isa, n, lo, hi, wlo, whi)
				}
				for i, v := range x {
					if v != v && q[i] != 127 {
						t.Fatalf("%s: NaN quantized to %d", isa, q[i])
					}
				}
			}
		}
	}
}

func TestLUT8(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	var tab [256]int8
	for i := range tab {
		tab[i] = int8(r.IntN(256) - 128)
	}
	l := NewLUT8(tab)
	for _, n := range []int{1, 63, 64, 65, 300, 512} {
		src := randCodes(r, n)
		if n == 512 { // every code, in the kernels' whole blocks
			for i := range src {
				src[i] = int8(i)
			}
		}
		want := make([]int8, n)
		lutGo(l, want, src)
		for _, isa := range Int8ISAs() {
			restore, _ := UseInt8ISA(isa)
			got := make([]int8, n)
			l.Run(got, src)
			restore()
			if !slices.Equal(got, want) {
				t.Fatalf("%s n=%d: got %v want %v", isa, n, got, want)
			}
		}
	}
}

func TestPad3To4(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{1, 16, 17, 33, 100, 1000} {
		src := randCodes(r, 3*n)
		for _, isa := range Int8ISAs() {
			restore, _ := UseInt8ISA(isa)
			dst := make([]int8, 4*n)
			Pad3To4(dst, src, n)
			restore()
			for i := range n {
				for j := range 3 {
					if dst[4*i+j] != src[3*i+j] {
						t.Fatalf("%s n=%d: pixel %d code %d = %d, want %d", isa, n, i, j, dst[4*i+j], src[3*i+j])
					}
				}
			}
		}
	}
}

// TestQD8Finish: the assembly epilogue of qd8 × qc8w rounds and clamps as the portable one,
// NaN and infinite row scales included.
func TestQD8Finish(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for _, n := range []int{1, 15, 16, 40} {
		for _, rs := range []float32{0.0173, float32(math.Inf(1)), float32(math.NaN()), 0} {
			acc, ksum := make([]int32, n), make([]int32, n)
			ws, bias := make([]float32, n), make([]float32, n)
			for i := range acc {
				acc[i], ksum[i] = int32(r.IntN(200000)-100000), int32(r.IntN(4000)-2000)
				ws[i], bias[i] = r.Float32()*0.01, r.Float32()-0.5
			}
			want := make([]float32, n)
			qd8FinishGo(want, acc, ksum, 77, rs, ws, bias, -3, 2.5)
			for _, isa := range Int8ISAs() {
				restore, _ := UseInt8ISA(isa)
				got := make([]float32, n)
				QD8Finish(got, acc, ksum, 77, rs, ws, bias, -3, 2.5)
				restore()
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("%s n=%d scale %v: [%d] = %v, want %v", isa, n, rs, i, got[i], want[i])
					}
				}
			}
		}
	}
}
