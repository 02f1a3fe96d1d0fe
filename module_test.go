package etgo_test

import (
	"bytes"
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/etgo/etgo"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/npy"
)

const mlp = "testdata/zoo/mlp/xnnpack.pte"

func mlpInput(t *testing.T) *etgo.Tensor {
	t.Helper()
	x, err := etgo.ReadNPY("testdata/zoo/mlp/inputs/input_0.npy")
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestConcurrentForward: goroutines sharing one Module get the official runtime's outputs.
func TestConcurrentForward(t *testing.T) {
	m, err := etgo.Load(mlp, etgo.WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	want, err := npy.Load("testdata/zoo/mlp/expected/xnnpack/output_0.npy")
	if err != nil {
		t.Fatal(err)
	}
	x := mlpInput(t)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				out, err := m.Forward(context.Background(), x)
				if err != nil {
					t.Error(err)
					return
				}
				if err := npyconv.Compare(out[0], want, 1e-6); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestModuleErrors(t *testing.T) {
	raw, err := os.ReadFile(mlp)
	if err != nil {
		t.Fatal(err)
	}
	m, err := etgo.LoadBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.MethodNames(); len(got) != 1 || got[0] != "forward" {
		t.Errorf("methods %v", got)
	}
	if _, err := m.Run(context.Background(), "backward", mlpInput(t)); !errors.Is(err, etgo.ErrMethodNotFound) {
		t.Errorf("unknown method: %v", err)
	}
	if _, err := m.Forward(context.Background()); !errors.Is(err, etgo.ErrInvalidArgument) {
		t.Errorf("no inputs: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Forward(ctx, mlpInput(t)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Forward(context.Background(), mlpInput(t)); !errors.Is(err, etgo.ErrClosed) {
		t.Errorf("after Close: %v", err)
	}

	for _, tc := range []struct {
		name string
		load func() error
		want string
	}{
		{"not a program", func() error { _, err := etgo.LoadBytes([]byte("not a pte")); return err }, "ET12"},
		{"no such file", func() error { _, err := etgo.Load("testdata/no/such.pte"); return err }, "no such file"},
		{"threads", func() error { _, err := etgo.Load(mlp, etgo.WithThreads(0)); return err }, "at least 1"},
		{"unknown backend", func() error { _, err := etgo.Load(mlp, etgo.WithBackends("QnnBackend")); return err }, `no backend "QnnBackend"`},
		{"planned memory", func() error {
			m, err := etgo.Load(mlp, etgo.WithMaxPlannedBytes(16))
			if err != nil {
				return err
			}
			defer m.Close()
			return m.LoadMethod("forward")
		}, "memory limit"},
	} {
		if err := tc.load(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
}

// TestExecute: a method run through EValues gives what Forward gives.
func TestExecute(t *testing.T) {
	m, err := etgo.Load(mlp)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	x := mlpInput(t)
	a, err := m.Forward(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.Execute(context.Background(), "forward", etgo.TensorValue(x))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a[0].Bytes(), b[0].Tensor.Bytes()) {
		t.Error("Execute and Forward differ")
	}
}

// TestREADMESnippet keeps the README's Go program equal to Example (which runs under go test
// with its output checked): the same imports and the same statements.
func TestREADMESnippet(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```go\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no Go snippet")
	}
	fset := token.NewFileSet()
	snippet, err := parser.ParseFile(fset, "README.md", m[1], 0)
	if err != nil {
		t.Fatalf("the README snippet does not parse: %v", err)
	}
	example, err := parser.ParseFile(fset, "example_test.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	body := func(f *ast.File, name string) string {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == name {
				var b bytes.Buffer
				printer.Fprint(&b, fset, fn.Body.List)
				return b.String()
			}
		}
		t.Fatalf("no func %s", name)
		return ""
	}
	if got, want := body(snippet, "main"), body(example, "Example"); got != want {
		t.Errorf("README snippet:\n%s\nExample:\n%s", got, want)
	}
	imports := func(f *ast.File) []string {
		var out []string
		for _, i := range f.Imports {
			if i.Path.Value != `"errors"` { // ExampleWithBackends's
				out = append(out, i.Path.Value)
			}
		}
		return out
	}
	if got, want := strings.Join(imports(snippet), " "), strings.Join(imports(example), " "); got != want {
		t.Errorf("README snippet imports %s, Example's file %s", got, want)
	}
}
