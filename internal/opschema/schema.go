package opschema

import (
	"slices"
	"strings"
)

// Schema is an operator's signature as torch declares it. For an out variant the emitter needs
// all of it, not just the name: a node read from a .pt2 omits the arguments left at their
// default, while a KernelCall lists every argument in schema order (defaults included), then
// the out arguments' return values.
type Schema struct {
	Name    string // "aten::add.out" (a functional schema's: "aten::add.Tensor")
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

// Arg returns the named argument of the schema.
func (s *Schema) Arg(name string) (*SchemaArg, bool) {
	for i := range s.Args {
		if s.Args[i].Name == name {
			return &s.Args[i], true
		}
	}
	return nil, false
}

// Functional returns the functional schema of an Edge operator ("aten.add.Tensor").
func Functional(target string) (*Schema, bool) {
	s, ok := functional[target]
	return s, ok
}

// Out returns the schema of an out-variant kernel ("aten::add.out"), or of another kernel the
// portable library registers ("aten::copy_").
func Out(kernel string) (*Schema, bool) {
	s, ok := out[kernel]
	return s, ok
}

// OutKernels lists, sorted, every kernel Out knows.
func OutKernels() []string {
	ks := make([]string, 0, len(out))
	for k := range out {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// OutVariant returns the kernel to_executorch calls for an Edge operator ("aten.add.Tensor"
// runs as "aten::add.out"); ok is false when the table does not know the operator.
func OutVariant(target string) (kernel string, ok bool) {
	k, ok := outVariants[target]
	return k, ok
}

// NoOutVariant reports whether an Edge operator is known to have no out variant (it cannot run
// as a kernel).
func NoOutVariant(target string) bool { return noOutVariant[target] }

// Type is a parsed SchemaArg.Type.
type Type struct {
	Base         string // "Tensor", "int", "SymInt", "float", "bool", "Scalar", "ScalarType", "str", ...
	List         bool   // T[] or T[N]
	Optional     bool   // the whole argument may be None (T? or T[]?)
	ElemOptional bool   // list items may be None (Tensor?[])
}

// ParseType parses a schema type ("Tensor?", "int[2]", "Tensor?[]", "Tensor(a!)").
func ParseType(s string) Type {
	var t Type
	if strings.HasSuffix(s, "?") {
		t.Optional = true
		s = strings.TrimSuffix(s, "?")
	}
	if i := strings.IndexByte(s, '['); i >= 0 && strings.HasSuffix(s, "]") {
		t.List = true
		s = s[:i]
		if strings.HasSuffix(s, "?") {
			t.ElemOptional = true
			s = strings.TrimSuffix(s, "?")
		}
	}
	if i := strings.IndexByte(s, '('); i >= 0 { // alias annotation, "Tensor(a!)"
		s = s[:i]
	}
	t.Base = s
	return t
}

// IsTensor reports whether the type's base is Tensor (a Tensor, an optional one or a list).
func (t Type) IsTensor() bool { return t.Base == "Tensor" }
