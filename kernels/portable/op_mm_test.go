package portable

import (
	"math/rand"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Values from torch: a = [[-2.5, 1, -1], [2.5, 0.5, -1.5]] (linalgSeq(6, 7, 11, 5, 0.5)),
// b = linalgSeq(12, 5, 7, 3, 0.25) as [3, 4].
var (
	mmA    = linalgSeq(6, 7, 11, 5, 0.5)
	mmB    = linalgSeq(12, 5, 7, 3, 0.25)
	mmWant = []float64{2.125, -1.0, 0.25, -0.25, -2.25, 1.375, 0.625, -2.75}
)

func TestMM(t *testing.T) {
	for _, tc := range []struct {
		name  string
		a, b  *executor.Tensor
		out   *executor.Tensor
		sizes []int
		want  []float64
	}{
		{"float32", linalgTensor(t, executor.Float32, mmA, 2, 3), linalgTensor(t, executor.Float32, mmB, 3, 4), empty(t, executor.Float32, 2, 4), []int{2, 4}, mmWant},
		{"float64", linalgTensor(t, executor.Float64, mmA, 2, 3), linalgTensor(t, executor.Float64, mmB, 3, 4), empty(t, executor.Float64, 2, 4), []int{2, 4}, mmWant},
		{"float16", linalgTensor(t, executor.Float16, mmA, 2, 3), linalgTensor(t, executor.Float16, mmB, 3, 4), empty(t, executor.Float16, 2, 4), []int{2, 4}, mmWant},
		{"bfloat16", linalgTensor(t, executor.BFloat16, mmA, 2, 3), linalgTensor(t, executor.BFloat16, mmB, 3, 4), empty(t, executor.BFloat16, 2, 4), []int{2, 4}, mmWant},
		{"int32", tensor(t, []int32{1, 2, 3, 4}, 2, 2), tensor(t, []int32{5, 6, 7, 8}, 2, 2), empty(t, executor.Int32, 2, 2), []int{2, 2}, []float64{19, 22, 43, 50}},
		{"int64 column", tensor(t, []int64{1, 2, 3}, 3, 1), tensor(t, []int64{4, 5}, 1, 2), empty(t, executor.Int64, 3, 2), []int{3, 2}, []float64{4, 5, 8, 10, 12, 15}},
		// torch.mm(int8 100s, int8 1s) = -56: 200 wraps.
		{"int8 wraps", tensor(t, []int8{100, 100, 100, 100}, 2, 2), tensor(t, []int8{1, 1, 1, 1}, 2, 2), empty(t, executor.Int8, 2, 2), []int{2, 2}, []float64{-56, -56, -56, -56}},
		{"empty inner", tensor(t, []float32{}, 2, 0), tensor(t, []float32{}, 0, 3), tensor(t, []float32{9, 9, 9, 9, 9, 9}, 2, 3), []int{2, 3}, []float64{0, 0, 0, 0, 0, 0}},
		{"empty rows", tensor(t, []float32{}, 0, 3), linalgTensor(t, executor.Float32, mmB, 3, 4), empty(t, executor.Float32, 0, 4), []int{0, 4}, nil},
		{"dynamic out", linalgTensor(t, executor.Float32, mmA, 2, 3), linalgTensor(t, executor.Float32, mmB, 3, 4), dynamic(t, executor.Float32, 4, 4), []int{2, 4}, mmWant},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := call(t, "aten::mm.out", tc.a, tc.b, tc.out, tc.out); err != nil {
				t.Fatal(err)
			}
			wantValuesAny(t, tc.out, tc.sizes, tc.want)
		})
	}
}

// An out that is also an input gets the product of the inputs as they were.
func TestMMOutAliasesInput(t *testing.T) {
	a := tensor(t, []float32{1, 2, 3, 4}, 2, 2)
	b := tensor(t, []float32{5, 6, 7, 8}, 2, 2)
	if err := call(t, "aten::mm.out", a, b, a, a); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, a, []int{2, 2}, []float64{19, 22, 43, 50})
}

// TestMMLarge compares a product that spans several blocks with a float64 reference.
func TestMMLarge(t *testing.T) {
	m, k, n := 5, 131, 600
	r := rand.New(rand.NewSource(1))
	av, bv := make([]float64, m*k), make([]float64, k*n)
	for i := range av {
		av[i] = float64(r.Intn(17) - 8)
	}
	for i := range bv {
		bv[i] = float64(r.Intn(9)-4) / 4
	}
	want := make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			for p := 0; p < k; p++ {
				want[i*n+j] += av[i*k+p] * bv[p*n+j]
			}
		}
	}
	out := empty(t, executor.Float32, m, n)
	if err := call(t, "aten::mm.out", linalgTensor(t, executor.Float32, av, m, k), linalgTensor(t, executor.Float32, bv, k, n), out, out); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, out, []int{m, n}, want)
}

func TestMMErrors(t *testing.T) {
	a := tensor(t, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
	b := tensor(t, []float32{1, 2, 3, 4, 5, 6}, 3, 2)
	wantErr(t, call(t, "aten::mm.out", a, a, empty(t, executor.Float32, 2, 3), none), "inner sizes 3 and 2 differ")
	wantErr(t, call(t, "aten::mm.out", tensor(t, []float32{1, 2}, 2), b, empty(t, executor.Float32, 1, 2), none), "argument 0 (self): want a 2-D tensor")
	wantErr(t, call(t, "aten::mm.out", a, tensor(t, []float64{1, 2, 3}, 3, 1), empty(t, executor.Float32, 2, 1), none), "mat2 is float64 but self is float32")
	wantErr(t, call(t, "aten::mm.out", a, b, empty(t, executor.Float64, 2, 2), none), "out is float64")
	wantErr(t, call(t, "aten::mm.out", a, b, empty(t, executor.Float32, 3, 3), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::mm.out", a, b, empty(t, executor.Float32, 4), none), "argument 2 (out): want a 2-D tensor")
	wantErr(t, call(t, "aten::mm.out", tensor(t, []bool{true}, 1, 1), tensor(t, []bool{true}, 1, 1), empty(t, executor.Bool, 1, 1), none), "dtype bool is not supported")
	wantErr(t, call(t, "aten::mm.out", a, 2, empty(t, executor.Float32, 2, 2), none), "argument 1 (mat2): want Tensor, got Int")
	wantErr(t, call(t, "aten::mm.out", a, b, empty(t, executor.Float32, 2, 2)), "3 arguments")
	wantErr(t, call(t, "aten::mm.out", linalgWithDimOrder(t, a, []uint8{1, 0}), b, empty(t, executor.Float32, 2, 2), none), "argument 0 (self): dim order [1 0] is not supported")
}

func BenchmarkMM_256(b *testing.B) {
	const n = 256
	x := linalgTensor(b, executor.Float32, linalgSeq(n*n, 7, 11, 5, 0.5), n, n)
	y := linalgTensor(b, executor.Float32, linalgSeq(n*n, 5, 7, 3, 0.25), n, n)
	out := empty(b, executor.Float32, n, n)
	b.ResetTimer()
	for range b.N {
		if err := call(b, "aten::mm.out", x, y, out, out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(2*n*n*n*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
