package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Test helpers of the arithmetic family.

var (
	arithInf = math.Inf(1)
	arithNaN = math.NaN()
)

// arithUnaryCase is one case of a unary op test: self, an out, and the wanted values.
type arithUnaryCase struct {
	name string
	in   *executor.Tensor
	out  *executor.Tensor
	want []float64
}

// arithRunUnary calls op(self, out) for every case and checks out's sizes (self's) and values.
func arithRunUnary(t *testing.T, op string, cases []arithUnaryCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, op, tc.in, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.in.Sizes(), tc.want)
		})
	}
}

// arithFloatOpErrors checks the errors every floating-result unary op gives.
func arithFloatOpErrors(t *testing.T, op string) {
	t.Helper()
	f := tensor(t, []float32{1, 2}, 2)
	wantErr(t, call(t, op, f, empty(t, executor.Int32, 2), none), "produces floating point")
	wantErr(t, call(t, op, f, empty(t, executor.Float32, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, op, 1.5, empty(t, executor.Float32, 2), none), "argument 0 (self): want Tensor, got Double")
	wantErr(t, call(t, op, f, empty(t, executor.Float32, 2)), "2 arguments")
}

// arithKeepOpErrors checks the errors every dtype-keeping unary op gives; bad is a self dtype
// the op refuses.
func arithKeepOpErrors(t *testing.T, op string, bad *executor.Tensor) {
	t.Helper()
	f := tensor(t, []float32{1, 2}, 2)
	wantErr(t, call(t, op, f, empty(t, executor.Float64, 2), none), "want self's dtype float32")
	wantErr(t, call(t, op, f, empty(t, executor.Float32, 1), none), "cannot resize a static tensor")
	wantErr(t, call(t, op, bad, empty(t, bad.ScalarType(), bad.Sizes()...), none), "not supported")
	wantErr(t, call(t, op, f, 1, none), "argument 1 (out): want Tensor, got Int")
	wantErr(t, call(t, op, f), "1 arguments")
}

// arithRef computes op elementwise over two broadcast operands by explicit multi-indexing (an
// independent reference for the fast and general binary paths).
func arithRef(a []float64, as []int, b []float64, bs []int, f func(x, y float64) float64) ([]float64, []int) {
	n := max(len(as), len(bs))
	pad := func(s []int) []int {
		p := make([]int, n)
		for i := range p {
			p[i] = 1
			if k := i - (n - len(s)); k >= 0 {
				p[i] = s[k]
			}
		}
		return p
	}
	pa, pb := pad(as), pad(bs)
	shape := make([]int, n)
	total := 1
	for i := range shape {
		shape[i] = max(pa[i], pb[i])
		total *= shape[i]
	}
	flat := func(s []int, idx []int) int {
		o := 0
		for i := range s {
			x := idx[i]
			if s[i] == 1 {
				x = 0
			}
			o = o*s[i] + x
		}
		return o
	}
	out := make([]float64, total)
	idx := make([]int, n)
	for e := 0; e < total; e++ {
		r := e
		for i := n - 1; i >= 0; i-- {
			idx[i] = r % shape[i]
			r /= shape[i]
		}
		out[e] = f(a[flat(pa, idx)], b[flat(pb, idx)])
	}
	return out, shape
}

// arithSeq returns n float32 values start, start+step, ...
func arithSeq(n int, start, step float32) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = start + float32(i)*step
	}
	return v
}

func arithF64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func TestArithRepeat(t *testing.T) {
	for _, tc := range []struct {
		small, shape []int
		inner, outer int
	}{
		{[]int{4}, []int{2, 3, 4}, 4, 0},
		{[]int{3, 4}, []int{2, 3, 4}, 12, 0},
		{[]int{1, 3, 4}, []int{2, 3, 4}, 12, 0},
		{[]int{2, 3, 1}, []int{2, 3, 4}, 0, 4},
		{[]int{2, 1, 1}, []int{2, 3, 4}, 0, 12},
		{[]int{1}, []int{2, 3, 4}, 0, 24},
		{[]int{}, []int{2, 3}, 0, 6},
		{[]int{3, 1}, []int{2, 3, 4}, 0, 0},
		{[]int{2, 1, 4}, []int{2, 3, 4}, 0, 0},
		{[]int{3}, []int{1, 3}, 3, 0},
	} {
		i, o := arithRepeat(tc.small, tc.shape)
		if i != tc.inner || o != tc.outer {
			t.Errorf("arithRepeat(%v, %v) = %d, %d, want %d, %d", tc.small, tc.shape, i, o, tc.inner, tc.outer)
		}
	}
}

// arithTyped builds a contiguous tensor of any dtype (float16 and bfloat16 included) from
// float64 values, cast as storeF64 casts.
func arithTyped(t testing.TB, dtype executor.ScalarType, v []float64, sizes ...int) *executor.Tensor {
	t.Helper()
	x := empty(t, dtype, sizes...)
	if x.Numel() != len(v) {
		t.Fatalf("arithTyped: %d values for sizes %v", len(v), sizes)
	}
	storeF64(x, v)
	return x
}

func negZero() float64 { return math.Copysign(0, -1) }

func arithF32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}
