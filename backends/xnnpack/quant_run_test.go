package xnnpack

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/runtime"
)

// TestQuantFixturesSplit runs testdata/quant with even these small layers split across threads
// (runtime's TestQuantXnnpack runs them as a user would, where they are too small to split): the
// quantized kernels' row partitions must not change a single code.
func TestQuantFixturesSplit(t *testing.T) {
	saved := minParallelWork
	minParallelWork = 0
	defer func() { minParallelWork = saved }()
	dirs, _ := filepath.Glob(testutil.Testdata(t, "quant", "*"))
	if len(dirs) == 0 {
		t.Fatal("no quantized fixtures")
	}
	for _, threads := range []int{2, 3} {
		reg := runtime.NewRegistry()
		if err := portable.Register(reg); err != nil {
			t.Fatal(err)
		}
		if err := reg.RegisterBackend(BackendID, Backend{Threads: threads}); err != nil {
			t.Fatal(err)
		}
		for _, dir := range dirs {
			t.Run(fmt.Sprintf("%s/threads=%d", filepath.Base(dir), threads), func(t *testing.T) {
				prog, err := runtime.Open(filepath.Join(dir, "xnnpack.pte"), runtime.Options{Registry: reg})
				if err != nil {
					t.Fatal(err)
				}
				defer prog.Close()
				meth, err := prog.LoadMethod("forward")
				if err != nil {
					t.Fatal(err)
				}
				defer meth.Close()
				in, err := npy.Load(filepath.Join(dir, "inputs", "input_0.npy"))
				if err != nil {
					t.Fatal(err)
				}
				x, err := npyconv.Tensor(in)
				if err != nil {
					t.Fatal(err)
				}
				want, err := npy.Load(filepath.Join(dir, "expected", "output_0.npy"))
				if err != nil {
					t.Fatal(err)
				}
				exp, err := want.Float64s()
				if err != nil {
					t.Fatal(err)
				}
				for run := 0; run < 2; run++ { // the second run reuses the plan's memory
					outs, err := meth.Run(context.Background(), x)
					if err != nil {
						t.Fatal(err)
					}
					got := runtime.Data[float32](outs[0])
					for i := range got {
						if math.Float32bits(got[i]) != math.Float32bits(float32(exp[i])) {
							t.Fatalf("run %d: output %d = %g, official %g", run, i, got[i], exp[i])
						}
					}
				}
			})
		}
	}
}
