package xnnpack

import (
	"errors"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/backends/xnnpack/schema"
	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/pte"
)

func TestQuantize(t *testing.T) {
	inf := float32(math.Inf(1))
	for _, tc := range []struct {
		x, scale float32
		zp, want int32
	}{
		{0, 0.5, 0, 0},
		{0, 0.5, -128, -128},
		{1, 0.5, 3, 5},
		{0.25, 0.5, 0, 0},   // 0.5 ties to even: 0
		{0.75, 0.5, 0, 2},   // 1.5 ties to even: 2
		{1.25, 0.5, 0, 2},   // 2.5 ties to even: 2
		{-0.25, 0.5, 0, 0},  // -0.5 ties to even: -0
		{-0.75, 0.5, 0, -2}, // -1.5 ties to even: -2
		{0.75, 0.5, 1, 3},   // the zero point is added after rounding
		{1000, 0.5, 0, 127}, // saturation
		{-1000, 0.5, 0, -128},
		{-1000, 0.5, 10, -128}, // saturation at the code range, not the offset range
		{1000, 0.5, -100, 127},
		{inf, 1, 5, 127},
		{-inf, 1, 5, -128},
		{float32(math.NaN()), 1, 7, 7},
	} {
		if got := quantize(tc.x, 1/tc.scale, tc.zp); got != tc.want {
			t.Errorf("quantize(%g, scale %g, zp %d) = %d, want %d", tc.x, tc.scale, tc.zp, got, tc.want)
		}
	}
	// XNNPACK multiplies by the fp32 reciprocal instead of dividing: 0.3 / 0.1 is 3 in fp32
	// either way, but x * (1/s) and x / s round differently for some inputs, and the
	// reciprocal form is the one that must win.
	s := float32(0.1)
	for i := 0; i < 1000; i++ {
		x := float32(i) * 0.0137
		want := int32(roundEven(min(max(x*(1/s), -128), 127)))
		if got := quantize(x, 1/s, 0); got != want {
			t.Fatalf("quantize(%g) = %d, want %d", x, got, want)
		}
	}
}

// TestRoundEvenSmall: the magic-number rounding equals math.RoundToEven over its whole domain's
// interesting part: every half-integer and its neighbours in [-2^10, 2^10], and random values
// up to 2^22.
func TestRoundEvenSmall(t *testing.T) {
	check := func(x float32) {
		if got, want := roundEvenSmall(x), roundEven(x); got != want {
			t.Fatalf("roundEvenSmall(%g) = %g, want %g", x, got, want)
		}
	}
	for i := -2048; i <= 2048; i++ {
		x := float32(i) / 2
		check(x)
		check(math.Nextafter32(x, 1e9))
		check(math.Nextafter32(x, -1e9))
	}
	r := uint32(1)
	for i := 0; i < 100000; i++ {
		r = r*1664525 + 1013904223
		x := float32(int32(r)) / float32(1<<9) // |x| < 2^22
		check(x)
	}
}

func TestIsProduct(t *testing.T) {
	big := 1 << (bits.UintSize / 2) // four of them multiply to 2^(2·word): 0 when wrapped
	for _, tc := range []struct {
		total   int
		factors []int
		want    bool
	}{
		{24, []int{2, 3, 4}, true},
		{24, []int{2, 3, 5}, false},
		{0, []int{7, 0, 3}, true},
		{5, []int{7, 0, 3}, false},
		{1, nil, true},
		{6, []int{-2, -3}, false},
		{0, []int{big, big, big, big}, false},
		{big, []int{big, big, big, big}, false},
	} {
		if got := isProduct(tc.total, tc.factors...); got != tc.want {
			t.Errorf("isProduct(%d, %v) = %v, want %v", tc.total, tc.factors, got, tc.want)
		}
	}
}

func TestDequantize(t *testing.T) {
	for _, tc := range []struct {
		q, zp int32
		scale float32
		want  float32
	}{
		{0, 0, 0.5, 0},
		{-128, -128, 0.1, 0},
		{127, -128, 0.5, 127.5},
		{-128, 127, 1, -255},
	} {
		if got := dequantize(tc.q, tc.zp, tc.scale); got != tc.want {
			t.Errorf("dequantize(%d, zp %d, scale %g) = %g, want %g", tc.q, tc.zp, tc.scale, got, tc.want)
		}
	}
}

