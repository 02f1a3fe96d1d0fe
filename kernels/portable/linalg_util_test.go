package portable

import (
	"testing"

	"github.com/etgo/etgo/internal/gemm"

	"github.com/etgo/etgo/executor"
)

// Test helpers of the linalg family.

// linalgSeq returns n deterministic values ((i·mul) mod m − off)·scale, the inputs the
// expected values were computed from with torch.
func linalgSeq(n, mul, m, off int, scale float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64((i*mul)%m-off) * scale
	}
	return v
}

func linalgNumel(sizes []int) int {
	n := 1
	for _, s := range sizes {
		n *= s
	}
	return n
}

// linalgTensor builds a contiguous tensor of any dtype from values.
func linalgTensor(t testing.TB, dtype executor.ScalarType, v []float64, sizes ...int) *executor.Tensor {
	t.Helper()
	x := empty(t, dtype, sizes...)
	if x.Numel() != len(v) {
		t.Fatalf("%d values for sizes %v", len(v), sizes)
	}
	storeF64(x, v)
	return x
}

// linalgWithDimOrder returns a copy of x (logical values kept) laid out in another dim order.
func linalgWithDimOrder(t testing.TB, x *executor.Tensor, order []uint8) *executor.Tensor {
	t.Helper()
	y, err := executor.NewTensorWithDimOrder(x.ScalarType(), x.Sizes(), order)
	if err != nil {
		t.Fatal(err)
	}
	if err := executor.CopyTensor(y, x); err != nil {
		t.Fatal(err)
	}
	return y
}

func TestLinalgRowMajor(t *testing.T) {
	x := tensor(t, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
	if !linalgRowMajor(x) {
		t.Error("contiguous tensor not row-major")
	}
	if linalgRowMajor(linalgWithDimOrder(t, x, []uint8{1, 0})) {
		t.Error("transposed layout taken as row-major")
	}
	// Dim orders that differ only in size-1 dimensions lay memory out the same way.
	w := tensor(t, []float32{1, 2, 3, 4, 5, 6, 7, 8}, 2, 1, 2, 2)
	if !linalgRowMajor(linalgWithDimOrder(t, w, []uint8{1, 0, 2, 3})) {
		t.Error("[1, 0, 2, 3] with size(1) = 1 not row-major")
	}
	if !linalgRowMajor(linalgWithDimOrder(t, w, []uint8{0, 2, 3, 1})) {
		t.Error("channels-last with one channel not row-major")
	}
	x4 := tensor(t, []float32{1, 2, 3, 4, 5, 6, 7, 8}, 1, 2, 2, 2)
	if linalgRowMajor(linalgWithDimOrder(t, x4, []uint8{0, 2, 3, 1})) {
		t.Error("channels-last with two channels taken as row-major")
	}
}

func TestLinalgValidRange(t *testing.T) {
	for _, tc := range []struct{ off, stride, size, count, lo, hi, first int }{
		{0, 1, 5, 5, 0, 5, 0},
		{-1, 1, 5, 5, 1, 5, 0},
		{1, 1, 5, 5, 0, 4, 1},
		{-3, 2, 5, 4, 2, 4, 1}, // o*2-3 in [0,5): o = 2, 3
		{-10, 1, 5, 3, 0, 0, 0},
		{10, 1, 5, 3, 0, 0, 0},
		{-4, 1, 3, 3, 0, 0, 0}, // issue 20: tap 0 of a 9-wide window, padding 4, over 3 columns
		{4, 1, 3, 3, 0, 0, 0},  // and its tap 8
		{-1, 3, 1, 2, 0, 0, 0}, // stride past the input: sources -1 and 2 of [0, 1)
	} {
		sp := linalgValidRange(tc.off, tc.stride, tc.size, tc.count)
		if want := (linalgSpan{tc.lo, tc.hi, tc.first}); sp != want {
			t.Errorf("linalgValidRange(%d, %d, %d, %d) = %+v; want %+v", tc.off, tc.stride, tc.size, tc.count, sp, want)
		}
	}
	// Every small case against counting: the span holds exactly the positions whose source is
	// inside, and an empty span slices any source at [0:0].
	for off := -12; off <= 12; off++ {
		for stride := 1; stride <= 5; stride++ {
			for size := 1; size <= 6; size++ {
				for count := 1; count <= 6; count++ {
					sp := linalgValidRange(off, stride, size, count)
					var in []int
					for o := range count {
						if s := o*stride + off; s >= 0 && s < size {
							in = append(in, o)
						}
					}
					ok := sp.lo >= 0 && sp.lo <= sp.hi && sp.hi <= count && sp.hi-sp.lo == len(in)
					if ok && len(in) > 0 {
						ok = sp.lo == in[0] && sp.first == in[0]*stride+off
					}
					if ok && len(in) == 0 {
						ok = sp == linalgSpan{}
					}
					if !ok {
						t.Fatalf("linalgValidRange(%d, %d, %d, %d) = %+v; positions inside %v", off, stride, size, count, sp, in)
					}
				}
			}
		}
	}
}

// TestLinalgGemmBlocks checks the blocked kernel against a naive product on sizes that cross
// its block edges and leave remainders of the four-row unrolling.
func TestLinalgGemmBlocks(t *testing.T) {
	m, n, k := 3, 2*gemm.BlockN+7, 2*gemm.BlockK+3
	a, b := linalgSeq(m*k, 7, 11, 5, 0.5), linalgSeq(k*n, 5, 7, 3, 0.25)
	c := make([]float64, m*n)
	for i := range c {
		c[i] = 1 // accumulates onto what c holds
	}
	linalgGemm(m, n, k, a, k, b, n, c, n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			want := 1.0
			for p := 0; p < k; p++ {
				want += a[i*k+p] * b[p*n+j]
			}
			if c[i*n+j] != want {
				t.Fatalf("c[%d,%d] = %v, want %v", i, j, c[i*n+j], want)
			}
		}
	}
}
