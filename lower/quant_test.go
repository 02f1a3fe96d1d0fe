package lower_test

import (
	"context"
	"slices"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack"
	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/gemm"
	"github.com/etgo/etgo/internal/npyconv"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/internal/zoo"
	"github.com/etgo/etgo/internal/zoo/zoorun"
	"github.com/etgo/etgo/kernels/portable"
	"github.com/etgo/etgo/kernels/prim"
	"github.com/etgo/etgo/kernels/quantized"
	"github.com/etgo/etgo/lower"
	"github.com/etgo/etgo/pte"
)

// TestQuantLoweredRunsBitExact: every quantized fixture (testdata/quantlower: static, QAT and
// dynamically quantized linears; testdata/quantlower_ao: torchao 8da4w, groups 32 and 128)
// etgo lowers runs in etgo's runtime with outputs equal, bit for
// bit, to the official runtime's on the official .pte (expected/xnnpack), at 1 and 2 threads;
// with the official number of delegate calls; and the same bytes when lowered twice. (The
// dynamic tolerance is 0 too: etgo's qd8×qc8w path reproduces XNNPACK's per-row quantization
// exactly, and its qd8×qb4w path the bf16 block scales, as testdata/dynquant shows for the
// official files.)
func TestQuantLoweredRunsBitExact(t *testing.T) {
	models, err := zoo.Load(testutil.Testdata(t, "quantlower"))
	if err != nil {
		t.Fatal(err)
	}
	ao, err := zoo.LoadXnnpackOnly(testutil.Testdata(t, "quantlower_ao"))
	if err != nil {
		t.Fatal(err)
	}
	models = append(models, ao...)
	for _, threads := range []int{1, 2} {
		reg := executor.NewRegistry()
		if err := portable.Register(reg); err != nil {
			t.Fatal(err)
		}
		if err := reg.RegisterBackend(xnnpack.BackendID, xnnpack.Backend{Threads: threads}); err != nil {
			t.Fatal(err)
		}
		// q/dq a delegate leaves outside run on ExecuTorch's quantized kernel library.
		if err := quantized.Register(reg); err != nil {
			t.Fatal(err)
		}
		if err := prim.Register(reg); err != nil {
			t.Fatal(err)
		}
		for _, m := range models {
			t.Run(m.Name, func(t *testing.T) {
				data, plan := lowerZoo(t, m)
				if threads == 1 {
					if again, _ := lowerZoo(t, m); string(again) != string(data) {
						t.Error("lowering twice gave different bytes")
					}
				}
				if len(plan.Delegates) != m.Delegation.NumDelegatedSubgraphs {
					t.Errorf("%d delegate calls, official %d", len(plan.Delegates), m.Delegation.NumDelegatedSubgraphs)
				}
				f, err := pte.Parse(data)
				if err != nil {
					t.Fatal(err)
				}
				outs := runQuant(t, reg, f, m)
				// Fallback fp32 operators (a mean, a layer norm) may round differently in etgo's
				// portable kernels than in the official ones (1 ulp on zoo_residual_cnn and
				// zoo_transformer_encoder, the official .pte run in etgo alike): there the
				// official runtime's outputs bound the error to 1e-4, and etgo's file must
				// match the official file run in etgo bit for bit.
				tol := 0.0
				if len(m.Delegation.NonDelegatedTargets) > 0 {
					tol = 1e-4
				}
				if _, known := quantRuntimeDivergence[m.Name]; known {
					tol = 1e-6
				}
				if gemm.ISAs()[0] == "go" {
					// The fp32 work of a delegate (dyn_conv2d's convolution, which the dynamic
					// config leaves fp32) is bit-exact on the assembly kernels, which sum in
					// XNNPACK's FMA order; the portable loops (purego, or no AVX2) round
					// differently, by an ulp. The int8 paths stay exact either way.
					tol = max(tol, 1e-6)
				}
				compareQuant(t, reg, m, zoo.Xnnpack, outs, tol)
			})
		}
	}
}

// runQuant runs f's forward method on m's inputs.
func runQuant(t *testing.T, reg *executor.Registry, f *pte.File, m zoo.Model) []*executor.Tensor {
	t.Helper()
	return runForward(t, reg, f, zoorun.Inputs(t, m))
}

