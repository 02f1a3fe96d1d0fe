// Package unboxgen writes a kernel library's argument unboxing (kernels/portable/unbox_gen.go,
// kernels/optimized/unbox_gen.go, …)
// from the out-variant schemas in internal/opschema, so that no kernel re-types an argument's
// position, name or type by hand.
//
// For every kernel a library names in its source, it writes a function
// unbox<Kernel>(args) that checks the argument count (the schema's arguments plus the return
// slot) and each argument's tag, and returns a typed struct. Kernels whose schemas have the same
// arguments (names and types) share one struct type, so that one helper can serve a family
// (every unary op takes selfOutArgs). The reading itself is done by package kernels/unbox,
// shared by every library, so the value semantics are its: a Double argument
// accepts an Int, a Scalar keeps whether it was floating, an optional one is None or its value.
//
// It lives apart from its command (internal/cmd/unboxgen) so that a test of kernels/portable can
// regenerate the file and fail when it is stale, without the package importing the schema
// tables (a runtime-only binary must not carry them).
package unboxgen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/etgo/etgo/internal/opschema"
)

// class is how one schema type is unboxed: the Go type of its field and the unboxer method that
// reads it (kernels/unbox.Reader).
type class struct {
	name   string // the marker that tells two same-named signatures apart: "Scalar"
	goType string
	method string
}

var (
	clsTensor        = class{"Tensor", "*executor.Tensor", "Tensor"}
	clsOptTensor     = class{"OptTensor", "*executor.Tensor", "OptTensor"}
	clsTensorList    = class{"TensorList", "[]*executor.Tensor", "TensorList"}
	clsOptTensorList = class{"OptTensorList", "[]*executor.Tensor", "OptTensorList"}
	clsInt           = class{"Int", "int64", "Int"}
	clsOptInt        = class{"OptInt", "unbox.Optional[int64]", "OptInt"}
	clsIntList       = class{"IntList", "[]int64", "IntList"}
	clsOptIntList    = class{"OptIntList", "unbox.Optional[[]int64]", "OptIntList"}
	clsDouble        = class{"Double", "float64", "Double"}
	clsOptDouble     = class{"OptDouble", "unbox.Optional[float64]", "OptDouble"}
	clsOptDoubleList = class{"OptDoubleList", "unbox.Optional[[]float64]", "OptDoubleList"}
	clsBool          = class{"Bool", "bool", "Bool"}
	clsOptBool       = class{"OptBool", "unbox.Optional[bool]", "OptBool"}
	clsBoolList      = class{"BoolList", "[]bool", "BoolList"}
	clsScalar        = class{"Scalar", "unbox.Scalar", "Scalar"}
	clsOptScalar     = class{"OptScalar", "unbox.Optional[unbox.Scalar]", "OptScalar"}
	clsString        = class{"String", "string", "String"}
	clsOptString     = class{"OptString", "unbox.Optional[string]", "OptString"}
)

// classOf maps a schema type to its class. ScalarType, MemoryFormat and Layout arguments are
// Ints in a program (ExecuTorch emits them so).
func classOf(typ string) (class, error) {
	t := opschema.ParseType(typ)
	pick := func(plain, opt class) (class, error) {
		if t.Optional {
			return opt, nil
		}
		return plain, nil
	}
	switch {
	case t.Base == "Tensor" && t.List && t.ElemOptional && !t.Optional:
		return clsOptTensorList, nil
	case t.Base == "Tensor" && t.List && !t.ElemOptional && !t.Optional:
		return clsTensorList, nil
	case t.Base == "Tensor" && !t.List:
		return pick(clsTensor, clsOptTensor)
	case t.ElemOptional:
	case slices.Contains([]string{"int", "SymInt"}, t.Base) && t.List:
		return pick(clsIntList, clsOptIntList)
	case slices.Contains([]string{"int", "SymInt", "ScalarType", "MemoryFormat", "Layout"}, t.Base) && !t.List:
		return pick(clsInt, clsOptInt)
	case t.Base == "float" && t.List && t.Optional:
		return clsOptDoubleList, nil
	case t.Base == "float" && !t.List:
		return pick(clsDouble, clsOptDouble)
	case t.Base == "bool" && t.List && !t.Optional:
		return clsBoolList, nil
	case t.Base == "bool" && !t.List:
		return pick(clsBool, clsOptBool)
	case t.Base == "Scalar" && !t.List:
		return pick(clsScalar, clsOptScalar)
	case t.Base == "str" && !t.List:
		return pick(clsString, clsOptString)
	}
	return class{}, fmt.Errorf("no unboxing for schema type %q", typ)
}

