package lower_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/all"
	"github.com/etgo/etgo/emit"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/passes"
	"github.com/etgo/etgo/pte"
)

// TestComplexPrograms: programs with complex tensors are emitted as the official emitter
// writes them (c10's complex scalar type codes; checked by hand: the official pip runtime runs
// etgo's rfft and cfloat files, rfft within 2.5e-7 of torch.fft.rfft), the kernel check names
// the FFT kernels etgo lacks, and etgo's runtime refuses complex tensors by name at load.
func TestComplexPrograms(t *testing.T) {
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pt2, kernel string
		out         pte.Tensor
	}{
		{"fft.rfft.1", "aten::_fft_r2c.out", pte.Tensor{ScalarType: pte.ScalarTypeComplexFloat, Sizes: []int32{5, 6, 4}}},
		{"fft.irfft.2", "aten::_fft_c2r.out", pte.Tensor{ScalarType: executor.Float32, Sizes: []int32{5, 6, 7}}},
		{"cdouble.2", "", pte.Tensor{ScalarType: pte.ScalarTypeComplexDouble, Sizes: []int32{2, 3}}},
	} {
		data, _ := lowerFile(t, "../testdata/decomp/cases/"+c.pt2+".pt2", lower.Options{})
		f, err := pte.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", c.pt2, err)
		}
		plan, err := f.Method("forward")
		if err != nil {
			t.Fatal(err)
		}
		out, ok := plan.Values[plan.Outputs[0]].(*pte.Tensor)
		if !ok || out.ScalarType != c.out.ScalarType || len(out.Sizes) != len(c.out.Sizes) {
			t.Fatalf("%s: output %+v, want %s%v", c.pt2, plan.Values[plan.Outputs[0]], pte.DTypeName(c.out.ScalarType), c.out.Sizes)
		}
		prog, err := pt2.Open("../testdata/decomp/cases/" + c.pt2 + ".pt2")
		if err != nil {
			t.Fatal(err)
		}
		edge, err := lower.ToEdgeTransformAndLower(prog.Graph, lower.Options{})
		if err != nil {
			t.Fatal(err)
		}
		contents, err := lower.ToExecuTorch(edge.Plan, all.Registry())
		if err != nil {
			t.Fatal(err)
		}
		err = emit.CheckKernels(contents.Program, reg.HasKernel)
		switch {
		case c.kernel == "" && err != nil:
			t.Errorf("%s: %v", c.pt2, err)
		case c.kernel != "" && (!errors.Is(err, emit.ErrKernelMissing) || !strings.Contains(err.Error(), c.kernel)):
			t.Errorf("%s: kernel check %v, want it to name %s", c.pt2, err, c.kernel)
		}
		p, err := executor.NewProgram(f, executor.Options{Registry: reg})
		if err == nil {
			_, err = p.LoadMethod("forward")
		}
		if !errors.Is(err, executor.ErrNotSupported) && !errors.Is(err, executor.ErrOperatorMissing) || !strings.Contains(err.Error(), "complex") && !strings.Contains(err.Error(), c.kernel) {
			t.Errorf("%s: etgo's runtime loads it (%v); it must refuse, naming the complex tensor or the kernel", c.pt2, err)
		}
	}
	// What the Edge dialect cannot express is refused at Edge, naming the operator.
	prog, err := pt2.Open("../testdata/decomp/cases/fft.fft2.0.pt2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := passes.ToEdge(prog.Graph, nil); !errors.Is(err, passes.ErrNotEdge) || !strings.Contains(err.Error(), "aten._fft_c2c.default") {
		t.Errorf("fft2: %v, want a refusal naming aten._fft_c2c.default", err)
	}
}