func TestRequantize(t *testing.T) {
	for _, tc := range []struct {
		acc                  int32
		scale                float32
		zp, qmin, qmax, want int32
	}{
		{10, 0.25, 0, -128, 127, 2},   // 2.5 -> 2
		{14, 0.25, 0, -128, 127, 4},   // 3.5 -> 4
		{-10, 0.25, 0, -128, 127, -2}, // -2.5 -> -2
		{10, 0.25, -5, -128, 127, -3},
		{1 << 20, 1, 0, -128, 127, 127},
		{-1 << 20, 1, 0, -128, 127, -128},
		{-40, 1, -128, -128, 127, -128}, // below a ReLU's range (output_min 0 quantizes to zp)
		{200, 1, -128, -128, 0, 0},      // a narrowed output_max
		{math.MaxInt32, 1e-9, 3, -128, 127, 5},
		{16777217, 1, 0, -128, 127, 127}, // acc beyond 2^24 converts to fp32 first (rounds)
	} {
		if got := requantize(tc.acc, tc.scale, tc.zp, tc.qmin, tc.qmax); got != tc.want {
			t.Errorf("requantize(%d, %g, zp %d, [%d, %d]) = %d, want %d", tc.acc, tc.scale, tc.zp, tc.qmin, tc.qmax, got, tc.want)
		}
	}
}

func TestQuantizeBound(t *testing.T) {
	inf := float32(math.Inf(1))
	for _, tc := range []struct {
		val, scale float32
		zp, want   int32
	}{
		{-inf, 0.1, 5, -128},
		{inf, 0.1, 5, 127},
		{0, 0.1, -128, -128}, // ReLU
		{6, 0.01, -128, 127}, // ReLU6 past the range saturates
		{6, 0.05, -128, -8},
		{0.25, 0.5, 0, 0}, // ties to even
	} {
		if got := quantizeBound(tc.val, tc.scale, tc.zp); got != tc.want {
			t.Errorf("quantizeBound(%g, %g, %d) = %d, want %d", tc.val, tc.scale, tc.zp, got, tc.want)
		}
	}
}

// TestQAdd: the fixed-point addition is within half a step of the exact real-valued result
// (a tie rounds up), and saturates at the output range.
func TestQAdd(t *testing.T) {
	a := &qinfo{dtype: schema.XNNDatatypexnn_datatype_qint8, scale: 0.02, zp: -10}
	b := &qinfo{dtype: schema.XNNDatatypexnn_datatype_qint8, scale: 0.013, zp: 7}
	y := &qinfo{dtype: schema.XNNDatatypexnn_datatype_qint8, scale: 0.03, zp: -3}
	q, err := newQAdd(a, b, y, -128, 127, false)
	if err != nil {
		t.Fatal(err)
	}
	for qa := int32(-128); qa <= 127; qa++ {
		for qb := int32(-128); qb <= 127; qb++ {
			real := (float64(a.scale)*float64(qa-a.zp) + float64(b.scale)*float64(qb-b.zp)) / float64(y.scale)
			exact := math.Max(-128, math.Min(127, real+float64(y.zp)))
			if got := q.add(qa, qb); math.Abs(float64(got)-exact) > 0.5+1e-3 {
				t.Fatalf("add(%d, %d) = %d, exact %g", qa, qb, got, exact)
			}
		}
	}
	qs, err := newQAdd(a, b, y, -128, 127, true)
	if err != nil {
		t.Fatal(err)
	}
	for qa := int32(-128); qa <= 127; qa++ {
		for qb := int32(-128); qb <= 127; qb++ {
			real := (float64(a.scale)*float64(qa-a.zp) - float64(b.scale)*float64(qb-b.zp)) / float64(y.scale)
			exact := math.Max(-128, math.Min(127, real+float64(y.zp)))
			if got := qs.add(qa, qb); math.Abs(float64(got)-exact) > 0.5+1e-3 {
				t.Fatalf("subtract(%d, %d) = %d, exact %g", qa, qb, got, exact)
			}
		}
	}
	// Equal scales and zero points 0: a tie (1 + 0 at half scale) rounds up.
	h := &qinfo{dtype: schema.XNNDatatypexnn_datatype_qint8, scale: 0.5}
	one := &qinfo{dtype: schema.XNNDatatypexnn_datatype_qint8, scale: 1}
	q, err = newQAdd(h, h, one, -128, 127, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range [][3]int32{{1, 0, 1}, {-1, 0, 0}, {3, 0, 2}, {127, 127, 127}, {-128, -128, -128}} {
		if got := q.add(tc[0], tc[1]); got != tc[2] {
			t.Errorf("add(%d, %d) at scale 1/2 = %d, want %d", tc[0], tc[1], got, tc[2])
		}
	}
	if _, err := newQAdd(&qinfo{scale: 1000}, h, one, -128, 127, false); !errors.Is(err, ErrUnsupported) {
		t.Errorf("scale ratio 1000: error %v, want ErrUnsupported", err)
	}
}

// quantBlob returns the delegate blob of testdata/quant/<model>/xnnpack.pte and its named data.
func quantBlob(t *testing.T, model string) ([]byte, func(string) ([]byte, error)) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(testutil.Testdata(t, "quant", model, "xnnpack.pte")))
	if err != nil {
		t.Fatal(err)
	}
	f, err := pte.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	d := f.Program.ExecutionPlans[0].Delegates[0]
	b, err := f.DelegateData(&d)
	if err != nil {
		t.Fatal(err)
	}
	return b, f.NamedData
}

