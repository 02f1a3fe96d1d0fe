package ir

// Type promotion as torch computes it (c10's promoteTypes and at::native::result_type), so that
// a graph rewritten ahead of time carries the dtypes torch's tracing would have recorded.

// IsIntegral reports an integer type (bool excluded).
func (d DType) IsIntegral() bool {
	switch d {
	case Uint8, Int8, Int16, Int32, Int64, Uint16, Uint32, Uint64:
		return true
	}
	return false
}

// bComplex32 is torch 2.15's complex of bfloat16 parts, which result_type gives a bfloat16
// tensor with a complex scalar; neither the .pt2 nor the .pte format has a code for it, so it
// only ever names the type of a result etgo cannot represent (its size is 0: emission refuses it).
const bComplex32 DType = -2

// PromoteTypes is c10::promoteTypes: the smallest type both a and b convert to without loss
// under torch's lattice (bool < integers < floating < complex; uint8 with a signed type needs
// the next wider signed one; float16 with bfloat16 is float32; a complex type with a float one
// is the complex of their parts' promotion, so float64 with complex64 is complex128).
func PromoteTypes(a, b DType) DType {
	if a == b {
		return a
	}
	switch {
	case a == Bool:
		return b
	case b == Bool:
		return a
	case a.IsComplex() && b.IsComplex(), a.IsComplex() && b.IsFloat(), a.IsFloat() && b.IsComplex():
		c, _ := PromoteTypes(a.ToReal(), b.ToReal()).ToComplex()
		return c
	case a.IsComplex():
		return a
	case b.IsComplex():
		return b
	case a.IsFloat() && b.IsFloat():
		if (a == Float16 && b == BFloat16) || (a == BFloat16 && b == Float16) {
			return Float32
		}
		if a.Size() >= b.Size() {
			return a
		}
		return b
	case a.IsFloat():
		return a
	case b.IsFloat():
		return b
	}
	// Both integral.
	ua, ub := isUnsigned(a), isUnsigned(b)
	switch {
	case ua == ub:
		if a.Size() >= b.Size() {
			return a
		}
		return b
	case ua: // a unsigned, b signed
		return signedWider(a, b)
	default:
		return signedWider(b, a)
	}
}

func isUnsigned(d DType) bool { return d == Uint8 || d == Uint16 || d == Uint32 || d == Uint64 }

// signedWider promotes unsigned u with signed s: s when it holds every value of u, else the next
// signed type wider than u (int64 at most, as torch does for uint64).
func signedWider(u, s DType) DType {
	if s.Size() > u.Size() {
		return s
	}
	switch u.Size() {
	case 1:
		return Int16
	case 2:
		return Int32
	}
	return Int64
}

// Operand is one input of an elementwise operator for result-type computation.
type Operand struct {
	DType DType
	// Rank0 is a 0-d tensor; Scalar a Python number (a wrapped number): each ranks below
	// tensors with dims within a category.
	Rank0, Scalar bool
}

// TensorOperand describes a tensor for ResultType.
func TensorOperand(m *TensorMeta) Operand { return Operand{DType: m.DType, Rank0: len(m.Sizes) == 0} }

// ScalarOperand describes a Python number: int64 for an int, the default float (float32) for a
// float, bool for a bool. (A Python complex would be the default complex, complex64; no
// argument kind etgo reads holds one.)
func ScalarOperand(kind ArgKind) Operand {
	switch kind {
	case ArgFloat:
		return Operand{DType: Float32, Scalar: true}
	case ArgBool:
		return Operand{DType: Bool, Scalar: true}
	}
	return Operand{DType: Int64, Scalar: true}
}

// ResultType is at::result_type over the operands: tensors with dims decide, unless a 0-d
// tensor or a scalar is of a higher category (bool < integral < floating < complex), in which
// case the result moves to that category (a scalar float makes an int tensor's result the
// default float; a complex 0-d tensor makes a float tensor's result the complex of that float:
// float64 with a 0-d complex64 is complex128, an int tensor's result is the complex type).
func ResultType(ops ...Operand) DType {
	const undefined DType = -1
	dim, zero, wrapped := undefined, undefined, undefined
	up := func(cur, d DType) DType {
		if cur == undefined {
			return d
		}
		return PromoteTypes(cur, d)
	}
	for _, o := range ops {
		switch {
		case o.Scalar:
			wrapped = up(wrapped, o.DType)
		case o.Rank0:
			zero = up(zero, o.DType)
		default:
			dim = up(dim, o.DType)
		}
	}
	combine := func(higher, lower DType) DType {
		switch {
		case higher != undefined && higher.IsComplex():
			return higher
		case lower != undefined && lower.IsComplex():
			if higher != undefined && higher.IsFloat() {
				if c, ok := higher.ToComplex(); ok {
					return c
				}
				return bComplex32
			}
			return lower
		case higher != undefined && higher.IsFloat():
			return higher
		case higher == Bool || (lower != undefined && lower.IsFloat()):
			if higher == undefined {
				return lower
			}
			if lower == undefined {
				return higher
			}
			return PromoteTypes(higher, lower)
		case higher != undefined:
			return higher
		}
		return lower
	}
	r := combine(dim, combine(zero, wrapped))
	if r == undefined {
		return Float32
	}
	return r
}
