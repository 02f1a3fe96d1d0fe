package xnnpack

import (
	"fmt"
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/xnntest"
)

func f32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

// TestOpsAgainstTorch runs each node implementation on torch-computed cases.
func TestOpsAgainstTorch(t *testing.T) {
	cases := xnntest.OpCases(t)
	if len(cases) < 30 {
		t.Fatalf("only %d cases", len(cases))
	}
	for i := range cases {
		for _, threads := range []int{1, 2, 3} {
			c := &cases[i]
			t.Run(fmt.Sprintf("%s/threads=%d", c.Name, threads), func(t *testing.T) {
				runCase(t, c, threads)
			})
		}
	}
}

func runCase(t *testing.T, c *xnntest.OpCase, threads int) {
	got := execCase(t, c, threads)
	for k, w := range c.Output.Data {
		if d := math.Abs(float64(got[k]) - w); d > 1e-4*math.Max(1, math.Abs(w)) {
			t.Fatalf("element %d = %v, torch %v", k, got[k], w)
		}
	}
}

// execCase runs one node case on its float32 inputs at the given thread count and returns the
// output.
func execCase(t *testing.T, c *xnntest.OpCase, threads int) []float32 {
	t.Helper()
	if threads > 1 {
		// Split even these small cases, so the multi-threaded paths are what runs.
		saved := minParallelWork
		minParallelWork = 0
		defer func() { minParallelWork = saved }()
	}
	p, err := newPlan(xnntest.Graph(t, c), nil)
	if err != nil {
		t.Fatal(err)
	}
	p.threads = threads
	var args []*executor.EValue
	for _, in := range c.Inputs {
		x, err := executor.FromSlice(f32(in.Data), in.Dims...)
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, &executor.EValue{Tag: executor.TagTensor, Tensor: x})
	}
	out, err := executor.NewTensor(executor.Float32, c.Output.Dims...)
	if err != nil {
		t.Fatal(err)
	}
	args = append(args, &executor.EValue{Tag: executor.TagTensor, Tensor: out})
	if err := p.execute(args); err != nil {
		t.Fatal(err)
	}
	return executor.Data[float32](out)
}

// TestMaxPoolTap checks poolTapCoord on every small window: a tap always reads a pixel of the
// input; when the window has taps inside the input every tap reads one of them (so padding never
// wins and the result is the maximum over the window's inside, as torch's), and cases the
// official runtime ran pin the rest (testdata/windows, TestWindowCases in runtime).
func TestMaxPoolTap(t *testing.T) {
	for _, tc := range []struct{ pos, dil, pad, size, want int }{
		{0, 3, 1, 2, 0}, // MaxPool2d(2, stride=1, padding=1, dilation=3) over 2x2: taps -1 and 2 both read row 0
		{3, 3, 1, 2, 0},
		{0, 2, 1, 5, 1}, // tap -1 of a dilation-2 window moves to its next tap, 1
		{0, 1, 2, 3, 0}, // no dilation: clamped to the border
		{6, 1, 2, 3, 2},
	} {
		if got := poolTapCoord(tc.pos, tc.pad, tc.size, tc.dil); got != tc.want {
			t.Errorf("poolTapCoord(pos %d, dil %d, pad %d, size %d) = %d, want %d", tc.pos, tc.dil, tc.pad, tc.size, got, tc.want)
		}
	}
	for size := 1; size <= 5; size++ {
		for k := 1; k <= 5; k++ {
			for dil := 1; dil <= 4; dil++ {
				for pad := 0; pad <= k/2; pad++ {
					for stride := 1; stride <= 3; stride++ {
						out := outSize(size, pad, pad, k, stride, dil)
						for o := 0; o < out; o++ {
							inside := map[int]bool{}
							for j := 0; j < k; j++ {
								if y := o*stride + j*dil - pad; y >= 0 && y < size {
									inside[y] = true
								}
							}
							for j := 0; j < k; j++ {
								y := poolTapCoord(o*stride+j*dil, pad, size, dil)
								if y < 0 || y >= size || (len(inside) > 0 && !inside[y]) {
									t.Fatalf("size %d k %d dil %d pad %d stride %d: output %d tap %d reads %d; the window's inside is %v", size, k, dil, pad, stride, o, j, y, inside)
								}
							}
						}
					}
				}
			}
		}
	}
}
