package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/etgo/etgo/executor"
)

// The official kernels' outputs on small inputs (tools/reference/generate_llm_op_cases.py): the
// inputs are rebuilt here by fill, exactly as the script built them.

type opCase struct {
	Op       string       `json:"op"`
	Name     string       `json:"name"`
	Q        []int        `json:"q"`
	KV       []int        `json:"kv"`
	StartPos int64        `json:"start_pos"`
	Causal   bool         `json:"causal"`
	Mask     []int        `json:"mask"`
	Scale    *float64     `json:"scale"`
	QSpec    [][2]any     `json:"q_special"`
	KSpec    [][2]any     `json:"k_special"`
	VSpec    [][2]any     `json:"v_special"`
	MaskSpec [][2]any     `json:"mask_special"`
	Value    []int        `json:"value"`
	Cache    []int        `json:"cache"`
	Out      []jsonNumber `json:"out"`
}

// jsonNumber is a float or one of "NaN", "Inf", "-Inf".
type jsonNumber float64

func (n *jsonNumber) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		v, err := special(s)
		*n = jsonNumber(v)
		return err
	}
	var f float64
	err := json.Unmarshal(b, &f)
	*n = jsonNumber(f)
	return err
}

func special(s string) (float64, error) {
	switch s {
	case "NaN":
		return math.NaN(), nil
	case "Inf":
		return math.Inf(1), nil
	case "-Inf":
		return math.Inf(-1), nil
	}
	return 0, fmt.Errorf("unknown special %q", s)
}

func loadCases(t *testing.T) []opCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "op_cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []opCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.Cases
}

// fill is the generator's fill: exact integer arithmetic, one float32 division.
func fill(t testing.TB, sizes []int, seed int, spec [][2]any) *executor.Tensor {
	t.Helper()
	n := 1
	for _, s := range sizes {
		n *= s
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(float64((i*7919+seed*104729)%2001-1000) / 1000.0)
	}
	for _, p := range spec {
		idx := int(p[0].(float64))
		x, err := special(p[1].(string))
		if err != nil {
			t.Fatal(err)
		}
		v[idx] = float32(x)
	}
	x, err := executor.FromSlice(v, sizes...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func tv(t *executor.Tensor) *executor.EValue {
	return &executor.EValue{Tag: executor.TagTensor, Tensor: t}
}
func iv(n int64) *executor.EValue   { return &executor.EValue{Tag: executor.TagInt, Int: n} }
func dv(d float64) *executor.EValue { return &executor.EValue{Tag: executor.TagDouble, Double: d} }
func bv(b bool) *executor.EValue    { return &executor.EValue{Tag: executor.TagBool, Bool: b} }
func nonev() *executor.EValue       { return &executor.EValue{Tag: executor.TagNone} }

func kernel(t testing.TB, name string) executor.KernelFunc {
	t.Helper()
	for _, k := range Kernels(2) {
		if k.Name == name {
			return k.Fn
		}
	}
	t.Fatalf("no kernel %s", name)
	return nil
}

// sameClass compares in class: NaN with NaN, ±Inf with the same infinity, finite values within
// tol relative (of max(1, |want|)).
func sameClass(got float32, want float64, tol float64) bool {
	g := float64(got)
	switch {
	case math.IsNaN(want):
		return math.IsNaN(g)
	case math.IsInf(want, 0):
		return g == want
	case math.IsNaN(g) || math.IsInf(g, 0):
		return false
	}
	return math.Abs(g-want) <= tol*math.Max(1, math.Abs(want))
}

func compareOut(t *testing.T, got []float32, want []jsonNumber, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d outputs, want %d", len(got), len(want))
	}
	bad := 0
	for i, w := range want {
		if !sameClass(got[i], float64(w), tol) {
			if bad++; bad <= 5 {
				t.Errorf("element %d: got %v, want %v", i, got[i], float64(w))
			}
		}
	}
	if bad > 5 {
		t.Errorf("... %d elements differ in all", bad)
	}
}

func isInvalid(err error) bool { return errors.Is(err, executor.ErrInvalidArgument) }
