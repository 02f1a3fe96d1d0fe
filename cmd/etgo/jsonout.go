package main

import (
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/etgo/etgo/npy"
)

// writeJSON prints one --json document: every command indents the same way, so a reader (or a
// diff of two runs) sees one layout.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
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
	Min  *number `json:"min"`
	Max  *number `json:"max"`
	Mean *number `json:"mean"`
}

// summarize computes the statistics of v, the values of an array of dtype dt (whose float32
// and float16 values print in their own precision).
func summarize(v []float64, dt npy.DType) tensorStats {
	s := tensorStats{Elements: len(v)}
	lo, hi, mean, nan := stats(v)
	s.NaN = nan
	if nan < len(v) {
		lo, hi = elementValue(lo, dt), elementValue(hi, dt)
		s.Min, s.Max, s.Mean = (*number)(&lo), (*number)(&hi), (*number)(&mean)
	}
	return s
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

// elementValue is one element of an array of dtype dt for JSON.
func elementValue(x float64, dt npy.DType) float64 {
	if dt == npy.Float32 || dt == npy.Float16 {
		return shortFloat32(x)
	}
	return x
}
