package executor

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/etgo/etgo/pte"
	"github.com/etgo/etgo/pte/schema"
)

// ScalarType is a tensor's element type, numbered as ExecuTorch (and c10) number them.
type ScalarType = schema.ScalarType

// The scalar types etgo's kernels compute with.
const (
	Uint8    = schema.ScalarTypeBYTE
	Int8     = schema.ScalarTypeCHAR
	Int16    = schema.ScalarTypeSHORT
	Int32    = schema.ScalarTypeINT
	Int64    = schema.ScalarTypeLONG
	Float16  = schema.ScalarTypeHALF
	Float32  = schema.ScalarTypeFLOAT
	Float64  = schema.ScalarTypeDOUBLE
	Bool     = schema.ScalarTypeBOOL
	BFloat16 = schema.ScalarTypeBFLOAT16
	Uint16   = schema.ScalarTypeUINT16
	Uint32   = schema.ScalarTypeUINT32
	Uint64   = schema.ScalarTypeUINT64
)

// ElementSize returns the bytes of one element (0 for an unknown type).
func ElementSize(t ScalarType) int {
	n, _ := pte.ElementSize(t)
	return n
}

// DTypeName is torch's name for a scalar type ("float32", ...).
func DTypeName(t ScalarType) string { return pte.DTypeName(t) }

// MaxRank is the largest rank a tensor may have (ExecuTorch's kTensorDimensionLimit).
const MaxRank = pte.MaxRank

// Shape dynamism of a tensor, as the program declares it.
const (
	Static         = schema.TensorShapeDynamismSTATIC
	DynamicBound   = schema.TensorShapeDynamismDYNAMIC_BOUND
	DynamicUnbound = schema.TensorShapeDynamismDYNAMIC_UNBOUND
)

// Tensor is an n-dimensional array: a scalar type, sizes, a dim order, and the bytes that hold
// its elements. Its memory is owned by whoever made it: a Method's planned buffers, the mapped
// program file (constants, read-only), or the caller (NewTensor, FromSlice).
type Tensor struct {
	dtype    ScalarType
	sizes    []int
	dimOrder []uint8
	strides  []int
	data     []byte
	// capacity is the number of elements the memory holds (the upper bound of a dynamic tensor).
	capacity int
	dynamism schema.TensorShapeDynamism
	readOnly bool
}

// NewTensor returns a zero-filled contiguous tensor owned by the caller.
func NewTensor(dtype ScalarType, sizes ...int) (*Tensor, error) {
	es := ElementSize(dtype)
	if es == 0 {
		return nil, fmt.Errorf("runtime: unknown scalar type %d", dtype)
	}
	n, err := numel(sizes)
	if err != nil {
		return nil, err
	}
	if n > math.MaxInt/es {
		return nil, fmt.Errorf("runtime: tensor of %v %s is too large", sizes, DTypeName(dtype))
	}
	t := &Tensor{dtype: dtype, sizes: slices.Clone(sizes), dimOrder: contiguousOrder(len(sizes)), data: make([]byte, n*es), capacity: n}
	t.strides = stridesFor(t.sizes, t.dimOrder)
	return t, nil
}

// FromSlice returns a contiguous tensor holding a copy of v with the given sizes.
func FromSlice[T Element](v []T, sizes ...int) (*Tensor, error) {
	t, err := NewTensor(ScalarTypeOf[T](), sizes...)
	if err != nil {
		return nil, err
	}
	if len(v) != t.capacity {
		return nil, fmt.Errorf("runtime: %d values for sizes %v (%d elements)", len(v), sizes, t.capacity)
	}
	copy(Data[T](t), v)
	return t, nil
}

