package portable

import (
	"math"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/unbox"
)

func init() {
	register(executor.Kernel{Name: "aten::constant_pad_nd.out", DTypes: realBoolTypes, Fn: constantPadNdOut})
}

// aten::constant_pad_nd.out(Tensor self, SymInt[] pad, Scalar value=0, *, Tensor(a!) out).
//
// pad holds (before, after) pairs from the last dimension backwards; a negative pad crops,
// as in PyTorch (ExecuTorch's portable kernel refuses negative pads). value must fit the
// dtype (c10's overflow rule: a float value truncates into an integer dtype, a negative
// integer wraps into an unsigned one down to -max).
func constantPadNdOut(ctx *executor.KernelContext, args []*executor.EValue) error {
	u, err := unboxConstantPadNdOut(args)
	if err != nil {
		return err
	}
	in, pad, value, out := u.Self, u.Pad, u.Value, u.Out
	if err := poolDtype(in, "constant_pad_nd", realBoolTypes); err != nil {
		return err
	}
	if err := poolSameDtype(in, out, "out"); err != nil {
		return err
	}
	s := in.Sizes()
	rank := len(s)
	if len(pad)%2 != 0 {
		return unbox.ArgError(1, "pad", "length must be even, got %d", len(pad))
	}
	if len(pad)/2 > rank {
		return unbox.ArgError(1, "pad", "%d values pad more than the input's %d dimensions", len(pad), rank)
	}
	before := make([]int, rank)
	sizes := append([]int(nil), s...)
	for i := 0; i < len(pad)/2; i++ {
		d := rank - 1 - i
		if max(pad[2*i], pad[2*i+1]) > math.MaxInt32 || min(pad[2*i], pad[2*i+1]) < math.MinInt32 {
			return unbox.ArgError(1, "pad", "(%d, %d) is too large", pad[2*i], pad[2*i+1])
		}
		lo, hi := int(pad[2*i]), int(pad[2*i+1])
		// PyTorch crops (narrows) first: the negative pads alone must leave a size ≥ 0.
		if s[d]+min(lo, 0)+min(hi, 0) < 0 {
			return unbox.ArgError(1, "pad", "negative pads (%d, %d) crop more than the size %d of dimension %d", lo, hi, s[d], d)
		}
		before[d] = lo
		sizes[d] = s[d] + lo + hi
	}
	if !poolScalarFits(out.ScalarType(), value) {
		return unbox.ArgError(2, "value", "%v cannot be converted to %s without overflow", value.F, executor.DTypeName(out.ScalarType()))
	}
	if err := resize(out, sizes); err != nil {
		return err
	}
	fill, err := executor.NewTensor(out.ScalarType(), 1)
	if err != nil {
		return err
	}
	if value.IsFloat {
		storeF64(fill, []float64{value.F})
	} else {
		storeI64(fill, []int64{value.I})
	}
	return poolGather(in, out, poolPadIndex(s, sizes, before), fill)
}

// poolPadIndex maps each element of an out of sizes osz (row-major) to the input element of
// sizes isz it copies, or -1, when out coordinate c takes input coordinate c-before[d].
func poolPadIndex(isz, osz []int, before []int) []int {
	rank := len(osz)
	n := 1
	for _, d := range osz {
		n *= d
	}
	src := make([]int, n)
	if n == 0 {
		return src
	}
	if rank == 0 {
		return src // the single element copies element 0
	}
	istride := make([]int, rank)
	st := 1
	for d := rank - 1; d >= 0; d-- {
		istride[d] = st
		st *= isz[d]
	}
	idx := make([]int, rank)
	last := rank - 1
	for e := 0; e < n; {
		// Offset of the row's leading coordinates; -1 when one lies in the padding.
		base := 0
		for d := 0; d < last; d++ {
			c := idx[d] - before[d]
			if c < 0 || c >= isz[d] {
				base = -1
				break
			}
			base += c * istride[d]
		}
		for j := 0; j < osz[last]; j++ {
			c := j - before[last]
			if base < 0 || c < 0 || c >= isz[last] {
				src[e] = -1
			} else {
				src[e] = base + c
			}
			e++
		}
		for d := last - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < osz[d] {
				break
			}
			idx[d] = 0
		}
	}
	return src
}

// poolScalarFits is c10::overflows for a Scalar cast to dtype t: Bool targets and bool values
// always fit; floats fit a floating dtype within its range (Inf and NaN included); integers
// fit an integral dtype within its range, negative ones wrapping into unsigned dtypes down
// to -max.
func poolScalarFits(t executor.ScalarType, v scalar) bool {
	if v.IsBool || t == executor.Bool {
		return true
	}
	var fmax float64 // floating dtypes
	var lo, hi int64 // integral dtypes
	unsigned := false
	switch t {
	case executor.Float32:
		fmax = math.MaxFloat32
	case executor.Float64:
		fmax = math.MaxFloat64
	case executor.Float16:
		fmax = 65504
	case executor.BFloat16:
		fmax = float64(math.Float32frombits(0x7f7f0000))
	case executor.Uint8:
		hi, unsigned = math.MaxUint8, true
	case executor.Int8:
		lo, hi = math.MinInt8, math.MaxInt8
	case executor.Int16:
		lo, hi = math.MinInt16, math.MaxInt16
	case executor.Int32:
		lo, hi = math.MinInt32, math.MaxInt32
	case executor.Int64:
		lo, hi = math.MinInt64, math.MaxInt64
	default:
		return true
	}
	if fmax != 0 {
		f := v.F
		if !v.IsFloat {
			f = float64(v.I)
		}
		return math.IsInf(f, 0) || f != f || (f >= -fmax && f <= fmax)
	}
	if v.IsFloat {
		f := v.F
		if f != f || math.IsInf(f, 0) {
			return false
		}
		return f >= float64(lo) && f <= float64(hi)
	}
	if unsigned {
		return v.I <= hi && (v.I >= 0 || uint64(-v.I) <= uint64(hi))
	}
	return v.I >= lo && v.I <= hi
}
