package optimized

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/portable"
)

// Differential harness: every optimized kernel is run beside the portable kernel of the same
// name on the same arguments (each with its own out tensors), and their results must agree:
// bitwise, or within the kernel's stated tolerance, NaN matching NaN and infinities exactly.

var none = struct{}{}

// ev turns a Go value into an EValue (as the portable harness does).
func ev(v any) *executor.EValue {
	switch v := v.(type) {
	case *executor.Tensor:
		return &executor.EValue{Tag: executor.TagTensor, Tensor: v}
	case int:
		return &executor.EValue{Tag: executor.TagInt, Int: int64(v)}
	case int64:
		return &executor.EValue{Tag: executor.TagInt, Int: v}
	case float64:
		return &executor.EValue{Tag: executor.TagDouble, Double: v}
	case bool:
		return &executor.EValue{Tag: executor.TagBool, Bool: v}
	case string:
		return &executor.EValue{Tag: executor.TagString, Str: v}
	case []int64:
		l := &executor.EValue{Tag: executor.TagIntList}
		for _, x := range v {
			l.IntRefs = append(l.IntRefs, &executor.EValue{Tag: executor.TagInt, Int: x})
		}
		return l
	case []*executor.Tensor:
		l := &executor.EValue{Tag: executor.TagTensorList}
		for _, x := range v {
			l.TensorRefs = append(l.TensorRefs, &executor.EValue{Tag: executor.TagTensor, Tensor: x})
		}
		return l
	case struct{}:
		return &executor.EValue{Tag: executor.TagNone}
	}
	panic(fmt.Sprintf("ev: unsupported %T", v)) // test-only: a harness bug
}

func kernelFn(t testing.TB, ks []executor.Kernel, name string) executor.KernelFunc {
	t.Helper()
	for _, k := range ks {
		if k.Name == name {
			return k.Fn
		}
	}
	t.Fatalf("no kernel %s", name)
	return nil
}

// tol is how far an optimized float result may be from the portable one: |got-want| <=
// abs + rel·|want|. The zero tol is bitwise equality.
type tol struct{ abs, rel float64 }

// differ runs name's optimized and portable kernels on the arguments build returns (called
// twice, so each run has fresh outs; inputs are rebuilt identically from the same seed) and
// compares every tensor argument afterwards, and whether both failed.
func differ(t *testing.T, name string, tl tol, build func(r *rand.Rand) []any) {
	t.Helper()
	run := func(fn executor.KernelFunc) ([]any, error) {
		vals := build(rand.New(rand.NewPCG(1, 2)))
		evs := make([]*executor.EValue, len(vals))
		for i, v := range vals {
			evs[i] = ev(v)
		}
		return vals, fn(&executor.KernelContext{Operator: name}, evs)
	}
	want, werr := run(kernelFn(t, portable.Kernels(), name))
	got, gerr := run(kernelFn(t, Kernels(2), name))
	if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
		t.Fatalf("%s: optimized error %v, portable %v", name, gerr, werr)
	}
	if werr != nil {
		t.Logf("both refuse: %v", werr)
		return
	}
	for i := range want {
		w, ok := want[i].(*executor.Tensor)
		if !ok {
			continue
		}
		if err := sameTensor(got[i].(*executor.Tensor), w, tl); err != nil {
			t.Fatalf("%s: argument %d: %v", name, i, err)
		}
	}
}

