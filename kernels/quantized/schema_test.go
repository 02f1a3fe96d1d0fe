package quantized_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/kernels/quantized"
)

type schemaArg struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Out  bool   `json:"out"`
}

// TestKernelsReadTheirSchema ties every kernel to its schema as torch registers it
// (testdata/schemas.json, tools/reference/generate_quantized_kernel_fixtures.py): the registry
// has exactly the official library's operators, each refuses a call one argument short or
// long, and, on its valid call with argument i replaced by a value of a type the schema does
// not allow there, refuses it naming argument i by the schema's name.
func TestKernelsReadTheirSchema(t *testing.T) {
	raw, err := os.ReadFile("testdata/schemas.json")
	if err != nil {
		t.Fatal(err)
	}
	var schemas map[string][]schemaArg
	if err := json.Unmarshal(raw, &schemas); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, k := range quantized.Kernels() {
		names = append(names, k.Name)
	}
	var official []string
	for n := range schemas {
		official = append(official, n)
	}
	slices.Sort(names)
	slices.Sort(official)
	if !slices.Equal(names, official) {
		t.Fatalf("kernels %v, the official library registers %v", names, official)
	}
	calls := validCalls()
	for _, k := range quantized.Kernels() {
		s := schemas[k.Name]
		c := calls[slices.IndexFunc(calls, func(c fuzzCall) bool { return c.name == k.Name })]
		if len(c.args) != len(s)+1 {
			t.Fatalf("%s: the valid call has %d arguments, the schema %d and the return slot", k.Name, len(c.args), len(s))
		}
		ctx := &executor.KernelContext{Operator: k.Name}
		for _, n := range []int{len(s), len(s) + 2} {
			args := slices.Clone(c.args)
			if n < len(args) {
				args = args[:n]
			} else {
				args = append(args, args[len(args)-1])
			}
			if err := k.Fn(ctx, args); err == nil || !strings.Contains(err.Error(), "the schema takes") {
				t.Errorf("%s with %d arguments: err = %v", k.Name, n, err)
			}
		}
		for i, a := range s {
			args := slices.Clone(c.args)
			args[i] = wrongFor(a.Type)
			err := k.Fn(ctx, args)
			if want := fmt.Sprintf("argument %d (%s)", i, a.Name); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: argument %d of type %s replaced by a %s: err = %v, want one naming %q", k.Name, i, a.Type, args[i].Tag, err, want)
			}
		}
	}
}

// wrongFor is a value of a type the schema type does not accept.
func wrongFor(typ string) *executor.EValue {
	if strings.HasPrefix(typ, "Tensor") {
		return &executor.EValue{Tag: executor.TagBool, Bool: true}
	}
	return &executor.EValue{Tag: executor.TagTensor, Tensor: must(executor.NewTensor(executor.Float32, 1))}
}
