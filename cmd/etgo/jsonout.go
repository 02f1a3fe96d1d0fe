package main

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/etgo/etgo/npy"
)

// writeJSON prints one --json document: every command indents the same way, so a reader (or a
// diff of two runs) sees one layout. The text is JSON for a terminal and for jq, not for an HTML
// page, so "<" stays "<" (inspect's operator names, error messages).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// number is a float64 that JSON can carry when it is not finite: JSON has no NaN or infinity,
// and tensors do, so those are the strings "nan", "inf" and "-inf" (as in the NaN fixtures'
// manifests, testdata/nan).
type number float64

func (n number) MarshalJSON() ([]byte, error) {
	f := float64(n)
	switch {
	case math.IsNaN(f):
		return []byte(`"nan"`), nil
	case math.IsInf(f, 1):
		return []byte(`"inf"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-inf"`), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// shortFloat32 is v (a float32 widened to float64) as the float64 nearest the shortest decimal
// that reads back as the same float32, so JSON shows 0.1 rather than 0.10000000149011612.
func shortFloat32(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	s := strconv.FormatFloat(v, 'g', -1, 32)
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return v
	}
	return f
}

// tensorStats is the summary etgo npy and etgo run print of a tensor, as JSON.
type tensorStats struct {
	Elements int `json:"elements"`
	NaN      int `json:"nan"`
	// Min, Max and Mean are over the elements that are not NaN; null when there are none.
	// An integer array's min and max are exact integers; the mean is a number.
	Min  json.RawMessage `json:"min"`
	Max  json.RawMessage `json:"max"`
	Mean json.RawMessage `json:"mean"`
}

// arrayFacts returns the statistics of arr and its first show values (all when show < 0) for
// JSON: integers exactly (an int64 past 2^53 does not survive a float64), booleans as true and
// false, floats as numbers in their own precision.
func arrayFacts(arr *npy.Array, show int) (tensorStats, []json.RawMessage, error) {
	v, err := arr.Float64s() // also checks the data's size against the shape
	if err != nil {
		return tensorStats{}, nil, err
	}
	s := tensorStats{Elements: len(v)}
	lo, hi, mean, nan := stats(v)
	s.NaN = nan
	integer := arr.DType != npy.Float16 && arr.DType != npy.Float32 && arr.DType != npy.Float64
	if nan < len(v) {
		s.Mean = numberJSON(mean)
		if integer {
			iLo, iHi := 0, 0
			for i := range v {
				if intLess(arr, i, iLo) {
					iLo = i
				}
				if intLess(arr, iHi, i) {
					iHi = i
				}
			}
			s.Min, s.Max = intJSON(arr, iLo), intJSON(arr, iHi)
		} else {
			s.Min, s.Max = numberJSON(elementValue(lo, arr.DType)), numberJSON(elementValue(hi, arr.DType))
		}
	}
	if show < 0 || show > len(v) {
		show = len(v)
	}
	values := make([]json.RawMessage, show)
	for i := range values {
		switch {
		case arr.DType == npy.Bool:
			values[i] = json.RawMessage(strconv.FormatBool(arr.Data[i] != 0))
		case integer:
			values[i] = intJSON(arr, i)
		default:
			values[i] = numberJSON(elementValue(v[i], arr.DType))
		}
	}
	return s, values, nil
}

func numberJSON(f float64) json.RawMessage {
	b, _ := number(f).MarshalJSON()
	return b
}

// intAt is element i of an integer (or bool) array, as a signed or an unsigned value.
func intAt(arr *npy.Array, i int) (v int64, u uint64, signed bool) {
	size := arr.DType.Size()
	b := arr.Data[i*size:]
	le := binary.LittleEndian
	switch arr.DType {
	case npy.Int8:
		return int64(int8(b[0])), 0, true
	case npy.Int16:
		return int64(int16(le.Uint16(b))), 0, true
	case npy.Int32:
		return int64(int32(le.Uint32(b))), 0, true
	case npy.Int64:
		return int64(le.Uint64(b)), 0, true
	case npy.Uint16:
		return 0, uint64(le.Uint16(b)), false
	case npy.Uint32:
		return 0, uint64(le.Uint32(b)), false
	case npy.Uint64:
		return 0, le.Uint64(b), false
	}
	return 0, uint64(b[0]), false // Bool, Uint8
}

func intLess(arr *npy.Array, i, j int) bool {
	vi, ui, signed := intAt(arr, i)
	vj, uj, _ := intAt(arr, j)
	if signed {
		return vi < vj
	}
	return ui < uj
}

func intJSON(arr *npy.Array, i int) json.RawMessage {
	v, u, signed := intAt(arr, i)
	if signed {
		return strconv.AppendInt(nil, v, 10)
	}
	return strconv.AppendUint(nil, u, 10)
}

// elementValue is one element of an array of dtype dt for JSON.
func elementValue(x float64, dt npy.DType) float64 {
	if dt == npy.Float32 || dt == npy.Float16 {
		return shortFloat32(x)
	}
	return x
}

// stats is the minimum, maximum and mean of the values of v that are not NaN, and how many are
// NaN (the three are meaningless when all are).
func stats(v []float64) (lo, hi, mean float64, nan int) {
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, x := range v {
		if math.IsNaN(x) {
			nan++
			continue
		}
		lo, hi, sum = min(lo, x), max(hi, x), sum+x
	}
	return lo, hi, sum / float64(len(v)-nan), nan
}
