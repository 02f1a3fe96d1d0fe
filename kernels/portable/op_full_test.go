package portable

import (
	"math"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestFull(t *testing.T) {
	shapeRun(t, "aten::full.out", []shapeCase{
		{"float", []any{[]int64{2, 3}, 1.5, empty(t, executor.Float32, 2, 3)}, []int{2, 3}, []float64{1.5, 1.5, 1.5, 1.5, 1.5, 1.5}},
		{"float into int truncates", []any{[]int64{2}, 2.7, empty(t, executor.Int32, 2)}, []int{2}, []float64{2, 2}},
		{"int into float16", []any{[]int64{1}, 3, empty(t, executor.Float16, 1)}, []int{1}, []float64{3}},
		{"bool", []any{[]int64{2}, true, empty(t, executor.Bool, 2)}, []int{2}, []float64{1, 1}},
		{"-inf", []any{[]int64{1}, math.Inf(-1), empty(t, executor.Float32, 1)}, []int{1}, []float64{math.Inf(-1)}},
		{"0-d", []any{[]int64{}, -4, empty(t, executor.Int8)}, []int{}, []float64{-4}},
		{"empty", []any{[]int64{0, 3}, 1, empty(t, executor.Float32, 0, 3)}, []int{0, 3}, nil},
		{"dynamic", []any{[]int64{2, 2}, 7, dynamic(t, executor.Int64, 4, 4)}, []int{2, 2}, []float64{7, 7, 7, 7}},
		{"channels-last", []any{[]int64{1, 2, 2, 2}, 0.25, shapeOrderedEmpty(t, executor.Float32, []int{1, 2, 2, 2}, channelsLast)}, []int{1, 2, 2, 2},
			[]float64{0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25}},
	})
	big := int64(1<<62 + 1)
	out := empty(t, executor.Int64, 2)
	if err := call(t, "aten::full.out", []int64{2}, big, out, out); err != nil {
		t.Fatal(err)
	}
	if got, _ := executor.Values[int64](out); !slices.Equal(got, []int64{big, big}) {
		t.Fatalf("got %v", got)
	}
}

func TestFullErrors(t *testing.T) {
	wantErr(t, call(t, "aten::full.out", []int64{2}, 300, empty(t, executor.Int8, 2), none), "value 300 overflows int8")
	wantErr(t, call(t, "aten::full.out", []int64{2}, math.NaN(), empty(t, executor.Int32, 2), none), "overflows int32")
	wantErr(t, call(t, "aten::full.out", []int64{2}, 1e300, empty(t, executor.Float32, 2), none), "overflows float32")
	wantErr(t, call(t, "aten::full.out", []int64{-2}, 1, empty(t, executor.Float32, 2), none), "negative")
	wantErr(t, call(t, "aten::full.out", []int64{3}, 1, empty(t, executor.Float32, 2), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::full.out", []int64{2}, "x", empty(t, executor.Float32, 2), none), "argument 1 (fill_value): want a Scalar")
}