// TestQuantParams: the official per-channel blob decodes to per-channel filters whose scales are
// in constant data, and corrupted parameters are refused by name.
func TestQuantParams(t *testing.T) {
	blob, named := quantBlob(t, "dw_residual")
	g, err := xnngraph.ParseBlob(blob)
	if err != nil {
		t.Fatal(err)
	}
	perChannel := 0
	for _, v := range g.Values {
		if v.DType == schema.XNNDatatypexnn_datatype_qcint8 {
			perChannel++
			if v.Quant == nil || v.Quant.Kind != schema.XNNQuantParamsPerChannelQuant || v.Quant.ScaleBufferIdx == 0 {
				t.Errorf("value %d: qcint8 with %+v", v.ID, v.Quant)
			}
		}
	}
	if perChannel != 3 {
		t.Errorf("%d qcint8 filters, want 3", perChannel)
	}
	if _, err := newPlan(g, named); err != nil {
		t.Fatal(err)
	}
	find := func(g *xnngraph.Graph, dt schema.XNNDatatype) *xnngraph.Value {
		for i := range g.Values {
			if g.Values[i].DType == dt {
				return &g.Values[i]
			}
		}
		t.Fatalf("no %s value", dt)
		return nil
	}
	for _, tc := range []struct {
		name   string
		mutate func(g *xnngraph.Graph)
		want   string
	}{
		{"channel dim", func(g *xnngraph.Graph) { find(g, schema.XNNDatatypexnn_datatype_qcint8).Quant.ChannelDim = 9 }, "channel_dim 9 out of range"},
		{"scale buffer", func(g *xnngraph.Graph) { find(g, schema.XNNDatatypexnn_datatype_qcint8).Quant.ScaleBufferIdx = 999 }, "scale_buffer_idx 999"},
		{"inline scales", func(g *xnngraph.Graph) {
			q := find(g, schema.XNNDatatypexnn_datatype_qcint8).Quant
			q.ScaleBufferIdx, q.Scales = 0, []float32{1}
		}, "1 scales"},
		{"negative scale", func(g *xnngraph.Graph) { find(g, schema.XNNDatatypexnn_datatype_qint8).Quant.Scale = -1 }, "not a positive normal"},
		{"blockwise 4-d", func(g *xnngraph.Graph) {
			find(g, schema.XNNDatatypexnn_datatype_qcint8).Quant.Kind = schema.XNNQuantParamsPerChannelGroupQuant
		}, "it needs [out, in]"},
		{"no params", func(g *xnngraph.Graph) {
			find(g, schema.XNNDatatypexnn_datatype_qint8).Quant.Kind = schema.XNNQuantParamsNONE
		}, "no (or unknown) quantization"},
	} {
		g, err := xnngraph.ParseBlob(blob)
		if err != nil {
			t.Fatal(err)
		}
		tc.mutate(g)
		if err := g.Validate(); !errors.Is(err, ErrInvalidBlob) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
	// Valid, but not run: refused at init by name.
	for _, tc := range []struct {
		name   string
		mutate func(g *xnngraph.Graph)
		want   string
	}{
		{"dynamic qint8", func(g *xnngraph.Graph) {
			q := find(g, schema.XNNDatatypexnn_datatype_qint8).Quant
			q.Kind, q.NumNonbatchDims = schema.XNNQuantParamsPerTokenDynamicQuant, 1
		}, "qint8 with PerTokenDynamicQuant parameters"},
		{"zero point", func(g *xnngraph.Graph) { find(g, schema.XNNDatatypexnn_datatype_qint8).Quant.ZeroPoint = 300 }, "zero point 300"},
		{"quantized division", func(g *xnngraph.Graph) {
			for i := range g.Nodes {
				if g.Nodes[i].Op == schema.XNodeUnionXNNAdd {
					g.Nodes[i].Op = schema.XNodeUnionXNNDiv
				}
			}
		}, "XNNDiv"},
		{"requantizing transpose", func(g *xnngraph.Graph) {
			for _, n := range g.Nodes {
				if n.Op == schema.XNodeUnionXNNStaticTranspose && g.Values[n.Outputs[0]].Quant != nil {
					g.Values[n.Outputs[0]].Quant.Scale *= 2 // (value ids are indices in official blobs)
					return
				}
			}
		}, "XNNStaticTranspose"},
		{"qint32 external", func(g *xnngraph.Graph) {
			v := find(g, schema.XNNDatatypexnn_datatype_qint8)
			v.DType, v.Quant.ZeroPoint, v.Flags, v.ExternalID = schema.XNNDatatypexnn_datatype_qint32, 0, xnngraph.FlagExternalInput, 0
		}, "quantized boundary values run as qint8 only"},
	} {
		g, err := xnngraph.ParseBlob(blob)
		if err != nil {
			t.Fatal(err)
		}
		tc.mutate(g)
		if err := g.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if _, err := newPlan(g, named); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
}