func sameTensor(g, w *executor.Tensor, tl tol) error {
	if fmt.Sprint(g.Sizes()) != fmt.Sprint(w.Sizes()) || g.ScalarType() != w.ScalarType() {
		return fmt.Errorf("%v %s, want %v %s", g.Sizes(), executor.DTypeName(g.ScalarType()), w.Sizes(), executor.DTypeName(w.ScalarType()))
	}
	if g.ScalarType() == executor.Float32 && tl == (tol{}) {
		// Bitwise, except that a NaN's sign and payload mean nothing (PyTorch makes no promise
		// about them, and x86 propagates the first operand's NaN, which depends on how an
		// expression is ordered).
		gv, _ := executor.Values[float32](g)
		wv, _ := executor.Values[float32](w)
		for j := range wv {
			a, b := gv[j], wv[j]
			if a != a && b != b {
				continue
			}
			if math.Float32bits(a) != math.Float32bits(b) {
				return fmt.Errorf("element %d = %v (%#08x), want %v (%#08x)", j, a, math.Float32bits(a), b, math.Float32bits(b))
			}
		}
		return nil
	}
	if g.ScalarType() != executor.Float32 {
		if gb, wb := g.Bytes(), w.Bytes(); !bytes.Equal(gb, wb) {
			for j := range wb {
				if gb[j] != wb[j] {
					return fmt.Errorf("bytes differ from byte %d (element %d of %d-byte elements): % x, want % x", j, j/executor.ElementSize(w.ScalarType()), executor.ElementSize(w.ScalarType()), gb[j&^3:min(len(gb), j&^3+8)], wb[j&^3:min(len(wb), j&^3+8)])
				}
			}
		}
		return nil
	}
	gv, _ := executor.Values[float32](g)
	wv, _ := executor.Values[float32](w)
	for j := range wv {
		a, b := float64(gv[j]), float64(wv[j])
		switch {
		case math.IsNaN(b) || math.IsNaN(a):
			if math.IsNaN(a) != math.IsNaN(b) {
				return fmt.Errorf("element %d = %v, want %v", j, a, b)
			}
		case math.IsInf(b, 0) || math.IsInf(a, 0):
			if a != b {
				return fmt.Errorf("element %d = %v, want %v", j, a, b)
			}
		case math.Abs(a-b) > tl.abs+tl.rel*math.Abs(b):
			return fmt.Errorf("element %d = %v, want %v (tolerance %+v)", j, a, b, tl)
		}
	}
	return nil
}

// specials are the non-finite and edge values sprinkled into random inputs.
var specials = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e30, -1e30, 1e-40}

// randTensor is a tensor of dtype with values ~N(0, scale²); when special, about one element
// in 16 is one of specials. Integer dtypes get small integers.
func randTensor(r *rand.Rand, dt executor.ScalarType, special bool, scale float64, sizes ...int) *executor.Tensor {
	var sp []float64
	if special {
		sp = specials
	}
	return randTensorOf(r, dt, sp, scale, sizes...)
}

// randTensorOf is randTensor with the special values sp (none when empty).
func randTensorOf(r *rand.Rand, dt executor.ScalarType, sp []float64, scale float64, sizes ...int) *executor.Tensor {
	x, err := executor.NewTensor(dt, sizes...)
	if err != nil {
		panic(err) // test-only
	}
	n := x.Numel()
	f := make([]float64, n)
	for i := range f {
		f[i] = r.NormFloat64() * scale
		if len(sp) > 0 && r.IntN(16) == 0 {
			f[i] = sp[r.IntN(len(sp))]
		}
	}
	switch dt {
	case executor.Float32:
		d := executor.Data[float32](x)
		for i := range d {
			d[i] = float32(f[i])
		}
	case executor.Float64:
		copy(executor.Data[float64](x), f)
	case executor.Int64:
		d := executor.Data[int64](x)
		for i := range d {
			d[i] = int64(r.IntN(19) - 9)
		}
	case executor.Int32:
		d := executor.Data[int32](x)
		for i := range d {
			d[i] = int32(r.IntN(19) - 9)
		}
	}
	return x
}

func newTensor(dt executor.ScalarType, sizes ...int) *executor.Tensor {
	x, err := executor.NewTensor(dt, sizes...)
	if err != nil {
		panic(err) // test-only
	}
	return x
}

// TestEveryKernelHasPortable: every optimized kernel overrides a portable one (the reference it
// is tested against and falls back to).
func TestEveryKernelHasPortable(t *testing.T) {
	for _, k := range kernels {
		if _, ok := portableKernels[k.name]; !ok {
			t.Errorf("%s has no portable kernel", k.name)
		}
	}
}

// TestRegisterOverrides: with both libraries registered, in either order, the optimized
// kernels are the ones found.
func TestRegisterOverrides(t *testing.T) {
	for _, first := range []string{"portable", "optimized"} {
		reg := executor.NewRegistry()
		steps := []func(*executor.Registry) error{portable.Register, func(r *executor.Registry) error { return Register(r, 2) }}
		if first == "optimized" {
			steps[0], steps[1] = steps[1], steps[0]
		}
		for _, s := range steps {
			if err := s(reg); err != nil {
				t.Fatal(err)
			}
		}
		pk := map[string]executor.KernelFunc{}
		for _, k := range portable.Kernels() {
			pk[k.Name] = k.Fn
		}
		for _, k := range kernels {
			got, ok := reg.Kernel(k.name)
			if !ok || fmt.Sprintf("%p", got.Fn) == fmt.Sprintf("%p", pk[k.name]) {
				t.Errorf("%s first: %s is not the optimized kernel", first, k.name)
			}
		}
	}
}
