package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::_softmax.out", DTypes: floatTypes, Fn: softmaxOut})
}

// aten::_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out):
// exp(x - max) / sum(exp(x - max)) along dim, out of self's floating dtype. half_to_float is
// refused (as on CPU). As the official kernel does, float32, float16 and bfloat16 compute in
// float32 (the max, x - max, expf, the running sum from the first term, the division) and
// float64 in float64; contiguous float32 reads and writes the tensors directly.
// _log_softmax (whose official runtime kernel is the optimized library's) keeps float64.
func softmaxOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	a, err := unboxSoftmaxOut(args)
	if err != nil {
		return err
	}
	return softmaxCommon(a, false)
}

// softmaxCommon serves _softmax and _log_softmax, whose arguments match.
func softmaxCommon(a selfDimHalfToFloatOutArgs, log bool) error {
	self, dim, halfToFloat, out := a.Self, a.Dim, a.HalfToFloat, a.Out
	if halfToFloat {
		return unbox.ArgError(2, "half_to_float", "half to float conversion is not supported")
	}
	if !isFloat(self.ScalarType()) {
		return unbox.ArgError(0, "self", "want a floating tensor, got %s", executor.DTypeName(self.ScalarType()))
	}
	if out.ScalarType() != self.ScalarType() {
		return unbox.ArgError(3, "out", "out is %s; it must have the input's dtype %s", executor.DTypeName(out.ScalarType()), executor.DTypeName(self.ScalarType()))
	}
	d, err := unbox.NormDim(dim, self.Dim(), 1, "dim")
	if err != nil {
		return err
	}
	if err := resize(out, self.Sizes()); err != nil {
		return err
	}
	outer, n, inner := reduceSplit(self.Sizes(), d)
	if !log && self.ScalarType() != executor.Float64 {
		if reduceContiguousF32(self, out) {
			softmaxLinesF32(executor.Data[float32](self), executor.Data[float32](out), outer, n, inner)
			return nil
		}
		x := loadF64(self)
		softmaxLinesF32(x, x, outer, n, inner)
		storeF64(out, x)
		return nil
	}
	if reduceContiguousF32(self, out) {
		softmaxLines(executor.Data[float32](self), executor.Data[float32](out), outer, n, inner, log)
		return nil
	}
	x := loadF64(self)
	softmaxLines(x, x, outer, n, inner, log)
	storeF64(out, x)
	return nil
}

// softmaxLines computes (log_)softmax of each line of n elements, stride inner, of x into y
// (which may be x). A NaN, or a line whose max is infinite, gives NaN, as in PyTorch.
func softmaxLines[T float32 | float64](x, y []T, outer, n, inner int, log bool) {
	if outer*n*inner == 0 {
		return
	}
	var scratch []float64
	if !log {
		scratch = make([]float64, n)
	}
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			base := o*n*inner + i
			m := math.Inf(-1)
			for k := 0; k < n; k++ {
				if v := float64(x[base+k*inner]); v > m || v != v {
					m = v
					if v != v {
						break
					}
				}
			}
			sum := 0.0
			if log {
				for k := 0; k < n; k++ {
					sum += math.Exp(float64(x[base+k*inner]) - m)
				}
				ls := math.Log(sum)
				for k := 0; k < n; k++ {
					j := base + k*inner
					y[j] = T(float64(x[j]) - m - ls)
				}
				continue
			}
			for k := 0; k < n; k++ {
				e := math.Exp(float64(x[base+k*inner]) - m)
				scratch[k] = e
				sum += e
			}
			for k := 0; k < n; k++ {
				y[base+k*inner] = T(scratch[k] / sum)
			}
		}
	}
}

// softmaxLinesF32 is softmax in float32 arithmetic over lines as softmaxLines lays them out,
// the official kernel's order of operations: the max by std::max (a later element replaces
// the running max unless it is smaller), the sum of exp(x - max) from the first term, each
// exp(x - max) / sum. T holds float32 values (float16 and bfloat16 widen exactly).
func softmaxLinesF32[T float32 | float64](x, y []T, outer, n, inner int) {
	if outer*n*inner == 0 {
		return
	}
	expf := func(v float32) float32 { return float32(math.Exp(float64(v))) } // glibc expf: correctly rounded on the sweep
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			base := o*n*inner + i
			m := float32(x[base])
			for k := 1; k < n; k++ {
				if v := float32(x[base+k*inner]); !(v < m) {
					m = v
				}
			}
			sum := expf(float32(x[base]) - m)
			for k := 1; k < n; k++ {
				sum += expf(float32(x[base+k*inner]) - m)
			}
			for k := 0; k < n; k++ {
				j := base + k*inner
				y[j] = T(expf(float32(x[j])-m) / sum)
			}
		}
	}
}
