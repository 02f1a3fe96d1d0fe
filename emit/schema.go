package emit

import (
	"fmt"
	"strings"
)

// Schema is an out variant's signature as torch declares it. The emitter needs all of it, not
// just the name: a node read from a .pt2 omits the arguments left at their default, while a
// KernelCall lists every argument in schema order (defaults included), then the out
// arguments' return values.
type Schema struct {
	Name    string // kernel name, "aten::add.out"
	Args    []SchemaArg
	Returns int // how many values the operator returns (0 for split_with_sizes_copy.out)
}

// SchemaArg is one argument of a Schema.
type SchemaArg struct {
	Name string
	// Type is the type as the schema spells it, alias annotations removed: "Tensor",
	// "Tensor?", "Tensor[]", "Tensor?[]", "int", "int[2]", "SymInt[]", "int[1]?", "float",
	// "bool", "Scalar", "ScalarType?", "MemoryFormat?", "str?".
	Type      string
	KwargOnly bool
	Out       bool
	Default   *Default // nil when the argument is required
}

// DefaultKind says what a Default holds.
type DefaultKind uint8

const (
	DefaultNone DefaultKind = iota + 1
	DefaultInt              // also dtype, layout and memory-format defaults, as the Int ExecuTorch emits
	DefaultFloat
	DefaultBool
	DefaultString
	DefaultInts
	DefaultFloats
	DefaultBools
)

// Default is a schema argument's default value.
type Default struct {
	Kind   DefaultKind
	Int    int64
	Float  float64
	Bool   bool
	Str    string
	Ints   []int64
	Floats []float64
	Bools  []bool
}

// OutSchema returns the schema of an out-variant kernel ("aten::add.out").
func OutSchema(kernel string) (*Schema, error) {
	if s, ok := outSchemas[kernel]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("%w: no schema for kernel %s", ErrNoOutVariant, kernel)
}

// argType is a parsed SchemaArg.Type.
type argType struct {
	base     string // "Tensor", "int", "SymInt", "float", "bool", "Scalar", "ScalarType", "str", ...
	list     bool   // T[] or T[N]
	optional bool   // the whole argument may be None (T? or T[]?)
	elemOpt  bool   // list items may be None (Tensor?[])
}

func parseArgType(s string) argType {
	var t argType
	if strings.HasSuffix(s, "?") {
		t.optional = true
		s = strings.TrimSuffix(s, "?")
	}
	if i := strings.IndexByte(s, '['); i >= 0 && strings.HasSuffix(s, "]") {
		t.list = true
		s = s[:i]
		if strings.HasSuffix(s, "?") {
			t.elemOpt = true
			s = strings.TrimSuffix(s, "?")
		}
	}
	if i := strings.IndexByte(s, '('); i >= 0 { // alias annotation, "Tensor(a!)"
		s = s[:i]
	}
	t.base = s
	return t
}

func (t argType) isTensor() bool { return t.base == "Tensor" }