// FromBytes returns a tensor over data (not copied): sizes in contiguous order, elements
// little-endian. data must hold exactly the tensor's bytes.
func FromBytes(dtype ScalarType, sizes []int, data []byte) (*Tensor, error) {
	t, err := NewTensor(dtype, sizes...)
	if err != nil {
		return nil, err
	}
	if len(data) != len(t.data) {
		return nil, fmt.Errorf("runtime: %d bytes for %s%v, which needs %d", len(data), DTypeName(dtype), sizes, len(t.data))
	}
	t.data = alignedFor(data, ElementSize(dtype))
	return t, nil
}

func numel(sizes []int) (int, error) {
	if len(sizes) > MaxRank {
		return 0, fmt.Errorf("runtime: rank %d exceeds %d", len(sizes), MaxRank)
	}
	n := uint64(1)
	for i, d := range sizes {
		if d < 0 {
			return 0, fmt.Errorf("runtime: dimension %d is negative (%d)", i, d)
		}
		hi, lo := bits.Mul64(n, uint64(d))
		if hi != 0 || lo > math.MaxInt>>1 { // headroom for byte counts; 2^62 on 64-bit machines
			return 0, fmt.Errorf("runtime: sizes %v are too large", sizes)
		}
		n = lo
	}
	return int(n), nil
}

func contiguousOrder(rank int) []uint8 {
	o := make([]uint8, rank)
	for i := range o {
		o[i] = uint8(i)
	}
	return o
}

// stridesFor derives element strides from sizes and a dim order (outermost dimension first).
func stridesFor(sizes []int, dimOrder []uint8) []int {
	s := make([]int, len(sizes))
	step := 1
	for i := len(dimOrder) - 1; i >= 0; i-- {
		d := dimOrder[i]
		s[d] = step
		step *= max(sizes[d], 1)
	}
	return s
}

// alignedFor returns b, or a copy of it when its start is not aligned for elements of size es:
// typed views reinterpret the bytes in place.
func alignedFor(b []byte, es int) []byte {
	if len(b) == 0 || uintptr(unsafe.Pointer(&b[0]))%uintptr(es) == 0 {
		return b
	}
	return slices.Clone(b)
}

// ScalarType returns the element type.
func (t *Tensor) ScalarType() ScalarType { return t.dtype }

// Sizes returns the current sizes (do not modify).
func (t *Tensor) Sizes() []int { return t.sizes }

// Size returns the size of dimension d; negative d counts from the end.
func (t *Tensor) Size(d int) int {
	if d < 0 {
		d += len(t.sizes)
	}
	return t.sizes[d]
}

// Dim is the rank.
func (t *Tensor) Dim() int { return len(t.sizes) }

// DimOrder returns the dim order (do not modify).
func (t *Tensor) DimOrder() []uint8 { return t.dimOrder }

// Strides returns the element strides derived from the dim order (do not modify).
func (t *Tensor) Strides() []int { return t.strides }

// Numel is the number of elements at the current sizes.
func (t *Tensor) Numel() int {
	n := 1
	for _, d := range t.sizes {
		n *= d
	}
	return n
}

// NBytes is the size of the elements at the current sizes.
func (t *Tensor) NBytes() int { return t.Numel() * ElementSize(t.dtype) }

// Bytes returns the elements' bytes at the current sizes (aliases the tensor's memory).
func (t *Tensor) Bytes() []byte { return t.data[:t.NBytes()] }

// IsContiguous reports whether the dim order is the default 0, 1, ..., n-1.
func (t *Tensor) IsContiguous() bool {
	for i, d := range t.dimOrder {
		if int(d) != i {
			return false
		}
	}
	return true
}

// ReadOnly reports memory a kernel must not write: a constant in the program file, or a view of one.
func (t *Tensor) ReadOnly() bool { return t.readOnly }

// Dynamism is the shape dynamism the program declared.
func (t *Tensor) Dynamism() schema.TensorShapeDynamism { return t.dynamism }

