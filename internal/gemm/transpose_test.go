package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestTranspose holds every kernel set's transpose to the definition over shapes around the 8×8
// blocks and 64×64 tiles, with padded strides, and checks that nothing outside the destination
// matrix is written.
func TestTranspose(t *testing.T) {
	for _, isa := range ISAs() {
		restore, err := UseISA(isa)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(3, 4))
		for _, rows := range []int{0, 1, 3, 7, 8, 9, 16, 23, 64, 65, 130} {
			for _, cols := range []int{0, 1, 5, 8, 15, 24, 63, 64, 72, 129} {
				lds, ldd := cols+r.IntN(3), rows+r.IntN(3)
				src := make([]float32, max(0, (rows-1)*lds+cols))
				for i := range src {
					src[i] = float32(i) + 0.5
				}
				n := max(0, (cols-1)*ldd+rows)
				dst := make([]float32, n)
				for i := range dst {
					dst[i] = -1
				}
				if !Transpose(dst, ldd, src, lds, rows, cols) {
					t.Fatalf("%s %dx%d: refused", isa, rows, cols)
				}
				want := make([]float32, n)
				for i := range want {
					want[i] = -1
				}
				for i := 0; i < rows; i++ {
					for j := 0; j < cols; j++ {
						want[j*ldd+i] = src[i*lds+j]
					}
				}
				for i := range want {
					if dst[i] != want[i] {
						t.Fatalf("%s %dx%d (lds %d, ldd %d): dst[%d] = %v, want %v", isa, rows, cols, lds, ldd, i, dst[i], want[i])
					}
				}
			}
		}
		restore()
	}
	if Transpose(make([]float32, 10), 4, make([]float32, 20), 4, 4, 4) {
		t.Error("a destination too short was accepted")
	}
	if TransposeGo(make([]int8, 16), 4, make([]int8, 15), 4, 4, 4) {
		t.Error("a source too short was accepted")
	}
	if Transpose(make([]float32, 16), 3, make([]float32, 16), 4, 4, 4) {
		t.Error("a destination stride below the row count was accepted")
	}
}

func BenchmarkTranspose(b *testing.B) {
	for _, s := range [][2]int{{784, 116}, {196, 232}, {49, 464}, {3136, 96}} {
		rows, cols := s[0], s[1]
		src, dst := make([]float32, rows*cols), make([]float32, rows*cols)
		for _, isa := range ISAs() {
			b.Run(fmt.Sprintf("%dx%d/%s", rows, cols, isa), func(b *testing.B) {
				restore, _ := UseISA(isa)
				defer restore()
				b.SetBytes(int64(8 * rows * cols))
				for b.Loop() {
					Transpose(dst, rows, src, cols, rows, cols)
				}
			})
		}
	}
}

// TestPackBT checks that packing a transposed matrix gives PackB's panels of the matrix, for
// every kernel set's panel width and shapes around the panel edges.
func TestPackBT(t *testing.T) {
	for _, isa := range ISAs() {
		restore, err := UseISA(isa)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{0, 1, 7, 64, 65} {
			for _, n := range []int{0, 1, 15, 16, 17, 32, 33, 49, 197} {
				ldb := k + 3
				bt := make([]float32, n*ldb)
				for i := range bt {
					bt[i] = float32(i) + 0.25
				}
				b := make([]float32, k*n)
				for kk := 0; kk < k; kk++ {
					for j := 0; j < n; j++ {
						b[kk*n+j] = bt[j*ldb+kk]
					}
				}
				want, err1 := PackB(b, k, n, n)
				got, err2 := PackBT(bt, k, n, ldb)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s k%d n%d: %v, %v", isa, k, n, err1, err2)
				}
				if fmt.Sprint(got.panels) != fmt.Sprint(want.panels) || got.K != want.K || got.N != want.N || got.nr != want.nr {
					t.Fatalf("%s k%d n%d: panels differ", isa, k, n)
				}
			}
		}
		restore()
	}
	if _, err := PackBT(make([]float32, 5), 3, 2, 3); err == nil {
		t.Error("a short transpose was packed")
	}
}
