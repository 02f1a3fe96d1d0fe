package npy

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
	"github.com/x448/float16"
)

type vector struct {
	DType  string        `json:"dtype"`
	Shape  []int         `json:"shape"`
	Values []json.Number `json:"values"`
	Error  string        `json:"error"`
}

// loadVectors reads testdata/npy/vectors.json, written by numpy through
// tools/reference/generate_npy_vectors.py.
func loadVectors(t *testing.T) (string, map[string]vector) {
	t.Helper()
	dir := testutil.Testdata(t, "npy")
	raw, err := os.ReadFile(filepath.Join(dir, "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		t.Fatal(err)
	}
	out := map[string]vector{}
	for name, msg := range all {
		if strings.HasPrefix(name, "_") {
			continue
		}
		var v vector
		if err := json.Unmarshal(msg, &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = v
	}
	if len(out) < 10 {
		t.Fatalf("only %d vectors in %s", len(out), dir)
	}
	return dir, out
}

// UnmarshalJSON keeps numbers exact (int64 extremes) and maps booleans to 1 and 0.
func (v *vector) UnmarshalJSON(b []byte) error {
	type plain struct {
		DType  string            `json:"dtype"`
		Shape  []int             `json:"shape"`
		Values []json.RawMessage `json:"values"`
		Error  string            `json:"error"`
	}
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	v.DType, v.Shape, v.Error = p.DType, p.Shape, p.Error
	for _, r := range p.Values {
		s := string(r)
		switch s {
		case "true":
			s = "1"
		case "false":
			s = "0"
		}
		v.Values = append(v.Values, json.Number(s))
	}
	return nil
}

// TestNumpyVectors checks that what numpy wrote reads back as the values numpy held.
func TestNumpyVectors(t *testing.T) {
	dir, vectors := loadVectors(t)
	for name, want := range vectors {
		t.Run(name, func(t *testing.T) {
			a, err := Load(filepath.Join(dir, name+".npy"))
			if want.Error != "" {
				if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), want.Error) {
					t.Fatalf("Load error = %v, want ErrFormat mentioning %q", err, want.Error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.DType.String() != want.DType {
				t.Errorf("dtype %s, want %s", a.DType, want.DType)
			}
			if !slices.Equal(a.Shape, want.Shape) {
				t.Errorf("shape %v, want %v", a.Shape, want.Shape)
			}
			if a.NumElements() != len(want.Values) {
				t.Fatalf("%d elements, want %d", a.NumElements(), len(want.Values))
			}
			checkValues(t, a, want.Values)
		})
	}
}

func checkValues(t *testing.T, a *Array, want []json.Number) {
	t.Helper()
	switch a.DType {
	case Int64, Int32, Int16, Int8:
		got := exactInts(t, a)
		for i, w := range want {
			wi, err := strconv.ParseInt(string(w), 10, 64)
			if err != nil || got[i] != wi {
				t.Errorf("[%d] = %d, want %s", i, got[i], w)
			}
		}
	default: // unsigned, bool and floats are exact in float64 for these vectors
		got, err := a.Float64s()
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range want {
			wf, err := strconv.ParseFloat(string(w), 64)
			if err != nil {
				t.Fatal(err)
			}
			if math.Float64bits(got[i]) != math.Float64bits(wf) {
				t.Errorf("[%d] = %v, want %v", i, got[i], wf)
			}
		}
	}
}

func exactInts(t *testing.T, a *Array) []int64 {
	t.Helper()
	var out []int64
	var err error
	switch a.DType {
	case Int64:
		out, err = Values[int64](a)
	case Int32:
		v, e := Values[int32](a)
		out, err = widen(v), e
	case Int16:
		v, e := Values[int16](a)
		out, err = widen(v), e
	case Int8:
		v, e := Values[int8](a)
		out, err = widen(v), e
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func widen[T int8 | int16 | int32](v []T) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// TestEncodeMatchesNumpy checks byte identity with numpy.save for every little-endian vector,
// and that Read (streaming) agrees with Decode for all of them.
func TestEncodeMatchesNumpy(t *testing.T) {
	dir, vectors := loadVectors(t)
	for name, v := range vectors {
		if v.Error != "" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, name+".npy"))
			if err != nil {
				t.Fatal(err)
			}
			a, err := Decode(raw)
			if err != nil {
				t.Fatal(err)
			}
			enc, err := a.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(name, "_be_") && !bytes.Equal(enc, raw) {
				t.Errorf("Encode differs from numpy.save:\n got %q\nwant %q", enc[:min(len(enc), 128)], raw[:min(len(raw), 128)])
			}
			r, err := Read(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			if r.DType != a.DType || !slices.Equal(r.Shape, a.Shape) || !bytes.Equal(r.Data, a.Data) {
				t.Errorf("Read gives %s%v, Decode %s%v", r.DType, r.Shape, a.DType, a.Shape)
			}
		})
	}
}

func TestTypedRoundTrip(t *testing.T) {
	f32 := []float32{1, -2, float32(math.Inf(1)), float32(math.NaN()), 0, 5}
	a, err := FromValues([]int{2, 3}, f32)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := a.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if (len(enc)-len(a.Data))%64 != 0 {
		t.Errorf("preamble of %d bytes is not 64-aligned", len(enc)-len(a.Data))
	}
	b, err := Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Values[float32](b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f32 {
		if math.Float32bits(got[i]) != math.Float32bits(f32[i]) {
			t.Errorf("[%d] = %v, want %v", i, got[i], f32[i])
		}
	}
	if _, err := Values[int32](b); err == nil {
		t.Error("Values[int32] of a float32 array succeeded")
	}
	if _, err := FromValues([]int{2, 2}, f32); err == nil {
		t.Error("FromValues with 6 values for shape [2 2] succeeded")
	}
	h, err := FromValues([]int{2}, []float16.Float16{float16.Fromfloat32(1.5), float16.Fromfloat32(-3)})
	if err != nil || h.DType != Float16 {
		t.Fatalf("float16: %v, %v", h, err)
	}
	if v, _ := h.Float64s(); !slices.Equal(v, []float64{1.5, -3}) {
		t.Errorf("float16 values %v", v)
	}
}

func TestEncodeRefusesInconsistentArrays(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    Array
	}{
		{"short data", Array{DType: Float32, Shape: []int{2}, Data: make([]byte, 4)}},
		{"negative dim", Array{DType: Float32, Shape: []int{-1}, Data: nil}},
		{"invalid dtype", Array{DType: Invalid, Shape: []int{1}, Data: make([]byte, 1)}},
		{"overflow", Array{DType: Float64, Shape: []int{math.MaxInt / 4, math.MaxInt / 4}}},
	} {
		if _, err := tc.a.Encode(); err == nil {
			t.Errorf("%s: Encode succeeded", tc.name)
		}
	}
}

// preamble builds a v1 file around a header dictionary and a payload.
func preamble(dict string, payload []byte) []byte {
	b := []byte(magic + "\x01\x00")
	b = append(b, byte(len(dict)), byte(len(dict)>>8))
	return append(append(b, dict...), payload...)
}

func TestBadFiles(t *testing.T) {
	good := preamble("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", make([]byte, 8))
	v2huge := []byte(magic + "\x02\x00\xff\xff\xff\x7f")
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "magic"},
		{"wrong magic", []byte("\x93NUMPX\x01\x00\x00\x00"), "magic"},
		{"truncated in version", good[:7], "magic"},
		{"truncated in header length", good[:9], "header length"},
		{"truncated in header", good[:20], "runs past the end"},
		{"truncated in payload", good[:len(good)-1], "payload is 7 bytes"},
		{"trailing bytes", append(append([]byte{}, good...), 0), "payload is 9 bytes"},
		{"version 4", append([]byte(magic+"\x04\x00"), good[8:]...), "version 4.0"},
		{"version 1.1", append([]byte(magic+"\x01\x01"), good[8:]...), "version 1.1"},
		{"v2 header over limit", v2huge, "exceeds the limit"},
		{"non-ascii header", preamble("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\xff", make([]byte, 8)), "non-ASCII"},
		{"not a dict", preamble("['<f4']", nil), "does not start"},
		{"missing shape", preamble("{'descr': '<f4', 'fortran_order': False}", nil), `missing key "shape"`},
		{"extra key", preamble("{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}", nil), "unexpected key"},
		{"duplicate key", preamble("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}", nil), "twice"},
		{"unterminated string", preamble("{'descr: '<f4'}", nil), ""},
		{"escape in string", preamble(`{'descr': '<f\4', 'fortran_order': False, 'shape': ()}`, nil), "escape"},
		{"bad bool", preamble("{'descr': '<f4', 'fortran_order': 0, 'shape': ()}", nil), "True or False"},
		{"text after dict", preamble("{'descr': '<f4', 'fortran_order': False, 'shape': ()} x", nil), "after the dictionary"},
		{"negative dim", preamble("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,)}", nil), "negative"},
		{"not a tuple", preamble("{'descr': '<f4', 'fortran_order': False, 'shape': (2)}", nil), "not a tuple"},
		{"bad dim", preamble("{'descr': '<f4', 'fortran_order': False, 'shape': (2x,)}", nil), "expected ','"},
		{"dim too big for int", preamble("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", nil), "bad dimension"},
		{"size overflow", preamble("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", nil), "too large"},
		{"rank 65", preamble("{'descr': '<f4', 'fortran_order': False, 'shape': ("+strings.Repeat("1,", 65)+")}", nil), "more than 64"},
		{"fortran", preamble("{'descr': '<f4', 'fortran_order': True, 'shape': (2,)}", make([]byte, 8)), "fortran_order"},
		{"structured dtype", preamble("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': ()}", nil), "quoted string"},
		{"object dtype", preamble("{'descr': '|O', 'fortran_order': False, 'shape': ()}", nil), "not supported"},
		{"native order", preamble("{'descr': '=f4', 'fortran_order': False, 'shape': ()}", nil), "native byte order"},
		{"unknown kind", preamble("{'descr': '<c8', 'fortran_order': False, 'shape': ()}", nil), "not supported"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, decode := range []struct {
				name string
				fn   func([]byte) (*Array, error)
			}{{"Decode", Decode}, {"Read", func(b []byte) (*Array, error) { return Read(bytes.NewReader(b)) }}} {
				a, err := decode.fn(tc.data)
				if err == nil {
					t.Fatalf("%s succeeded: %s%v", decode.name, a.DType, a.Shape)
				}
				if !errors.Is(err, ErrFormat) {
					t.Errorf("%s: error %v does not wrap ErrFormat", decode.name, err)
				}
				// Read reports truncation while reading, with its own wording; Decode's is the reference.
				if decode.name == "Decode" && !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: error %q does not mention %q", decode.name, err, tc.want)
				}
			}
		})
	}
}

