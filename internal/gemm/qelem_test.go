package gemm

import (
	"fmt"
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
