package portable

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/runtime"
)

// Test harness: kernel tests build arguments from Go values and call kernels by name, as a
// program's KernelCall would.

// none is the None argument.
var none = struct{}{}

// ev turns a Go value into an EValue: *runtime.Tensor, int, int64, float64, bool, string,
// []int64 (IntList), []float64, []bool, []*runtime.Tensor (TensorList), none.
func ev(t testing.TB, v any) *runtime.EValue {
	t.Helper()
	switch v := v.(type) {
	case *runtime.Tensor:
		return &runtime.EValue{Tag: runtime.TagTensor, Tensor: v}
	case int:
		return &runtime.EValue{Tag: runtime.TagInt, Int: int64(v)}
	case int64:
		return &runtime.EValue{Tag: runtime.TagInt, Int: v}
	case float64:
		return &runtime.EValue{Tag: runtime.TagDouble, Double: v}
	case bool:
		return &runtime.EValue{Tag: runtime.TagBool, Bool: v}
	case string:
		return &runtime.EValue{Tag: runtime.TagString, Str: v}
	case []int64:
		l := &runtime.EValue{Tag: runtime.TagIntList}
		for _, x := range v {
			l.IntRefs = append(l.IntRefs, &runtime.EValue{Tag: runtime.TagInt, Int: x})
		}
		return l
	case []float64:
		return &runtime.EValue{Tag: runtime.TagDoubleList, Doubles: v}
	case []bool:
		return &runtime.EValue{Tag: runtime.TagBoolList, Bools: v}
	case []*runtime.Tensor:
		l := &runtime.EValue{Tag: runtime.TagTensorList}
		for _, x := range v {
			l.TensorRefs = append(l.TensorRefs, &runtime.EValue{Tag: runtime.TagTensor, Tensor: x})
		}
		return l
	case struct{}:
		return &runtime.EValue{Tag: runtime.TagNone}
	}
	t.Fatalf("ev: unsupported %T", v)
	return nil
}

// call runs the named kernel on args (Go values, see ev).
func call(t testing.TB, name string, args ...any) error {
	t.Helper()
	var k *runtime.Kernel
	for i := range kernels {
		if kernels[i].Name == name {
			k = &kernels[i]
		}
	}
	if k == nil {
		t.Fatalf("no kernel %s", name)
	}
	evs := make([]*runtime.EValue, len(args))
	for i, a := range args {
		evs[i] = ev(t, a)
	}
	return k.Fn(&runtime.KernelContext{Operator: name}, evs)
}

// tensor builds a contiguous tensor from values.
func tensor[T runtime.Element](t testing.TB, v []T, sizes ...int) *runtime.Tensor {
	t.Helper()
	x, err := runtime.FromSlice(v, sizes...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// empty builds a static zero tensor to use as out: kernels must produce exactly its sizes.
func empty(t testing.TB, dtype runtime.ScalarType, sizes ...int) *runtime.Tensor {
	t.Helper()
	x, err := runtime.NewTensor(dtype, sizes...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// dynamic builds a bounded dynamic out: kernels resize it within its upper bounds.
func dynamic(t testing.TB, dtype runtime.ScalarType, upper ...int) *runtime.Tensor {
	t.Helper()
	x, err := runtime.NewDynamicTensor(dtype, upper...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// wantValues checks a tensor's sizes and values (floats within tol, NaN matching NaN).
func wantValues[T runtime.Element](t testing.TB, got *runtime.Tensor, sizes []int, want []T, tol float64) {
	t.Helper()
	if !slices.Equal(got.Sizes(), sizes) {
		t.Fatalf("sizes %v, want %v", got.Sizes(), sizes)
	}
	v, err := runtime.Values[T](got)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		g, w := float64(toF(v[i])), float64(toF(want[i]))
		if math.IsNaN(w) && math.IsNaN(g) {
			continue
		}
		if math.Abs(g-w) > tol {
			t.Fatalf("element %d = %v, want %v (all: %v)", i, v[i], want[i], v)
		}
	}
}

func toF[T runtime.Element](x T) float64 {
	switch v := any(x).(type) {
	case bool:
		if v {
			return 1
		}
		return 0
	case float32:
		return float64(v)
	case float64:
		return v
	case int8:
		return float64(v)
	case int16:
		return float64(v)
	case int32:
		return float64(v)
	case int64:
		return float64(v)
	case uint8:
		return float64(v)
	case uint16:
		return float64(v)
	case uint32:
		return float64(v)
	case uint64:
		return float64(v)
	}
	return math.NaN()
}

// wantErr checks that err wraps ErrInvalidArgument and mentions text.
func wantErr(t testing.TB, err error, text string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one mentioning %q", text)
	}
	if !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("error %q does not wrap ErrInvalidArgument", err)
	}
	if !strings.Contains(err.Error(), text) {
		t.Errorf("error %q does not mention %q", err, text)
	}
}

// wantValuesAny checks sizes and values of a tensor of any type, as float64.
func wantValuesAny(t testing.TB, got *runtime.Tensor, sizes []int, want []float64) {
	t.Helper()
	if !slices.Equal(got.Sizes(), sizes) {
		t.Fatalf("sizes %v, want %v", got.Sizes(), sizes)
	}
	v := loadF64(got)
	if len(v) != len(want) {
		t.Fatalf("%d values, want %d: %v", len(v), len(want), v)
	}
	for i := range want {
		if !(math.IsNaN(want[i]) && math.IsNaN(v[i])) && math.Abs(v[i]-want[i]) > 1e-6*math.Max(1, math.Abs(want[i])) {
			t.Fatalf("element %d = %v, want %v (all: %v)", i, v[i], want[i], v)
		}
	}
}
