// Package numerics replays the differential numerics sweeps of tools/reference/
// generate_portable_numerics.py: one-instruction programs the official runtime ran, with their
// constant inputs and the bytes of every output. kernels/portable and kernels/optimized replay
// them through their kernels and hold the outputs to the official ones, bit for bit or within a
// stated number of units in the last place.
package numerics

import (
	"compress/gzip"
	"encoding/base64"
	le "encoding/binary"
	"encoding/json"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/etgo/etgo/executor"
)

// Arg is one recorded argument or result: a tensor (dtype name, sizes, base64 bytes), an int
// list, a bool, an int, a double, or None.
type Arg struct {
	Tensor string   `json:"tensor"`
	DType  string   `json:"dtype"` // a result's dtype
	Sizes  []int    `json:"sizes"`
	Data   string   `json:"data"`
	Ints   []int64  `json:"ints"`
	Bool   *bool    `json:"bool"`
	Int    *int64   `json:"int"`
	Double *float64 `json:"double"`
	None   bool     `json:"none"`
}

// Case is one recorded call: the official result (Result, and Results for every output of a
// multi-output operator) or the official refusal (Error).
type Case struct {
	Name string `json:"name"`
	Op   string `json:"op"`
	Args []Arg  `json:"args"`
	Out  []struct {
		DType string `json:"dtype"`
		Sizes []int  `json:"sizes"`
	} `json:"out"`
	Result  *Arg   `json:"result"`
	Results []Arg  `json:"results"`
	Error   string `json:"error"`
}

// OfficialOptimized are the operators the official runtime serves from its optimized library
// (kernels/optimized/optimized.yaml in ExecuTorch): kernels/portable replays the other cases,
// kernels/optimized these, through etgo's optimized registry (which hands what it does not
// specialise to the portable kernel).
var OfficialOptimized = map[string]bool{
	"aten::mm.out": true, "aten::bmm.out": true, "aten::linear.out": true, "aten::native_layer_norm.out": true,
	"aten::sum.IntList_out": true, "aten::_log_softmax.out": true, "aten::exp.out": true, "aten::gelu.out": true,
	"aten::elu.out": true, "aten::add.out": true, "aten::add.Scalar_out": true, "aten::sub.out": true,
	"aten::sub.Scalar_out": true, "aten::mul.out": true, "aten::mul.Scalar_out": true, "aten::div.out": true,
	"aten::div.Scalar_out": true, "aten::where.self_out": true, "aten::le.Scalar_out": true,
	"aten::le.Tensor_out": true, "aten::grid_sampler_2d.out": true,
}

var dtypes = map[string]executor.ScalarType{
	"float32": executor.Float32, "float16": executor.Float16, "bfloat16": executor.BFloat16, "float64": executor.Float64,
}

// Load reads a gzipped sweep.
func Load(tb testing.TB, path string) []Case {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	var cs []Case
	if err := json.NewDecoder(z).Decode(&cs); err != nil {
		tb.Fatal(err)
	}
	return cs
}

func newTensor(tb testing.TB, dtype string, sizes []int) *executor.Tensor {
	tb.Helper()
	dt, ok := dtypes[dtype]
	if !ok {
		tb.Fatalf("dtype %q", dtype)
	}
	x, err := executor.NewTensor(dt, sizes...)
	if err != nil {
		tb.Fatal(err)
	}
	return x
}

func (a Arg) value(tb testing.TB) *executor.EValue {
	tb.Helper()
	switch {
	case a.Tensor != "":
		x := newTensor(tb, a.Tensor, a.Sizes)
		b, err := base64.StdEncoding.DecodeString(a.Data)
		if err != nil || len(b) != len(x.Bytes()) {
			tb.Fatalf("tensor data: %d bytes for %v %s (%v)", len(b), a.Sizes, a.Tensor, err)
		}
		copy(x.Bytes(), b)
		return &executor.EValue{Tag: executor.TagTensor, Tensor: x}
	case a.Ints != nil:
		l := &executor.EValue{Tag: executor.TagIntList}
		for _, v := range a.Ints {
			l.IntRefs = append(l.IntRefs, &executor.EValue{Tag: executor.TagInt, Int: v})
		}
		return l
	case a.Bool != nil:
		return &executor.EValue{Tag: executor.TagBool, Bool: *a.Bool}
	case a.Int != nil:
		return &executor.EValue{Tag: executor.TagInt, Int: *a.Int}
	case a.Double != nil:
		return &executor.EValue{Tag: executor.TagDouble, Double: *a.Double}
	}
	return &executor.EValue{Tag: executor.TagNone}
}