// field is one argument of a kernel's struct.
type field struct {
	arg   string // schema name, "half_to_float"
	ident string // Go field, "HalfToFloat"
	typ   string // schema type, "bool"
	cls   class
}

// kernel is one kernel to unbox.
type kernel struct {
	name   string // "aten::add.out"
	ident  string // "AddOut"
	schema *opschema.Schema
	fields []field
	shape  *shape
}

// shape is a struct type shared by the kernels whose arguments have the same names and classes.
type shape struct {
	key     string
	name    string
	fields  []field
	kernels []*kernel
}

// kernelLiteral is how a kernel name looks in the portable library's source.
var kernelLiteral = regexp.MustCompile(`^[a-z_]+::[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)?$`)

// KernelNames returns the kernel names the Go files of dir spell out (tests and generated files
// excepted), and those of them opschema has no schema for.
func KernelNames(dir string) (names, unknown []string, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || strings.HasSuffix(f, "_gen.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		file, err := parser.ParseFile(fset, f, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !kernelLiteral.MatchString(s) || seen[s] {
				return true
			}
			seen[s] = true
			if _, ok := opschema.Out(s); ok {
				names = append(names, s)
			} else {
				unknown = append(unknown, s)
			}
			return true
		})
	}
	slices.Sort(names)
	slices.Sort(unknown)
	return names, unknown, nil
}

// Generate writes the unboxing of the named kernels as Go source of package pkg (portable,
// optimized, or any library that declares the short names scalar, optional and unboxFn for
// unbox's types).
func Generate(pkg string, names []string) ([]byte, error) {
	kernels, shapes, err := plan(names)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by internal/cmd/unboxgen from internal/opschema; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"github.com/etgo/etgo/executor\"\n\t\"github.com/etgo/etgo/kernels/unbox\"\n)\n", pkg)
	for _, s := range shapes {
		var ks []string
		for _, k := range s.kernels {
			ks = append(ks, k.name)
		}
		b.WriteString("\n")
		writeComment(&b, "", fmt.Sprintf("%s are the arguments of %s.", s.name, joinList(ks)))
		fmt.Fprintf(&b, "type %s struct {\n", s.name)
		for _, f := range s.fields {
			fmt.Fprintf(&b, "\t%s %s // %s %s\n", f.ident, f.cls.goType, f.typ, f.arg)
		}
		b.WriteString("}\n")
	}
	for _, k := range kernels {
		b.WriteString("\n")
		writeComment(&b, "", fmt.Sprintf("unbox%s checks and reads the arguments of %s, then the return slot.", k.ident, signature(k.schema)))
		fmt.Fprintf(&b, "func unbox%s(args []*executor.EValue) (%s, error) {\n", k.ident, k.shape.name)
		fmt.Fprintf(&b, "\tu := unbox.NewReader(args, %d)\n", len(k.fields)+1)
		fmt.Fprintf(&b, "\ta := %s{\n", k.shape.name)
		for i, f := range k.fields {
			fmt.Fprintf(&b, "\t\t%s: u.%s(%d, %q),\n", f.ident, f.cls.method, i, f.arg)
		}
		b.WriteString("\t}\n\treturn a, u.Err()\n}\n")
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("unboxgen: formatting the generated source: %w", err)
	}
	return src, nil
}

// GenerateTest writes a test-only table of every generated unboxer by kernel name, for the test
// that each registered kernel unboxes its arguments as its schema says.
func GenerateTest(pkg string, names []string) ([]byte, error) {
	kernels, _, err := plan(names)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by internal/cmd/unboxgen from internal/opschema; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package %s\n\nimport \"github.com/etgo/etgo/executor\"\n\n", pkg)
	b.WriteString("// generatedUnboxers holds every generated unboxer by kernel name.\n")
	b.WriteString("var generatedUnboxers = map[string]func([]*executor.EValue) error{\n")
	for _, k := range kernels {
		fmt.Fprintf(&b, "\t%q: func(args []*executor.EValue) error { _, err := unbox%s(args); return err },\n", k.name, k.ident)
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("unboxgen: formatting the generated test: %w", err)
	}
	return src, nil
}

