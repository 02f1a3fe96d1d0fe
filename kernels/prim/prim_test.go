package prim_test

import (
	"context"
	"fmt"
	"github.com/etgo/etgo/backends/all"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/kernels/prim"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/npy"
	"github.com/etgo/etgo/pte"
)

func kernel(t *testing.T, name string) executor.KernelFunc {
	t.Helper()
	for _, k := range prim.Kernels() {
		if k.Name == name {
			return k.Fn
		}
	}
	t.Fatalf("no kernel %s", name)
	return nil
}

func i(v int64) *executor.EValue   { return &executor.EValue{Tag: executor.TagInt, Int: v} }
func d(v float64) *executor.EValue { return &executor.EValue{Tag: executor.TagDouble, Double: v} }
func b(v bool) *executor.EValue    { return &executor.EValue{Tag: executor.TagBool, Bool: v} }
func show(v *executor.EValue) string {
	return fmt.Sprintf("%s(%v)", v.Tag, map[executor.Tag]any{executor.TagInt: v.Int, executor.TagDouble: v.Double, executor.TagBool: v.Bool}[v.Tag])
}

func TestScalarOps(t *testing.T) {
	x, err := executor.NewTensor(executor.Float32, 2, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	tv := &executor.EValue{Tag: executor.TagTensor, Tensor: x}
	one, _ := executor.FromSlice([]float32{2.5}, 1)
	f := &executor.EValue{Tag: executor.TagTensor, Tensor: one}
	for _, tc := range []struct {
		op   string
		args []*executor.EValue
		want string // the result, or the start of the error
	}{
		{"aten::sym_size.int", []*executor.EValue{tv, i(1)}, "Int(3)"},
		{"aten::sym_size.int", []*executor.EValue{tv, i(-1)}, "Int(4)"},
		{"aten::sym_size.int", []*executor.EValue{tv, i(3)}, "error: invalid argument: aten::sym_size.int: dim 3 out of range"},
		{"aten::sym_size.int", []*executor.EValue{i(1), i(0)}, "error: invalid argument: aten::sym_size.int: takes a Tensor, got Int"},
		{"aten::sym_numel", []*executor.EValue{tv}, "Int(24)"},
		{"aten::_local_scalar_dense", []*executor.EValue{f}, "Double(2.5)"},
		{"executorch_prim::add.Scalar", []*executor.EValue{i(2), i(3)}, "Int(5)"},
		{"executorch_prim::add.Scalar", []*executor.EValue{i(2), d(0.5)}, "Double(2.5)"},
		{"executorch_prim::sub.Scalar", []*executor.EValue{d(1), i(3)}, "Double(-2)"},
		{"executorch_prim::mul.Scalar", []*executor.EValue{i(4), i(-3)}, "Int(-12)"},
		{"executorch_prim::mul.Scalar", []*executor.EValue{b(true), i(3)}, "error: invalid argument: executorch_prim::mul.Scalar: takes an Int or a Double, got Bool"},
		{"executorch_prim::floordiv.Scalar", []*executor.EValue{i(-7), i(2)}, "Int(-4)"},
		{"executorch_prim::floordiv.Scalar", []*executor.EValue{i(7), i(2)}, "Int(3)"},
		{"executorch_prim::floordiv.Scalar", []*executor.EValue{i(-8), i(2)}, "Int(-4)"},
		{"executorch_prim::floordiv.Scalar", []*executor.EValue{d(-7), d(2)}, "Double(-4)"},
		{"executorch_prim::floordiv.Scalar", []*executor.EValue{d(-1), i(0)}, "Double(-Inf)"},
		{"executorch_prim::floordiv.Scalar", []*executor.EValue{i(1), i(0)}, "error: invalid argument: executorch_prim::floordiv.Scalar: integer division by zero"},
		{"executorch_prim::truediv.Scalar", []*executor.EValue{i(7), i(2)}, "Double(3.5)"},
		{"executorch_prim::floordiv.int", []*executor.EValue{i(-7), i(2)}, "Int(-3)"}, // C++ truncation, as ExecuTorch
		{"executorch_prim::mod.int", []*executor.EValue{i(-7), i(2)}, "Int(-1)"},
		{"executorch_prim::mod.Scalar", []*executor.EValue{i(7), i(0)}, "error: invalid argument: executorch_prim::mod.Scalar: integer division by zero"},
		{"executorch_prim::sym_max.Scalar", []*executor.EValue{i(7), i(2)}, "Int(7)"},
		{"executorch_prim::sym_min.Scalar", []*executor.EValue{i(7), d(2)}, "error: invalid argument: executorch_prim::sym_min.Scalar: takes two Ints, got Int and Double"},
		{"executorch_prim::sym_float.Scalar", []*executor.EValue{i(3)}, "Double(3)"},
		{"executorch_prim::sym_int.Scalar", []*executor.EValue{d(-3.7)}, "Int(-3)"},
		{"executorch_prim::sym_int.Scalar", []*executor.EValue{d(math.NaN())}, "error: invalid argument: executorch_prim::sym_int.Scalar: NaN does not fit an Int"},
		{"executorch_prim::eq.Scalar", []*executor.EValue{i(3), d(3)}, "Bool(true)"},
		{"executorch_prim::lt.Scalar", []*executor.EValue{b(false), b(true)}, "Bool(true)"},
		{"executorch_prim::ge.Scalar", []*executor.EValue{d(math.NaN()), d(1)}, "Bool(false)"},
		{"executorch_prim::gt.Scalar", []*executor.EValue{i(4), i(3)}, "Bool(true)"},
		{"executorch_prim::le.Scalar", []*executor.EValue{i(4), i(3)}, "Bool(false)"},
		{"executorch_prim::neg.Scalar", []*executor.EValue{i(4)}, "Int(-4)"},
		{"executorch_prim::sym_not.Scalar", []*executor.EValue{b(false)}, "Bool(true)"},
		{"executorch_prim::sym_ite.Scalar", []*executor.EValue{b(false), i(1), d(2)}, "Double(2)"},
		{"executorch_prim::ceil.Scalar", []*executor.EValue{d(2.1)}, "Int(3)"},
		{"executorch_prim::round.Scalar", []*executor.EValue{d(2.5)}, "Int(2)"}, // half to even, as Python
		{"executorch_prim::round.Scalar", []*executor.EValue{d(3.5)}, "Int(4)"},
		{"executorch_prim::trunc.Scalar", []*executor.EValue{d(-2.9)}, "Int(-2)"},
		{"executorch_prim::trunc.Scalar", []*executor.EValue{i(2)}, "error: invalid argument: executorch_prim::trunc.Scalar: takes a Double, got Int"},
	} {
		t.Run(tc.op+" "+tc.want, func(t *testing.T) {
			out := &executor.EValue{}
			err := kernel(t, tc.op)(&executor.KernelContext{}, append(tc.args, out))
			got := "error: " + fmt.Sprint(err)
			if err == nil {
				got = show(out)
			}
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	// Wrong arity is refused, not indexed past.
	if err := kernel(t, "executorch_prim::add.Scalar")(&executor.KernelContext{}, []*executor.EValue{i(1), i(2)}); err == nil {
		t.Error("add.Scalar with two values (no return slot) succeeded")
	}
}

func intList(vs ...int64) *executor.EValue {
	l := &executor.EValue{Tag: executor.TagIntList}
	for _, v := range vs {
		l.IntRefs = append(l.IntRefs, i(v))
	}
	return l
}

func TestEtView(t *testing.T) {
	self, _ := executor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	view := kernel(t, "executorch_prim::et_view.default")
	for _, tc := range []struct {
		name string
		size *executor.EValue
		want string
	}{
		{"infer", intList(3, -1), "[3 2]"},
		{"explicit", intList(1, 6), "[1 6]"},
		{"two -1", intList(-1, -1), "at most one dim can be -1"},
		{"negative", intList(-2, 3), "negative size"},
		{"zero with -1", intList(0, -1), "cannot infer a dim alongside a zero dim"},
		{"numel", intList(4, 2), "cannot view 6 elements as [4 2]"},
		{"rank", intList(6), "has 1 dims, out has 2"},
		{"huge", intList(1<<40, 1<<40), "more elements than any tensor holds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The out tensor a program declares for a dynamic view: bounded, 8 elements of room.
			out, _ := executor.NewTensor(executor.Float32, 8, 1)
			outV := &executor.EValue{Tag: executor.TagTensor, Tensor: out}
			err := view(&executor.KernelContext{}, []*executor.EValue{{Tag: executor.TagTensor, Tensor: self}, tc.size, outV})
			if err != nil {
				if !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %v, want %q", err, tc.want)
				}
				return
			}
			if fmt.Sprint(out.Sizes()) != tc.want {
				t.Errorf("sizes %v, want %s", out.Sizes(), tc.want)
			}
		})
	}
}

func TestEtCopyIndex(t *testing.T) {
	to, _ := executor.NewTensor(executor.Float32, 3, 2)
	row, _ := executor.FromSlice([]float32{7, 8}, 2)
	copyIndex := kernel(t, "executorch_prim::et_copy_index.tensor")
	args := func(idx int64) []*executor.EValue {
		return []*executor.EValue{{Tag: executor.TagTensor, Tensor: to}, {Tag: executor.TagTensor, Tensor: row}, i(idx)}
	}
	// A static copy_to can only be "resized" to its own sizes: the last row.
	if err := copyIndex(&executor.KernelContext{}, args(2)); err != nil {
		t.Fatal(err)
	}
	if got := executor.Data[float32](to); fmt.Sprint(got) != "[0 0 0 0 7 8]" {
		t.Errorf("copy_to %v", got)
	}
	for _, idx := range []int64{0, -1, 3} {
		if err := copyIndex(&executor.KernelContext{}, args(idx)); err == nil {
			t.Errorf("index %d into a static [3 2] accepted", idx)
		}
	}
}

// TestDynamicPrograms runs the official toolchain's programs whose shapes are known only at run
// time, at several sizes of the dynamic dim, with one Method (views re-point every run). They
// need the primitive operators: sym_size, symbolic arithmetic, et_view.
func TestDynamicPrograms(t *testing.T) {
	dir := testutil.Testdata(t, "prim", "dynamic_view")
	f, err := pte.Open(filepath.Join(dir, "portable.pte"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runCases(t, f, dir)
}

// TestDynamicLowered lowers the same .pt2 with etgo (portable only) and runs it the same way:
// etgo's emission must produce the primitive operators too.
func TestDynamicLowered(t *testing.T) {
	dir := testutil.Testdata(t, "prim", "dynamic_view")
	prog, err := pt2.Open(filepath.Join(dir, "model.pt2"))
	if err != nil {
		t.Fatal(err)
	}
	edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{})
	if err != nil {
		t.Fatal(err)
	}
	contents, err := lower.ToExecuTorch(edge.Plan, all.Registry())
	if err != nil {
		t.Fatal(err)
	}
	data, err := pte.Write(contents, pte.DefaultWriteOptions)
	if err != nil {
		t.Fatal(err)
	}
	f, err := pte.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	official, err := pte.Open(filepath.Join(dir, "portable.pte"))
	if err != nil {
		t.Fatal(err)
	}
	defer official.Close()
	if got, want := f.RequiredOperators(), official.RequiredOperators(); !slices.Equal(got, want) {
		t.Errorf("etgo's program needs\n %v\nthe official one\n %v", got, want)
	}
	runCases(t, f, dir)
}

func runCases(t *testing.T, f *pte.File, dir string) {
	t.Helper()
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := prim.Register(reg); err != nil {
		t.Fatal(err)
	}
	cases, err := os.ReadDir(filepath.Join(dir, "inputs"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := executor.NewProgram(f, executor.Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m, err := p.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, c := range cases {
		in, err := npy.Load(filepath.Join(dir, "inputs", c.Name(), "input_0.npy"))
		if err != nil {
			t.Fatal(err)
		}
		x, err := npyconv.Tensor(in)
		if err != nil {
			t.Fatal(err)
		}
		outs, err := m.Run(context.Background(), x)
		if err != nil {
			t.Errorf("%s: %v", c.Name(), err)
			continue
		}
		for k, o := range outs {
			want, err := npy.Load(filepath.Join(dir, "expected", c.Name(), fmt.Sprintf("output_%d.npy", k)))
			if err != nil {
				t.Fatal(err)
			}
			if err := npyconv.Compare(o, want, 1e-5); err != nil {
				t.Errorf("%s output %d: %v", c.Name(), k, err)
			}
		}
	}
}
