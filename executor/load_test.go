package executor_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/pte"
)

// fakeBackend accepts any blob; it stands in for a backend a test registers by name.
type fakeBackend struct{ available bool }

func (b fakeBackend) IsAvailable() bool { return b.available }
func (fakeBackend) Init(*executor.BackendInitContext, []byte, []executor.CompileSpec) (executor.DelegateHandle, error) {
	return nil, nil
}
func (fakeBackend) Execute(*executor.BackendExecutionContext, executor.DelegateHandle, []*executor.EValue) error {
	return nil
}
func (fakeBackend) Destroy(executor.DelegateHandle) {}

// explainingBackend is unavailable and says why (executor.AvailabilityExplainer).
type explainingBackend struct{ fakeBackend }

var errNoDriver = errors.New("no driver for the fake device")

func (explainingBackend) Unavailable() error { return errNoDriver }

// refusingBackend refuses every blob, as a backend does with an incompatible one.
type refusingBackend struct{ fakeBackend }

func (refusingBackend) Init(*executor.BackendInitContext, []byte, []executor.CompileSpec) (executor.DelegateHandle, error) {
	return nil, errors.New("blob version XN99 is not supported")
}

// panickingBackend panics where the test says, as a backend's parser might on a blob it did not
// expect.
type panickingBackend struct {
	fakeBackend
	in string // "IsAvailable", "Init" or "Destroy"
}

func (b panickingBackend) IsAvailable() bool {
	if b.in == "IsAvailable" {
		panic("probing the hardware")
	}
	return true
}

func (b panickingBackend) Init(*executor.BackendInitContext, []byte, []executor.CompileSpec) (executor.DelegateHandle, error) {
	if b.in == "Init" {
		var nodes []int
		_ = nodes[3] // index out of range
	}
	return nil, nil
}

func (b panickingBackend) Destroy(executor.DelegateHandle) {
	if b.in == "Destroy" {
		panic("double free")
	}
}

