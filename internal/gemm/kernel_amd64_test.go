//go:build amd64 && !purego

package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBiasKernelSets runs the bias checks on every kernel set the CPU has (AVX-512's 14x32 and
// 14x16 row kernels, AVX2's 1-6 row 16-column kernels, the portable one), and once more on the
// AVX2 full-tile kernel alone over zero-padded short tiles (rowKernels off), the path a set
// without row kernels would take.
func TestBiasKernelSets(t *testing.T) {
	for _, isa := range ISAs() {
		t.Run(isa, func(t *testing.T) {
			restore, err := UseISA(isa)
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			checkGemmBias(t, rand.New(rand.NewPCG(5, 6)))
			if isa == "avx2" {
				rowKernels = false
				checkGemmBias(t, rand.New(rand.NewPCG(7, 8)))
			}
		})
	}
}

// TestAVX2Depthwise runs the depthwise checks on the AVX2 kernel on AVX-512 machines too.
func TestAVX2Depthwise(t *testing.T) {
	if !useAVX2 {
		t.Skip("this CPU has no AVX2/FMA: TestDWTaps covers the portable kernel")
	}
	saved := useAVX512
	defer func() { useAVX512 = saved }()
	useAVX512 = false
	checkDWTaps(t)
}

// TestDWDirect256Pixels: the AVX2 direct depthwise kernels compute two pixels per iteration at
// stride 1, each in its own accumulator; every pixel must get exactly the bits of the one-pixel
// loop (the kernel called one pixel at a time), NaN and infinities included, at strides 1-3 and
// for channel counts with and without a masked last block.
func TestDWDirect256Pixels(t *testing.T) {
	if !useAVX2 {
		t.Skip("this CPU has no AVX2/FMA")
	}
	saved := useAVX512
	defer func() { useAVX512 = saved }()
	useAVX512 = false
	r := rand.New(rand.NewPCG(41, 42))
	same := func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) || (a != a && b != b) }
	for _, k := range []int{3, 5} {
		for _, stride := range []int{1, 2, 3} {
			for _, c := range []int{8, 16, 24, 13, 40} {
				for npix := 1; npix <= 9; npix++ {
					W := (npix-1)*stride + k
					rowstride := W * c
					in := randSlice(r, (k-1)*rowstride+W*c)
					if npix%3 == 0 {
						in[r.IntN(len(in))] = float32(math.NaN())
						in[r.IntN(len(in))] = float32(math.Inf(1))
					}
					w, bias := randSlice(r, k*k*c), randSlice(r, c)
					got, want := make([]float32, npix*c), make([]float32, npix*c)
					if !dwDirectVector(k, got, in, npix, stride*c, rowstride, c, w, bias, -1.5, 2) {
						t.Fatal("no AVX2 direct kernel")
					}
					for p := 0; p < npix; p++ {
						dwDirectVector(k, want[p*c:(p+1)*c], in[p*stride*c:], 1, stride*c, rowstride, c, w, bias, -1.5, 2)
					}
					for i := range got {
						if !same(got[i], want[i]) {
							t.Fatalf("k=%d stride %d c=%d npix %d: out[%d] = %v, one pixel at a time %v", k, stride, c, npix, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}