// runForward runs f's forward method on args.
func runForward(t *testing.T, reg *executor.Registry, f *pte.File, args []*executor.Tensor) []*executor.Tensor {
	t.Helper()
	prog, err := executor.NewProgram(f, executor.Options{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	meth, err := prog.LoadMethod("forward")
	if err != nil {
		t.Fatal(err)
	}
	defer meth.Close()
	outs, err := meth.Run(context.Background(), args...)
	if err != nil {
		t.Fatal(err)
	}
	return outs
}

// quantRuntimeDivergence are fixtures whose graph is the official one (package aot) but which
// etgo's XNNPACK run time does not reproduce bit for bit, on the official .pte alike: a run-time
// matter, held within 1e-6 here.
var quantRuntimeDivergence = map[string]string{
	// The quantizer leaves the grouped transposed convolution fp32 (after a Convert of the
	// quantized conv's output): etgo's fp32 grouped deconvolution rounds 1 ulp (3.0e-8) away.
	"convt_groups": "fp32 transposed convolution with 2 groups",
	// The unquantized control of the re-converge fixtures: an fp32 3×3 convolution of 3
	// channels, a mul and an add; one output of 75 is 1 ulp (7.5e-9) away, the official .pte in
	// etgo alike (not investigated further).
	"fp32_shared_mul_const": "fp32 3x3 convolution of 3 channels, mul and add",
}

// TestQuantPortableLoweredRuns: lowered without a partitioner, every q/dq of a PT2E quantized
// program is a call of ExecuTorch's quantized kernel library under the official name
// (quantized_decomposed::quantize_per_tensor.out, …); etgo's file runs on the portable and
// quantized kernels with outputs equal, bit for bit, to etgo's on the official portable.pte,
// and to the official runtime's on it within 1e-6: etgo's fp32 portable kernels round some
// operators 1 ulp away from the official ones (a grouped transposed convolution, a mean, a
// layer norm, the dynamic linears' fp32 matrix product), the quantized kernels do not.
func TestQuantPortableLoweredRuns(t *testing.T) {
	models, err := zoo.Load(testutil.Testdata(t, "quantlower"))
	if err != nil {
		t.Fatal(err)
	}
	reg := executor.NewRegistry()
	if err := portable.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := quantized.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := prim.Register(reg); err != nil {
		t.Fatal(err)
	}
	exact := 0
	defer func() { t.Logf("%d of %d bit for bit against the official runtime", exact, len(models)) }()
	for _, m := range models {
		t.Run(m.Name, func(t *testing.T) {
			data, plan := lowerFile(t, m.PT2, lower.Options{})
			if len(plan.Delegates) != 0 {
				t.Fatalf("%d delegates without a partitioner", len(plan.Delegates))
			}
			f, err := pte.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, op := range f.Program.ExecutionPlans[0].Operators {
				names = append(names, op.KernelName())
			}
			for _, want := range m.Delegation.Operators[zoo.Portable] {
				if !slices.Contains(names, want) {
					t.Errorf("operator %s of the official portable.pte is not among etgo's %v", want, names)
				}
			}
			outs := runQuant(t, reg, f, m)
			bits := compareQuant(t, reg, m, zoo.Portable, outs, 1e-6)
			if bits {
				exact++
			}
		})
	}
}

// compareQuant holds etgo's outputs of m to the official runtime's on the official file of
// variant v (within tol) and to etgo's own on that file (bit for bit), and reports whether they
// equal the official runtime's bit for bit.
func compareQuant(t *testing.T, reg *executor.Registry, m zoo.Model, v zoo.Variant, outs []*executor.Tensor, tol float64) bool {
	t.Helper()
	official, err := pte.Open(m.PTE(v))
	if err != nil {
		t.Fatal(err)
	}
	defer official.Close()
	same := runQuant(t, reg, official, m)
	want, err := m.LoadExpected(v)
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != len(want) || len(same) != len(want) {
		t.Fatalf("%d outputs, the official file %d in etgo, %d in the official runtime", len(outs), len(same), len(want))
	}
	bits := true
	for i := range outs {
		if err := npyconv.Compare(outs[i], want[i], tol); err != nil {
			t.Errorf("output %d, against the official runtime: %v", i, err)
		}
		a, err := npyconv.Array(same[i])
		if err != nil {
			t.Fatal(err)
		}
		if d, err := npyconv.MaxAbsDiff(outs[i], a); err != nil || d != 0 {
			t.Errorf("output %d: etgo's file and the official file differ in etgo by %g (%v)", i, d, err)
		}
		if d, _ := npyconv.MaxAbsDiff(outs[i], want[i]); d != 0 {
			bits = false
		}
	}
	return bits
}
