package npyconv

import (
	"fmt"
	"math"
	"slices"

	"github.com/x448/float16"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/npy"
)

// Compare checks an output against an expected array: same dtype and shape, floating-point
// elements within tol (NaN only where NaN is expected), integers and booleans exact. The error
// gives the worst difference.
func Compare(got *executor.Tensor, want *npy.Array, tol float64) error {
	worst, err := MaxAbsDiff(got, want)
	if err != nil {
		return err
	}
	limit := tol
	if st := got.ScalarType(); st != executor.Float32 && st != executor.Float64 && st != executor.Float16 {
		limit = 0
	}
	if worst > limit {
		return fmt.Errorf("max abs error %g > %g", worst, limit)
	}
	return nil
}

// MaxAbsDiff is the largest absolute elementwise difference between an output and an expected
// array of the same dtype and shape (+Inf where one is NaN and the other is not).
func MaxAbsDiff(got *executor.Tensor, want *npy.Array) (float64, error) {
	w, err := Tensor(want)
	if err != nil {
		return 0, err
	}
	if got.ScalarType() != w.ScalarType() || !slices.Equal(got.Sizes(), w.Sizes()) {
		return 0, fmt.Errorf("got %v, want %v", got, w)
	}
	gv, wv := asF64(got), asF64(w)
	if gv == nil || wv == nil {
		return 0, fmt.Errorf("cannot compare %v tensors", got.ScalarType())
	}
	worst := 0.0
	for i := range gv {
		d := math.Abs(gv[i] - wv[i])
		if math.IsNaN(gv[i]) != math.IsNaN(wv[i]) {
			d = math.Inf(1)
		} else if math.IsNaN(d) {
			d = 0 // NaN where NaN is expected
		}
		worst = max(worst, d)
	}
	return worst, nil
}

func asF64(t *executor.Tensor) []float64 {
	c := t.Clone()
	switch t.ScalarType() {
	case executor.Float32:
		v, _ := executor.Values[float32](c)
		return widen(v)
	case executor.Float64:
		v, _ := executor.Values[float64](c)
		return v
	case executor.Float16: // (raw bits: Values does not convert them)
		d := executor.Data[uint16](c)
		out := make([]float64, len(d))
		for i, b := range d {
			out[i] = float64(float16.Frombits(b).Float32())
		}
		return out
	case executor.Int64:
		v, _ := executor.Values[int64](c)
		return widen(v)
	case executor.Int32:
		v, _ := executor.Values[int32](c)
		return widen(v)
	case executor.Uint8:
		v, _ := executor.Values[uint8](c)
		return widen(v)
	case executor.Bool:
		v, _ := executor.Values[bool](c)
		out := make([]float64, len(v))
		for i, b := range v {
			if b {
				out[i] = 1
			}
		}
		return out
	}
	return nil
}

func widen[T int32 | int64 | uint8 | float32](v []T) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// MaxRelDiff is MaxAbsDiff over the largest finite magnitude of want: the relative error of a
// float32 output as a whole (integer and boolean outputs must be equal, else an error says by
// how much they differ).
func MaxRelDiff(got *executor.Tensor, want *npy.Array) (float64, error) {
	diff, err := MaxAbsDiff(got, want)
	if err != nil {
		return 0, err
	}
	if got.ScalarType() != executor.Float32 {
		if diff != 0 {
			return 0, fmt.Errorf("%s output differs by %g", executor.DTypeName(got.ScalarType()), diff)
		}
		return 0, nil
	}
	vals, err := npy.Values[float32](want)
	if err != nil {
		return 0, err
	}
	scale := 0.0
	for _, v := range vals {
		if !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) {
			scale = max(scale, math.Abs(float64(v)))
		}
	}
	if diff == 0 {
		return 0, nil
	}
	return diff / max(scale, 1e-30), nil
}