func loadErr(t *testing.T, path, method string, reg *executor.Registry) error {
	t.Helper()
	p, err := executor.Open(path, executor.Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m, err := p.LoadMethod(method)
	if err == nil {
		m.Close()
	}
	return err
}

// The "works in Python, fails in the app" cases: each fails at load, naming what is missing.
func TestLoadFailsNamingWhatIsMissing(t *testing.T) {
	wild := testutil.WildDir(t)
	xnn := testutil.Testdata(t, "zoo", "conv_relu", "xnnpack.pte")
	for _, tc := range []struct {
		name, path, method string
		reg                *executor.Registry
		is                 error
		want               []string
	}{
		{"QNN llama without QnnBackend", filepath.Join(wild, "examples__qualcomm__oss_scripts__llama__artifacts__stories260k_hybrid_llama_qnn.pte"), "kv_forward",
			portableRegistry(t), executor.ErrBackendNotRegistered, []string{"QnnBackend", `method "kv_forward"`, "instruction 0", "no backends registered"}},
		{"KeywordSpotting without cortex_m kernels", filepath.Join(wild, "examples__arduino__examples__KeywordSpotting__model.pte"), "forward",
			portableRegistry(t), executor.ErrOperatorMissing, []string{"cortex_m::quantized_conv2d.out", "cortex_m::quantized_linear.out", "cortex_m::quantize_per_tensor.out", "instruction 0"}},
		{"xnnpack.pte without XnnpackBackend", xnn, "forward",
			portableRegistry(t), executor.ErrBackendNotRegistered, []string{"XnnpackBackend", "delegate 0", `method "forward"`}},
		{"backend unavailable", xnn, "forward",
			withBackend(t, "XnnpackBackend", fakeBackend{available: false}), executor.ErrBackendUnavailable, []string{"XnnpackBackend", "unavailable"}},
		{"backend unavailable says why", xnn, "forward",
			withBackend(t, "XnnpackBackend", explainingBackend{}), errNoDriver, []string{"XnnpackBackend", "registered but unavailable on this machine: no driver for the fake device"}},
		{"backend refuses its blob", xnn, "forward",
			withBackend(t, "XnnpackBackend", refusingBackend{fakeBackend{available: true}}), executor.ErrDelegateInit, []string{"XnnpackBackend refused its blob", "XN99"}},
		{"backend panics in Init", xnn, "forward",
			withBackend(t, "XnnpackBackend", panickingBackend{in: "Init"}), executor.ErrDelegateInit, []string{`method "forward" delegate 0: backend XnnpackBackend Init panicked`, "index out of range"}},
		{"backend panics in IsAvailable", xnn, "forward",
			withBackend(t, "XnnpackBackend", panickingBackend{in: "IsAvailable"}), executor.ErrBackendUnavailable, []string{"XnnpackBackend", "unavailable"}},
		{"unknown method", xnn, "backward", portableRegistry(t), executor.ErrMethodNotFound, []string{`"backward"`, "forward"}},
		{"everything missing from an empty registry", testutil.Testdata(t, "zoo", "mlp", "portable.pte"), "forward",
			executor.NewRegistry(), executor.ErrOperatorMissing, []string{"aten::addmm.out", "aten::permute_copy.out", "aten::relu.out"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := loadErr(t, tc.path, tc.method, tc.reg)
			if !errors.Is(err, tc.is) {
				t.Fatalf("error %v, want %v", err, tc.is)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// TestDestroyPanic: Close releases every handle even when a backend panics releasing one.
func TestDestroyPanic(t *testing.T) {
	p, err := executor.Open(testutil.Testdata(t, "zoo", "conv_relu", "xnnpack.pte"), executor.Options{Registry: withBackend(t, "XnnpackBackend", panickingBackend{in: "Destroy"})})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m, err := p.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	m.Close() // must not panic
}

func withBackend(t *testing.T, id string, b executor.Backend) *executor.Registry {
	reg := portableRegistry(t)
	if err := reg.RegisterBackend(id, b); err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestRegistryRefusesDuplicates(t *testing.T) {
	reg := portableRegistry(t)
	if err := reg.RegisterKernels(executor.Kernel{Name: "aten::add.out", Fn: func(*executor.KernelContext, []*executor.EValue) error { return nil }}); err == nil {
		t.Error("second aten::add.out accepted")
	}
	if err := reg.RegisterBackend("X", fakeBackend{}); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterBackend("X", fakeBackend{}); err == nil {
		t.Error("second backend X accepted")
	}
}

// TestRegistryOverride: an override wins over the kernel of the same name whichever was
// registered first, is listed once, and a second override of the same name is refused.
func TestRegistryOverride(t *testing.T) {
	mark := func(tag string, hit *string) executor.KernelFunc {
		return func(*executor.KernelContext, []*executor.EValue) error { *hit = tag; return nil }
	}
	for _, overrideFirst := range []bool{false, true} {
		var hit string
		reg := executor.NewRegistry()
		base := executor.Kernel{Name: "aten::x.out", Fn: mark("base", &hit)}
		over := executor.Kernel{Name: "aten::x.out", Fn: mark("override", &hit)}
		steps := []func() error{
			func() error { return reg.RegisterKernels(base) },
			func() error { return reg.OverrideKernels(over) },
		}
		if overrideFirst {
			steps[0], steps[1] = steps[1], steps[0]
		}
		for _, s := range steps {
			if err := s(); err != nil {
				t.Fatal(err)
			}
		}
		k, ok := reg.Kernel("aten::x.out")
		if !ok {
			t.Fatal("aten::x.out missing")
		}
		_ = k.Fn(nil, nil)
		if hit != "override" {
			t.Errorf("overrideFirst=%v: ran the %s kernel", overrideFirst, hit)
		}
		if n := reg.KernelNames(); len(n) != 1 || len(reg.Kernels()) != 1 {
			t.Errorf("overrideFirst=%v: listed %v", overrideFirst, n)
		}
		if err := reg.OverrideKernels(over); err == nil {
			t.Error("second override of aten::x.out accepted")
		}
		if err := reg.RegisterKernels(base); err == nil {
			t.Error("second aten::x.out accepted beside an override")
		}
	}
}

// TestBadInputsLeaveMethodUsable: every malformed Execute fails with ErrInvalidArgument, and
// a correct call afterwards still gives the right answer.
func TestBadInputsLeaveMethodUsable(t *testing.T) {
	p, err := executor.Open(testutil.Testdata(t, "zoo", "add", "portable.pte"), executor.Options{Registry: portableRegistry(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m, err := p.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ones := make([]float32, 3*8*8)
	for i := range ones {
		ones[i] = 1
	}
	good, _ := executor.FromSlice(ones, 1, 3, 8, 8)
	wrongDtype, _ := executor.FromSlice(make([]float64, 192), 1, 3, 8, 8)
	wrongRank, _ := executor.FromSlice(make([]float32, 192), 3, 8, 8)
	wrongSize, _ := executor.FromSlice(make([]float32, 2*192), 2, 3, 8, 8)
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		inputs []*executor.EValue
		want   string
	}{
		{"too few", []*executor.EValue{tv(good)}, "takes 2 inputs, got 1"},
		{"too many", []*executor.EValue{tv(good), tv(good), tv(good)}, "takes 2 inputs, got 3"},
		{"nil", []*executor.EValue{tv(good), nil}, "input 1: nil"},
		{"wrong dtype", []*executor.EValue{tv(good), tv(wrongDtype)}, "input 1: dtype float64, the method takes float32"},
		{"wrong rank", []*executor.EValue{tv(wrongRank), tv(good)}, "input 0: rank 3"},
		{"wrong size", []*executor.EValue{tv(good), tv(wrongSize)}, "input 1: sizes [2 3 8 8], the method takes exactly [1 3 8 8]"},
		{"not a tensor", []*executor.EValue{tv(good), {Tag: executor.TagInt, Int: 1}}, "input 1: got Int"},
	} {
		if _, err := m.Execute(ctx, tc.inputs...); !errors.Is(err, executor.ErrInvalidArgument) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want ErrInvalidArgument mentioning %q", tc.name, err, tc.want)
		}
	}
	outs, err := m.Run(ctx, good, good)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := executor.Values[float32](outs[0])
	for i, x := range v {
		if x != 2 {
			t.Fatalf("after bad calls, output[%d] = %v, want 2", i, x)
		}
	}
}

func tv(t *executor.Tensor) *executor.EValue {
	return &executor.EValue{Tag: executor.TagTensor, Tensor: t}
}

func TestMemoryLimit(t *testing.T) {
	p, err := executor.Open(testutil.Testdata(t, "zoo", "add", "portable.pte"), executor.Options{Registry: portableRegistry(t), MaxPlannedBytes: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.LoadMethod("forward"); !errors.Is(err, executor.ErrMemory) {
		t.Errorf("load over the memory limit: %v", err)
	}
}

// callsBackend records the delegate calls Init is told about.
type callsBackend struct {
	fakeBackend
	calls *[][]*executor.EValue
}

func (b callsBackend) Init(ctx *executor.BackendInitContext, _ []byte, _ []executor.CompileSpec) (executor.DelegateHandle, error) {
	*b.calls = ctx.Calls
	return nil, nil
}

// TestInitSeesDelegateCalls checks Init is given each call's arguments, declared: the add
// model's delegate takes two float32[1,3,8,8] inputs and writes one output.
func TestInitSeesDelegateCalls(t *testing.T) {
	var calls [][]*executor.EValue
	reg := executor.NewRegistry()
	if err := reg.RegisterBackend("XnnpackBackend", callsBackend{fakeBackend{true}, &calls}); err != nil {
		t.Fatal(err)
	}
	p, err := executor.Open(testutil.Testdata(t, "zoo", "add", "xnnpack.pte"), executor.Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m, err := p.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if len(calls) != 1 || len(calls[0]) != 3 {
		t.Fatalf("calls %v, want one call of 3 arguments", calls)
	}
	for i, a := range calls[0] {
		if a == nil || a.Tag != executor.TagTensor || a.Tensor.ScalarType() != executor.Float32 || len(a.Tensor.Sizes()) != 4 {
			t.Errorf("argument %d: %v, want a 4-d float32 tensor", i, a)
		}
	}
}

// TestListInputsAndOutputsRefused: a method whose input or output is a list is refused at load,
// naming it, as ExecuTorch's MethodMeta refuses to describe one (the campaign's mutant
// zoo/mlp/portable/pte-plan/1 pointed the mlp's output at an IntList).
func TestListInputsAndOutputsRefused(t *testing.T) {
	for _, io := range []string{"input", "output"} {
		t.Run(io, func(t *testing.T) {
			f, err := pte.Open(testutil.Testdata(t, "zoo", "mlp", "portable.pte"))
			if err != nil {
				t.Fatal(err)
			}
			plan := f.Program.ExecutionPlans[0]
			list := slices.IndexFunc(plan.Values, func(v pte.EValue) bool { _, ok := v.(pte.IntList); return ok })
			if list < 0 {
				t.Fatal("the mlp has no IntList value")
			}
			if io == "input" {
				plan.Inputs[0] = int32(list)
			} else {
				plan.Outputs[0] = int32(list)
			}
			p, err := executor.NewProgram(f, executor.Options{Registry: portableRegistry(t)})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			m, err := p.LoadMethod("forward")
			if err == nil {
				m.Close()
				t.Fatalf("a method with a list %s loaded", io)
			}
			if want := fmt.Sprintf("%s 0 is value %d, of type IntList", io, list); !errors.Is(err, pte.ErrInvalidProgram) || !strings.Contains(err.Error(), want) {
				t.Errorf("got %v, want ErrInvalidProgram naming %q", err, want)
			}
		})
	}
}
