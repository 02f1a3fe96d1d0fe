package portable

import (
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestArange(t *testing.T) {
	shapeRun(t, "aten::arange.out", []shapeCase{
		{"int64", []any{5, empty(t, executor.Int64, 5)}, []int{5}, shapeSeq(0, 5)},
		{"float end", []any{2.5, empty(t, executor.Float32, 3)}, []int{3}, []float64{0, 1, 2}},
		{"zero", []any{0, empty(t, executor.Float32, 0)}, []int{0}, nil},
		{"dynamic", []any{3, dynamic(t, executor.Int32, 10)}, []int{3}, []float64{0, 1, 2}},
	})
	shapeRun(t, "aten::arange.start_out", []shapeCase{
		{"float step", []any{0, 1, 0.3, empty(t, executor.Float32, 4)}, []int{4}, []float64{0, float64(float32(0.3)), float64(float32(0.6)), float64(float32(0.9))}},
		{"negative step", []any{5, 1, -2, empty(t, executor.Int64, 2)}, []int{2}, []float64{5, 3}},
		{"float start", []any{-1.5, 2, 1, empty(t, executor.Float64, 4)}, []int{4}, []float64{-1.5, -0.5, 0.5, 1.5}},
		{"0.1 steps", []any{0, 1, 0.1, dynamic(t, executor.Float32, 20)}, []int{10}, []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}},
		{"int32", []any{-2, 2, 1, empty(t, executor.Int32, 4)}, []int{4}, []float64{-2, -1, 0, 1}},
		{"empty range", []any{3, 3, 1, empty(t, executor.Int64, 0)}, []int{0}, nil},
	})
	// Integer ranges are exact beyond 2^53.
	out := empty(t, executor.Int64, 3)
	if err := call(t, "aten::arange.start_out", int64(1<<60), int64(1<<60+3), 1, out, out); err != nil {
		t.Fatal(err)
	}
	if got, _ := executor.Values[int64](out); !slices.Equal(got, []int64{1 << 60, 1<<60 + 1, 1<<60 + 2}) {
		t.Fatalf("got %v", got)
	}
}

func TestArangeErrors(t *testing.T) {
	wantErr(t, call(t, "aten::arange.start_out", 0, 5, 0, empty(t, executor.Int64, 5), none), "inconsistent with step sign")
	wantErr(t, call(t, "aten::arange.start_out", true, 5, 1, empty(t, executor.Int64, 5), none), "arange start is a Bool")
	wantErr(t, call(t, "aten::arange.start_out", 0, 5, -1, empty(t, executor.Int64, 5), none), "inconsistent with step sign")
	wantErr(t, call(t, "aten::arange.out", -1, empty(t, executor.Int64, 5), none), "inconsistent with step sign")
	wantErr(t, call(t, "aten::arange.out", 5, empty(t, executor.Int64, 4), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::arange.out", 5, empty(t, executor.Int64, 5, 1), none), "1-d out")
	wantErr(t, call(t, "aten::arange.out", "x", empty(t, executor.Int64, 5), none), "argument 0 (end)")
}

func TestArangeLargeBounds(t *testing.T) {
	// 2^60+1 and 2^60 are equal as float64; the integer check still sees the wrong order.
	wantErr(t, call(t, "aten::arange.start_out", int64(1<<60+1), int64(1<<60), 1, dynamic(t, executor.Int64, 4), none), "inconsistent with step sign")
}
