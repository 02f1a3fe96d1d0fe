package optimized

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/portable"
)

// TestNativeLayerNormOfficial replays the official runtime's native_layer_norm outputs
// (testdata/layer_norm.json, tools/reference/generate_layer_norm_cases.py): the optimized
// kernel must give them bit for bit on every case, and the portable one on rows shorter than
// 256, where ExecuTorch 1.5.1's optimized kernel runs the portable scalar code (longer rows
// take vectorized Welford moments there, which the portable kernel does not).
func TestNativeLayerNormOfficial(t *testing.T) {
	raw, err := os.ReadFile("testdata/layer_norm.json")
	if err != nil {
		t.Fatal(err)
	}
	type enc struct {
		DType string `json:"dtype"`
		Sizes []int  `json:"sizes"`
		Data  string `json:"data"`
	}
	var all []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		t.Fatal(err)
	}
	if len(all) < 12 {
		t.Fatalf("%d cases, want the generator's 12", len(all))
	}
	dtypes := map[string]executor.ScalarType{"float32": executor.Float32, "float64": executor.Float64, "float16": executor.Float16, "bfloat16": executor.BFloat16}
	tensor := func(t *testing.T, m map[string]json.RawMessage, key string) *executor.Tensor {
		var e enc
		if err := json.Unmarshal(m[key], &e); err != nil {
			t.Fatal(err)
		}
		dt, ok := dtypes[e.DType]
		if !ok {
			t.Fatalf("%s: dtype %q", key, e.DType)
		}
		x := newTensor(dt, e.Sizes...)
		b, err := base64.StdEncoding.DecodeString(e.Data)
		if err != nil || len(b) != len(x.Bytes()) {
			t.Fatalf("%s: %d bytes for %v %s (%v)", key, len(b), e.Sizes, e.DType, err)
		}
		copy(x.Bytes(), b)
		return x
	}
	for _, m := range all {
		var name string
		var eps float64
		var hasW, hasB bool
		for k, p := range map[string]any{"name": &name, "eps": &eps, "weight": &hasW, "bias": &hasB} {
			if err := json.Unmarshal(m[k], p); err != nil {
				t.Fatalf("%s: %v", k, err)
			}
		}
		t.Run(name, func(t *testing.T) {
			x := tensor(t, m, "x")
			n := x.Size(x.Dim() - 1)
			libs := []struct {
				name string
				ks   []executor.Kernel
			}{{"optimized", Kernels(2)}}
			if n < layerNormSmallN {
				libs = append(libs, struct {
					name string
					ks   []executor.Kernel
				}{"portable", portable.Kernels()})
			}
			for _, lib := range libs {
				var w, b any = none, none
				if hasW {
					w = tensor(t, m, "w")
				}
				if hasB {
					b = tensor(t, m, "b")
				}
				want := []*executor.Tensor{tensor(t, m, "y"), tensor(t, m, "mean"), tensor(t, m, "rstd")}
				outs := []*executor.Tensor{newTensor(x.ScalarType(), want[0].Sizes()...), newTensor(x.ScalarType(), want[1].Sizes()...), newTensor(x.ScalarType(), want[2].Sizes()...)}
				args := []any{x, []int64{int64(n)}, w, b, eps, outs[0], outs[1], outs[2], outs}
				evs := make([]*executor.EValue, len(args))
				for i, a := range args {
					evs[i] = ev(a)
				}
				if err := kernelFn(t, lib.ks, "aten::native_layer_norm.out")(&executor.KernelContext{Operator: "aten::native_layer_norm.out"}, evs); err != nil {
					t.Fatalf("%s: %v", lib.name, err)
				}
				for i, what := range []string{"out", "mean", "rstd"} {
					if err := sameTensor(outs[i], want[i], tol{}); err != nil {
						t.Errorf("%s %s: %v", lib.name, what, err)
					}
				}
			}
		})
	}
}