// Resize sets new sizes, as ExecuTorch's resize_tensor does: a static tensor only to its own
// sizes, a dynamic one within the capacity planned for its upper bound.
func (t *Tensor) Resize(sizes []int) error {
	if len(sizes) != len(t.sizes) {
		return fmt.Errorf("%w: cannot resize a rank-%d tensor to %v", ErrInvalidArgument, len(t.sizes), sizes)
	}
	if slices.Equal(sizes, t.sizes) {
		return nil
	}
	if t.dynamism == Static {
		return fmt.Errorf("%w: cannot resize a static tensor of sizes %v to %v", ErrInvalidArgument, t.sizes, sizes)
	}
	n, err := numel(sizes)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidArgument, err)
	}
	if n > t.capacity {
		return fmt.Errorf("%w: sizes %v (%d elements) exceed the tensor's planned capacity of %d elements", ErrInvalidArgument, sizes, n, t.capacity)
	}
	if n*ElementSize(t.dtype) > len(t.data) {
		// A view (ViewOf) holds only its source's bytes.
		return fmt.Errorf("%w: sizes %v (%d elements) exceed the %d bytes this view of another tensor holds", ErrInvalidArgument, sizes, n, len(t.data))
	}
	copy(t.sizes, sizes)
	t.strides = stridesFor(t.sizes, t.dimOrder)
	return nil
}

// ViewOf makes t a view of src with new sizes, sharing src's memory, as ExecuTorch's et_view
// does for a view whose shape is only known at run time: t is resized (within the bounds the
// program declared for it) and its data re-pointed at src's. Both must have the same scalar
// type and element count, and src must be contiguous. A view of a constant is read-only.
func (t *Tensor) ViewOf(src *Tensor, sizes []int) error {
	if t.dtype != src.dtype {
		return fmt.Errorf("%w: a %s view of a %s tensor", ErrInvalidArgument, DTypeName(t.dtype), DTypeName(src.dtype))
	}
	if !src.IsContiguous() {
		return fmt.Errorf("%w: a view of a tensor that is not contiguous (dim order %v)", ErrInvalidArgument, src.dimOrder)
	}
	if !t.IsContiguous() {
		return fmt.Errorf("%w: a view with dim order %v", ErrInvalidArgument, t.dimOrder)
	}
	if len(sizes) != len(t.sizes) {
		return fmt.Errorf("%w: cannot view as rank %d a rank-%d tensor", ErrInvalidArgument, len(sizes), len(t.sizes))
	}
	n, err := numel(sizes)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidArgument, err)
	}
	if n != src.Numel() {
		return fmt.Errorf("%w: cannot view %d elements as %v (%d elements)", ErrInvalidArgument, src.Numel(), sizes, n)
	}
	if !slices.Equal(sizes, t.sizes) {
		if t.dynamism == Static {
			return fmt.Errorf("%w: cannot resize a static view of sizes %v to %v", ErrInvalidArgument, t.sizes, sizes)
		}
		if n > t.capacity {
			return fmt.Errorf("%w: view sizes %v (%d elements) exceed the bound of %d elements the program declared", ErrInvalidArgument, sizes, n, t.capacity)
		}
	}
	copy(t.sizes, sizes)
	t.strides = stridesFor(t.sizes, t.dimOrder)
	t.data = src.data[:src.NBytes():src.NBytes()]
	t.readOnly = src.readOnly
	return nil
}

// Clone returns a contiguous-memory copy owned by the caller, with the same sizes and dim order.
func (t *Tensor) Clone() *Tensor {
	c := &Tensor{dtype: t.dtype, sizes: slices.Clone(t.sizes), dimOrder: slices.Clone(t.dimOrder),
		strides: slices.Clone(t.strides), data: slices.Clone(t.Bytes()), capacity: t.Numel(), dynamism: t.dynamism}
	return c
}

// String renders "float32[1,3,8,8]".
func (t *Tensor) String() string {
	return fmt.Sprintf("%s%v", DTypeName(t.dtype), t.sizes)
}

