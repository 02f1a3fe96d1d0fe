package xnnpack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/xnntest"
)

// TestBroadcastRuns runs add, subtract, multiply and divide on broadcast shapes (the run paths:
// a gate [N,C,1,1] over [N,C,H,W] on either side, runs longer than the scalar block, middle
// dims broadcast, ranks that differ; and shapes the runs refuse), at 1 and 2 threads, with NaN,
// ±Inf and ±0 among the values, against f(a, b) per element through broadcastStrides: the same
// bits (both NaN for a NaN result).
func TestBroadcastRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e38, -1e-39}
	rnd := func(dims []int) xnntest.Operand {
		o := xnntest.Operand{Dims: dims, Data: make([]float64, xnngraph.Numel(dims))}
		for i := range o.Data {
			o.Data[i] = float64(float32(r.NormFloat64() * 4))
			if r.IntN(30) == 0 {
				o.Data[i] = special[r.IntN(len(special))]
			}
		}
		return o
	}
	shapes := [][2][]int{
		{{1, 8, 7, 7}, {1, 8, 1, 1}},
		{{1, 8, 1, 1}, {1, 8, 7, 7}},
		{{2, 24, 28, 28}, {2, 24, 1, 1}}, // runs of 784, past the scalar block; rows split across threads
		{{1, 16, 30, 30}, {16, 1, 1}},    // ranks differ
		{{3, 4, 10}, {3, 1, 10}},         // a middle dim broadcast, both contiguous along the run
		{{3, 1, 10}, {1, 4, 10}},         // both broadcast, in different dims
		{{5, 1, 9}, {5, 6, 1}},           // b one value along runs of 9
		{{5, 7, 1}, {5, 1, 6}},           // runs of 6: the index walk
		{{2, 3, 4}, {3, 1}},
		{{1, 1}, {6, 9}}, // one value first, for the ops that do not commute
		{{4, 9}, {4, 9}},
		{{0, 8, 9}, {1, 8, 1}},
	}
	ops := []struct {
		name string
		f    func(x, y float32) float32
	}{
		{"XNNAdd", func(x, y float32) float32 { return x + y }},
		{"XNNSubtract", func(x, y float32) float32 { return x - y }},
		{"XNNMultiply", func(x, y float32) float32 { return x * y }},
		{"XNNDiv", func(x, y float32) float32 { return x / y }},
	}
	for _, op := range ops {
		for _, s := range shapes {
			a, b := rnd(s[0]), rnd(s[1])
			dims, err := xnngraph.BroadcastDims(a.Dims, b.Dims)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]float32, xnngraph.Numel(dims))
			wa, wb := make([]float32, len(want)), make([]float32, len(want))
			sa, sb := broadcastStrides(a.Dims, dims), broadcastStrides(b.Dims, dims)
			idx := make([]int, len(dims))
			for i := range want {
				oa, ob := 0, 0
				for d, x := range idx {
					oa += x * sa[d]
					ob += x * sb[d]
				}
				want[i] = op.f(float32(a.Data[oa]), float32(b.Data[ob]))
				wa[i], wb[i] = float32(a.Data[oa]), float32(b.Data[ob])
				for d := len(idx) - 1; d >= 0; d-- {
					if idx[d]++; idx[d] < dims[d] {
						break
					}
					idx[d] = 0
				}
			}
			c := &xnntest.OpCase{Name: fmt.Sprint(op.name, s), Op: op.name, Inputs: []xnntest.Operand{a, b}, Output: xnntest.Operand{Dims: dims}}
			for _, threads := range []int{1, 2} {
				t.Run(fmt.Sprintf("%s/threads=%d", c.Name, threads), func(t *testing.T) {
					got := execCase(t, c, threads)
					for i, w := range want {
						g := got[i]
						if math.Float32bits(g) != math.Float32bits(w) && !(g != g && w != w) {
							t.Fatalf("element %d = %v, want %v (dims %v) = f(%v, %v)", i, g, w, dims, wa[i], wb[i])
						}
					}
				})
			}
		}
	}
}

// TestRunsOf pins the run each shape pair splits into.
func TestRunsOf(t *testing.T) {
	for _, c := range []struct {
		a, b       []int
		run, rows  int
		aOne, bOne bool
		ok         bool
	}{
		{[]int{1, 8, 7, 7}, []int{1, 8, 1, 1}, 49, 8, false, true, true},
		{[]int{1, 8, 1, 1}, []int{1, 8, 7, 7}, 49, 8, true, false, true},
		{[]int{3, 4, 10}, []int{3, 1, 10}, 10, 12, false, false, true},
		{[]int{1, 1}, []int{6, 9}, 54, 1, true, false, true},
		{[]int{2, 5, 9}, []int{9}, 9, 10, false, false, true}, // (binaryOpVec's leading-broadcast form takes it first)
		{[]int{5, 1, 9}, []int{5, 6, 1}, 9, 30, false, true, true},
		{[]int{5, 9, 1}, []int{5, 1, 6}, 0, 0, false, false, false}, // runs of 6
		{[]int{4, 3}, []int{4, 1}, 0, 0, false, false, false},       // runs of 3
	} {
		dims, err := xnngraph.BroadcastDims(c.a, c.b)
		if err != nil {
			t.Fatal(err)
		}
		r, ok := runsOf(c.a, c.b, dims)
		if ok != c.ok || ok && (r.run != c.run || r.rows() != c.rows || r.aOne != c.aOne || r.bOne != c.bOne) {
			t.Errorf("runsOf(%v, %v) = run %d rows %d aOne %v bOne %v ok %v, want %d %d %v %v %v", c.a, c.b, r.run, r.rows(), r.aOne, r.bOne, ok,
				c.run, c.rows, c.aOne, c.bOne, c.ok)
		}
	}
}
