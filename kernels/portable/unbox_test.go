package portable

import (
	"bytes"
	"os"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/opschema"
	"github.com/etgo/etgo/internal/unboxgen"
)

// The generated unboxing must be what the schemas and this package's kernel names give today:
// a stale file means a kernel was added or torch's schemas changed without `go generate`.
func TestUnboxGenUpToDate(t *testing.T) {
	names, unknown, err := unboxgen.KernelNames(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(unknown) > 0 {
		t.Errorf("kernel names with no schema in internal/opschema (run tools/reference/generate_opschema.py): %v", unknown)
	}
	for file, gen := range map[string]func(string, []string) ([]byte, error){
		"unbox_gen.go": unboxgen.Generate, "unbox_gen_test.go": unboxgen.GenerateTest,
	} {
		want, err := gen("portable", names)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./kernels/portable", file)
		}
	}
}

// Every registered kernel with a schema unboxes its arguments as the schema says: on a call of
// the wrong length, and on calls whose arguments are all of the schema's types but one, it
// fails exactly as its generated unboxer does, naming that argument. This is what ties a
// kernel to the unboxer of its own schema (one that read another schema's arguments would name
// another argument, or none).
func TestKernelsUnboxAsTheirSchema(t *testing.T) {
	for _, k := range kernels {
		s, ok := opschema.Out(k.Name)
		if !ok {
			t.Errorf("%s: no schema in internal/opschema", k.Name)
			continue
		}
		unbox := generatedUnboxers[k.Name]
		if unbox == nil {
			t.Errorf("%s: no generated unboxer (is its name spelled out in the source?)", k.Name)
			continue
		}
		n := len(s.Args) + 1
		probes := [][]*executor.EValue{make([]*executor.EValue, n-1), make([]*executor.EValue, n+1)}
		for i := range s.Args {
			probes = append(probes, probe(t, s, i))
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

// probe is a call of s whose every argument has a value of its type but argument bad, which
// has one of none of the types it accepts.
func probe(t *testing.T, s *opschema.Schema, bad int) []*executor.EValue {
	args := make([]*executor.EValue, len(s.Args)+1)
	x := tensor(t, []float32{1}, 1)
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