// Element lists the Go types that hold tensor elements.
type Element interface {
	~bool | ~uint8 | ~int8 | ~int16 | ~int32 | ~int64 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// ScalarTypeOf maps a Go element type to its scalar type. uint16 maps to Uint16; Float16 and
// BFloat16 elements are read as raw uint16 bits through Data[uint16].
func ScalarTypeOf[T Element]() ScalarType {
	var z T
	switch any(z).(type) {
	case bool:
		return Bool
	case uint8:
		return Uint8
	case int8:
		return Int8
	case int16:
		return Int16
	case int32:
		return Int32
	case int64:
		return Int64
	case uint16:
		return Uint16
	case uint32:
		return Uint32
	case uint64:
		return Uint64
	case float32:
		return Float32
	case float64:
		return Float64
	}
	return -1
}

// Data returns the tensor's elements at its current sizes as a typed slice over its memory (no
// copy). T must have the element size of the tensor's type; the caller is responsible for
// matching the type (kernels switch on ScalarType first).
func Data[T Element](t *Tensor) []T {
	n := t.Numel()
	if n == 0 {
		return nil
	}
	var z T
	if int(unsafe.Sizeof(z)) != ElementSize(t.dtype) {
		panic(fmt.Sprintf("executor.Data: %T elements for a %s tensor", z, DTypeName(t.dtype)))
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&t.data[0])), n)
}

// Values returns a copy of the elements in logical (row-major) order, whatever the dim order.
// T must match the scalar type exactly.
func Values[T Element](t *Tensor) ([]T, error) {
	if want := ScalarTypeOf[T](); want != t.dtype {
		return nil, fmt.Errorf("runtime: tensor holds %s, not %s", DTypeName(t.dtype), DTypeName(want))
	}
	src := Data[T](t)
	if t.IsContiguous() {
		return slices.Clone(src), nil
	}
	out := make([]T, t.Numel())
	idx := make([]int, len(t.sizes))
	for i := range out {
		off := 0
		for d, x := range idx {
			off += x * t.strides[d]
		}
		out[i] = src[off]
		for d := len(idx) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < t.sizes[d] {
				break
			}
			idx[d] = 0
		}
	}
	return out, nil
}

// NewDynamicTensor returns a zero-filled tensor with bounded dynamic shape: it starts at its
// upper bounds and Resize accepts any sizes of the same rank within that many elements.
func NewDynamicTensor(dtype ScalarType, upperBounds ...int) (*Tensor, error) {
	t, err := NewTensor(dtype, upperBounds...)
	if err != nil {
		return nil, err
	}
	t.dynamism = DynamicBound
	return t, nil
}

// CopyTensor copies src's elements into dst, which must have the same scalar type and sizes;
// their dim orders may differ (the copy converts).
func CopyTensor(dst, src *Tensor) error {
	if dst.dtype != src.dtype || !slices.Equal(dst.sizes, src.sizes) {
		return fmt.Errorf("%w: cannot copy %v into %v", ErrInvalidArgument, src, dst)
	}
	copyTensor(dst, src)
	return nil
}

// NewTensorWithDimOrder returns a zero-filled tensor whose memory follows dimOrder (outermost
// dimension first, e.g. [0, 2, 3, 1] for channels-last NCHW).
func NewTensorWithDimOrder(dtype ScalarType, sizes []int, dimOrder []uint8) (*Tensor, error) {
	t, err := NewTensor(dtype, sizes...)
	if err != nil {
		return nil, err
	}
	if len(dimOrder) != len(sizes) {
		return nil, fmt.Errorf("runtime: dim order %v for rank %d", dimOrder, len(sizes))
	}
	seen := make([]bool, len(sizes))
	for _, d := range dimOrder {
		if int(d) >= len(sizes) || seen[d] {
			return nil, fmt.Errorf("runtime: dim order %v is not a permutation of 0..%d", dimOrder, len(sizes)-1)
		}
		seen[d] = true
	}
	t.dimOrder = slices.Clone(dimOrder)
	t.strides = stridesFor(t.sizes, t.dimOrder)
	return t, nil
}