// FuzzDecode checks that no input panics, that Read, Load's sized read of a regular file and
// Decode agree, and that whatever decodes re-encodes to an equal array.
func FuzzDecode(f *testing.F) {
	dir := testutil.Testdata(f, "npy")
	files, _ := filepath.Glob(filepath.Join(dir, "*.npy"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := Decode(b)
		r, rerr := Read(bytes.NewReader(b))
		sized, serr := read(bytes.NewReader(b), int64(len(b)))
		if (err == nil) != (rerr == nil) || (err == nil) != (serr == nil) {
			t.Fatalf("Decode error %v, Read error %v, sized read error %v", err, rerr, serr)
		}
		if err != nil {
			return
		}
		for _, o := range []*Array{r, sized} {
			if o.DType != a.DType || !slices.Equal(o.Shape, a.Shape) || !bytes.Equal(o.Data, a.Data) {
				t.Fatal("Read and Decode disagree")
			}
		}
		enc, err := a.Encode()
		if err != nil {
			t.Fatalf("Encode of a decoded array: %v", err)
		}
		c, err := Decode(enc)
		if err != nil {
			t.Fatalf("Decode of an encoded array: %v", err)
		}
		if c.DType != a.DType || !slices.Equal(c.Shape, a.Shape) || !bytes.Equal(c.Data, a.Data) {
			t.Fatal("re-encoded array differs")
		}
	})
}
