package unboxgen

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/opschema"
)

// The two tests every library with generated unboxing runs (kernels/portable,
// kernels/optimized, kernels/quantized), here once so that they probe every library alike.

// CheckUpToDate fails t when dir's unbox_gen.go or unbox_gen_test.go is not what the schemas
// and the kernel names dir's source spells out give today (a kernel was added, or torch's
// schemas changed, without `go generate`), or when a kernel name has no schema.
func CheckUpToDate(t testing.TB, dir, pkg string) {
	t.Helper()
	names, unknown, err := KernelNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(unknown) > 0 {
		t.Errorf("kernel names with no schema in internal/opschema (run tools/reference/generate_opschema.py): %v", unknown)
	}
	for file, gen := range map[string]func(string, []string) ([]byte, error){
		"unbox_gen.go": Generate, "unbox_gen_test.go": GenerateTest,
	} {
		want, err := gen(pkg, names)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./kernels/%s", file, pkg)
		}
	}
}

// CheckKernels fails t unless every kernel unboxes its arguments as its schema says: on a call
// of the wrong length, and on calls whose arguments are all of the schema's types but one, it
// fails exactly as its generated unboxer (from the library's generatedUnboxers) does, naming
// that argument. This is what ties a kernel to the unboxer of its own schema (one that read
// another schema's arguments would name another argument, or none).
func CheckKernels(t testing.TB, kernels []executor.Kernel, unboxers map[string]func([]*executor.EValue) error) {
	t.Helper()
	for _, k := range kernels {
		s, ok := opschema.Out(k.Name)
		if !ok {
			t.Errorf("%s: no schema in internal/opschema", k.Name)
			continue
		}
		unbox := unboxers[k.Name]
		if unbox == nil {
			t.Errorf("%s: no generated unboxer (is its name spelled out in the source?)", k.Name)
			continue
		}
		n := len(s.Args) + 1
		probes := [][]*executor.EValue{make([]*executor.EValue, n-1), make([]*executor.EValue, n+1)}
		for i := range s.Args {
			probes = append(probes, Probe(t, s, i))
		}
		for _, args := range probes {
			want := unbox(args)
			got := k.Fn(&executor.KernelContext{Operator: k.Name}, args)
			if want == nil || got == nil || got.Error() != want.Error() {
				t.Errorf("%s: kernel says %v, its unboxer %v", k.Name, got, want)
			}
		}
	}
}

// Probe is a call of s whose every argument has a value of its type but argument bad, which
// has one of none of the types it accepts; the tensors are one-element float32 ones (the return
// slot holds one of them).
func Probe(t testing.TB, s *opschema.Schema, bad int) []*executor.EValue {
	t.Helper()
	args := make([]*executor.EValue, len(s.Args)+1)
	x, err := executor.FromSlice([]float32{1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	args[len(s.Args)] = &executor.EValue{Tag: executor.TagTensor, Tensor: x}
	for i, a := range s.Args {
		typ := opschema.ParseType(a.Type)
		switch {
		case i == bad && typ.Base == "str":
			args[i] = &executor.EValue{Tag: executor.TagTensor, Tensor: x}
		case i == bad:
			args[i] = &executor.EValue{Tag: executor.TagString, Str: "probe"}
		case typ.Optional:
			args[i] = &executor.EValue{Tag: executor.TagNone}
		case typ.IsTensor() && typ.List:
			args[i] = &executor.EValue{Tag: executor.TagTensorList}
		case typ.IsTensor():
			args[i] = &executor.EValue{Tag: executor.TagTensor, Tensor: x}
		case typ.List && typ.Base == "bool":
			args[i] = &executor.EValue{Tag: executor.TagBoolList, Bools: []bool{true}}
		case typ.List:
			args[i] = &executor.EValue{Tag: executor.TagIntList, IntRefs: []*executor.EValue{{Tag: executor.TagInt, Int: 1}}}
		case typ.Base == "float":
			args[i] = &executor.EValue{Tag: executor.TagDouble, Double: 1}
		case typ.Base == "bool":
			args[i] = &executor.EValue{Tag: executor.TagBool}
		case typ.Base == "str":
			args[i] = &executor.EValue{Tag: executor.TagString, Str: "probe"}
		default: // int, SymInt, Scalar, ScalarType, MemoryFormat
			args[i] = &executor.EValue{Tag: executor.TagInt, Int: 1}
		}
	}
	return args
}