// plan builds the kernels and their shared struct shapes, named so that the same input always
// gives the same names.
func plan(names []string) ([]*kernel, []*shape, error) {
	var kernels []*kernel
	byIdent := map[string]string{}
	byKey := map[string]*shape{}
	var shapes []*shape
	for _, name := range names {
		s, ok := opschema.Out(name)
		if !ok {
			return nil, nil, fmt.Errorf("unboxgen: no schema for kernel %s", name)
		}
		k := &kernel{name: name, ident: kernelIdent(name), schema: s}
		if other, dup := byIdent[k.ident]; dup {
			return nil, nil, fmt.Errorf("unboxgen: kernels %s and %s both name unbox%s", other, name, k.ident)
		}
		byIdent[k.ident] = name
		var key []string
		for _, a := range s.Args {
			c, err := classOf(a.Type)
			if err != nil {
				return nil, nil, fmt.Errorf("unboxgen: %s argument %s: %w", name, a.Name, err)
			}
			f := field{arg: a.Name, ident: camel(a.Name), typ: a.Type, cls: c}
			k.fields = append(k.fields, f)
			key = append(key, f.ident+":"+c.name)
		}
		sk := strings.Join(key, ",")
		sh := byKey[sk]
		if sh == nil {
			sh = &shape{key: sk, fields: k.fields}
			byKey[sk] = sh
			shapes = append(shapes, sh)
		}
		sh.kernels = append(sh.kernels, k)
		k.shape = sh
		kernels = append(kernels, k)
	}
	if err := nameShapes(shapes); err != nil {
		return nil, nil, err
	}
	slices.SortFunc(shapes, func(a, b *shape) int { return strings.Compare(a.name, b.name) })
	return kernels, shapes, nil
}

// maxNamedFields is the longest argument list a shape is named after: past it a name made of
// the arguments reads worse than the first kernel's name.
const maxNamedFields = 4

// nameShapes names each shape after its arguments ("selfOtherOutArgs"), with the class of the
// arguments that tell it from a same-named shape ("selfOtherScalarOutArgs"); a long shape after
// its first kernel ("avgPool2dOutArgs").
func nameShapes(shapes []*shape) error {
	byName := map[string][]*shape{}
	for _, s := range shapes {
		if len(s.fields) > maxNamedFields || len(s.fields) == 0 {
			s.name = lowerFirst(s.kernels[0].ident) + "Args"
			continue
		}
		var n strings.Builder
		for _, f := range s.fields {
			n.WriteString(f.ident)
		}
		s.name = lowerFirst(n.String()) + "Args"
		byName[s.name] = append(byName[s.name], s)
	}
	for _, group := range byName {
		if len(group) < 2 {
			continue
		}
		for _, s := range group {
			var n strings.Builder
			for i, f := range s.fields {
				n.WriteString(f.ident)
				for _, o := range group {
					if o.fields[i].cls != f.cls {
						n.WriteString(f.cls.name)
						break
					}
				}
			}
			s.name = lowerFirst(n.String()) + "Args"
		}
	}
	seen := map[string]bool{}
	for _, s := range shapes {
		if seen[s.name] {
			return fmt.Errorf("unboxgen: two argument shapes are both named %s", s.name)
		}
		seen[s.name] = true
	}
	return nil
}

// kernelIdent is a kernel's name in Go: "aten::add.Scalar_out" is AddScalarOut,
// "aten::_softmax.out" SoftmaxOut, "aten::copy_" (in place) CopyInplace. The namespace is left
// out; a clash is an error, not a silent rename.
func kernelIdent(name string) string {
	_, rest, _ := strings.Cut(name, "::")
	base, overload, _ := strings.Cut(rest, ".")
	id := camel(base)
	if strings.HasSuffix(base, "_") {
		id += "Inplace"
	}
	if overload != "default" {
		id += camel(overload)
	}
	return id
}

// camel joins the parts of a snake_case name, each with its first letter upper-cased.
func camel(s string) string {
	var b strings.Builder
	for _, p := range strings.Split(s, "_") {
		if p == "" {
			continue
		}
		r := []rune(p)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String()
}

func lowerFirst(s string) string {
	r := []rune(s)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

// signature renders a schema as torch writes it, without defaults.
func signature(s *opschema.Schema) string {
	var parts []string
	kw := false
	for _, a := range s.Args {
		if a.KwargOnly && !kw {
			parts = append(parts, "*")
			kw = true
		}
		parts = append(parts, a.Type+" "+a.Name)
	}
	return s.Name + "(" + strings.Join(parts, ", ") + ")"
}

func joinList(xs []string) string {
	switch len(xs) {
	case 1:
		return xs[0]
	case 2:
		return xs[0] + " and " + xs[1]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// writeComment writes text as // lines of at most about 100 columns.
func writeComment(b *bytes.Buffer, indent, text string) {
	line := indent + "//"
	for _, w := range strings.Fields(text) {
		if len(line)+1+len(w) > 100 && line != indent+"//" {
			b.WriteString(line + "\n")
			line = indent + "//"
		}
		line += " " + w
	}
	b.WriteString(line + "\n")
}