// Ulp is the distance in units in the last place between two values of a floating dtype of
// size bytes (raw little-endian bits), with NaN equal to NaN (for 2-byte values the caller
// decides NaN, since float16 and bfloat16 place it differently).
func Ulp(size int, a, b []byte) int64 {
	var x, y, sign int64
	var nan func(v int64) bool
	switch size {
	case 4:
		x, y, sign = int64(le.LittleEndian.Uint32(a)), int64(le.LittleEndian.Uint32(b)), 1<<31
		nan = func(v int64) bool { return v&0x7fffffff > 0x7f800000 }
	case 8:
		u, v := le.LittleEndian.Uint64(a), le.LittleEndian.Uint64(b)
		fu, fv := math.Float64frombits(u), math.Float64frombits(v)
		if fu != fu || fv != fv {
			if fu != fu && fv != fv {
				return 0
			}
			return math.MaxInt32
		}
		ord := func(w uint64) int64 { // monotone: -0 and +0 one step apart
			if w>>63 != 0 {
				return -int64(w&^(1<<63)) - 1
			}
			return int64(w)
		}
		d := ord(u) - ord(v)
		if d < 0 {
			d = -d
		}
		return min(d, math.MaxInt32)
	default: // float16, bfloat16
		x, y, sign = int64(le.LittleEndian.Uint16(a)), int64(le.LittleEndian.Uint16(b)), 1<<15
		nan = func(v int64) bool { return false }
	}
	if nan(x) || nan(y) {
		if nan(x) && nan(y) {
			return 0
		}
		return math.MaxInt32
	}
	ord := func(v int64) int64 { // monotone: -0 and +0 one step apart
		if v&sign != 0 {
			return -(v &^ sign) - 1
		}
		return v
	}
	d := ord(x) - ord(y)
	if d < 0 {
		d = -d
	}
	return d
}

func halfNaN(dt executor.ScalarType, v []byte) bool {
	u := le.LittleEndian.Uint16(v)
	if dt == executor.Float16 {
		return u&0x7c00 == 0x7c00 && u&0x3ff != 0
	}
	return u&0x7f80 == 0x7f80 && u&0x7f != 0
}

// Replay runs every case of cs whose operator kernel returns (nil: not this library's, not
// replayed here) and fails the test where an output differs from the official one by more than
// ulps[op] (op without "aten::"; absent means bit for bit; any NaN matches any NaN), where the
// official runtime refused and etgo did not, or the reverse. It logs a tally per operator and
// returns how many cases ran.
func Replay(t *testing.T, cs []Case, kernel func(op string) *executor.Kernel, ulps map[string]int) int {
	t.Helper()
	type tally struct {
		cases, exact, elems, off int
		worst                    int64
	}
	per := map[string]*tally{}
	ran := 0
	for _, c := range cs {
		k := kernel(c.Op)
		if k == nil {
			continue
		}
		ran++
		op := strings.TrimPrefix(c.Op, "aten::")
		tl := per[op]
		if tl == nil {
			tl = &tally{}
			per[op] = tl
		}
		tl.cases++
		args := make([]*executor.EValue, 0, len(c.Args)+len(c.Out)+1)
		for _, a := range c.Args {
			args = append(args, a.value(t))
		}
		var outs []*executor.Tensor
		for _, o := range c.Out {
			x := newTensor(t, o.DType, o.Sizes)
			outs = append(outs, x)
			args = append(args, &executor.EValue{Tag: executor.TagTensor, Tensor: x})
		}
		if len(outs) == 1 {
			args = append(args, args[len(args)-1])
		} else {
			l := &executor.EValue{Tag: executor.TagTensorList}
			l.TensorRefs = append(l.TensorRefs, args[len(args)-len(outs):]...)
			args = append(args, l)
		}
		err := k.Fn(&executor.KernelContext{Operator: c.Op}, args)
		if c.Result == nil {
			if err == nil {
				t.Errorf("%s: the official runtime refused (%s), etgo did not", c.Name, c.Error)
			} else {
				tl.exact++ // both refuse
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		results := c.Results
		if results == nil {
			results = []Arg{*c.Result}
		}
		if len(results) != len(outs) {
			t.Errorf("%s: %d official results for %d outputs", c.Name, len(results), len(outs))
			continue
		}
		limit := int64(ulps[op])
		exact := true
		for j, out := range outs {
			want, _ := base64.StdEncoding.DecodeString(results[j].Data)
			got := out.Bytes()
			if len(got) != len(want) {
				t.Errorf("%s: output %d has %d bytes, official %d", c.Name, j, len(got), len(want))
				exact = false
				continue
			}
			dt := out.ScalarType()
			size := executor.ElementSize(dt)
			reported := 0
			for i := 0; i+size <= len(got); i += size {
				tl.elems++
				d := Ulp(size, got[i:i+size], want[i:i+size])
				if size == 2 {
					switch gn, wn := halfNaN(dt, got[i:i+size]), halfNaN(dt, want[i:i+size]); {
					case gn && wn:
						d = 0
					case gn != wn:
						d = math.MaxInt32
					}
				}
				if d == 0 {
					continue
				}
				exact = false
				tl.off++
				tl.worst = max(tl.worst, d)
				if d > limit {
					if reported++; reported <= 3 {
						t.Errorf("%s: output %d element %d is %d ulps from the official (got %x, official %x; allowed %d)",
							c.Name, j, i/size, d, got[i:i+size], want[i:i+size], limit)
					}
				}
			}
			if reported > 3 {
				t.Errorf("%s: output %d: %d elements beyond %d ulps in all", c.Name, j, reported, limit)
			}
		}
		if exact {
			tl.exact++
		}
	}
	ops := make([]string, 0, len(per))
	for op := range per {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	exactOps := 0
	for _, op := range ops {
		tl := per[op]
		if tl.exact == tl.cases {
			exactOps++
		}
		t.Logf("%-40s cases %3d bit-exact %3d, elements off %d/%d (worst %d ulp)", op, tl.cases, tl.exact, tl.off, tl.elems, tl.worst)
	}
	t.Logf("%d operators swept, %d bit-exact on every case", len(ops), exactOps)
	return ran
}
