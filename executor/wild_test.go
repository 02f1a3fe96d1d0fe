package executor_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/npy"
)

func runFile(t *testing.T, path, method string, inputs ...*executor.EValue) []*executor.EValue {
	t.Helper()
	p, err := executor.Open(path, executor.Options{Registry: portableRegistry(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m, err := p.LoadMethod(method)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	outs, err := m.Execute(context.Background(), inputs...)
	if err != nil {
		t.Fatal(err)
	}
	return outs
}

func f32s(t *testing.T, v *executor.EValue) []float32 {
	t.Helper()
	x, err := executor.Values[float32](v.Tensor)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// The wild add models, from the ExecuTorch repository, run.
func TestWildAddModels(t *testing.T) {
	wild := testutil.WildDir(t)
	x, _ := executor.FromSlice([]float32{1, -2, 3.5}, 3)
	out := runFile(t, filepath.Join(wild, "examples__arduino__examples__AddModel__model.pte"), "forward", tv(x))
	if got := f32s(t, out[0]); got[0] != 2 || got[1] != -1 || got[2] != 4.5 {
		t.Errorf("AddModel(x) = %v, want x + 1 = [2 -1 4.5]", got)
	}
	a, _ := executor.FromSlice([]float32{1.25}, 1)
	b, _ := executor.FromSlice([]float32{2.5}, 1)
	out = runFile(t, filepath.Join(wild, "extension__apple__ExecuTorch____tests____resources__add.pte"), "forward", tv(a), tv(b))
	if got := f32s(t, out[0]); got[0] != 3.75 {
		t.Errorf("add(1.25, 2.5) = %v", got)
	}
}

// Constant methods ("prim getters") return the traced values.
func TestConstantMethods(t *testing.T) {
	path := testutil.Testdata(t, "pte", "multi_method.pte")
	for method, want := range map[string]executor.EValue{
		"get_answer": {Tag: executor.TagInt, Int: 42},
		"get_scale":  {Tag: executor.TagDouble, Double: 0.5},
		"get_flag":   {Tag: executor.TagBool, Bool: true},
	} {
		out := runFile(t, path, method)
		if len(out) != 1 || out[0].Tag != want.Tag || out[0].Int != want.Int || out[0].Double != want.Double || out[0].Bool != want.Bool {
			t.Errorf("%s() = %v, want %v", method, out, &want)
		}
	}
}

// Weights kept in a .ptd are refused at load by name, not misread.
func TestExternalDataRefusedByName(t *testing.T) {
	err := loadErr(t, testutil.Testdata(t, "pte", "external_constants.pte"), "forward", portableRegistry(t))
	if !errors.Is(err, executor.ErrNotSupported) || !strings.Contains(err.Error(), "fc.") {
		t.Errorf("error %v, want ErrNotSupported naming the external tensor", err)
	}
}

// TestFormatFixturesRun runs the small official files of testdata/pte against the official
// runtime's outputs: a mutable buffer's state carried across calls, and two methods.
func TestFormatFixturesRun(t *testing.T) {
	load := func(rel ...string) *executor.Tensor {
		a, err := npy.Load(testutil.Testdata(t, append([]string{"pte"}, rel...)...))
		if err != nil {
			t.Fatal(err)
		}
		x, err := npyconv.Tensor(a)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	p, err := executor.Open(testutil.Testdata(t, "pte", "mutable_buffer.pte"), executor.Options{Registry: portableRegistry(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m, err := p.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	x := load("inputs", "mutable_buffer", "input_0.npy")
	var outs []*executor.Tensor
	for call := 0; call < 2; call++ {
		if outs, err = m.Run(context.Background(), x); err != nil {
			t.Fatal(err)
		}
	}
	if err := compareTensors(outs[0], load("outputs", "mutable_buffer", "forward_call2", "output_0.npy"), 0); err != nil {
		t.Errorf("mutable buffer after two calls: %v", err)
	}
	a, b := load("inputs", "multi_method", "input_0.npy"), load("inputs", "multi_method", "input_1.npy")
	for method, in := range map[string][]*executor.Tensor{"forward": {a}, "subtract": {a, b}} {
		var evs []*executor.EValue
		for _, x := range in {
			evs = append(evs, tv(x))
		}
		out := runFile(t, testutil.Testdata(t, "pte", "multi_method.pte"), method, evs...)
		if err := compareTensors(out[0].Tensor, load("outputs", "multi_method", method, "output_0.npy"), 0); err != nil {
			t.Errorf("%s: %v", method, err)
		}
	}
}

// compareTensors compares two tensors through npyconv.Compare (exact when tol is 0).
func compareTensors(got, want *executor.Tensor, tol float64) error {
	w, err := npyconv.Array(want)
	if err != nil {
		return err
	}
	return npyconv.Compare(got, w, tol)
}
