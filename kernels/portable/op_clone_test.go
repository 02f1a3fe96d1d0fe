package portable

import (
	"math"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestClone(t *testing.T) {
	f32 := executor.Float32
	shapeRun(t, "aten::clone.out", []shapeCase{
		{"float32", []any{shapeIota(t, 2, 3), none, empty(t, f32, 2, 3)}, []int{2, 3}, shapeSeq(0, 6)},
		{"contiguous format", []any{shapeIota(t, 2, 3), 0, empty(t, f32, 2, 3)}, []int{2, 3}, shapeSeq(0, 6)},
		{"preserve format", []any{tensor(t, []int8{-1, 2}, 2), 1, empty(t, executor.Int8, 2)}, []int{2}, []float64{-1, 2}},
		{"0-d", []any{tensor(t, []bool{true}), none, empty(t, executor.Bool)}, []int{}, []float64{1}},
		{"empty", []any{shapeIota(t, 0, 3), none, empty(t, f32, 0, 3)}, []int{0, 3}, nil},
		{"dynamic", []any{shapeIota(t, 2, 2), none, dynamic(t, f32, 3, 3)}, []int{2, 2}, shapeSeq(0, 4)},
		{"channels-last to channels-last", []any{shapeOrdered(t, shapeIotaF32(12), []int{1, 3, 2, 2}, channelsLast), 1, shapeOrderedEmpty(t, f32, []int{1, 3, 2, 2}, channelsLast)},
			[]int{1, 3, 2, 2}, shapeSeq(0, 12)},
	})
	nan := math.Float32frombits(0x7fc0_1234)
	x := tensor(t, []float32{nan, float32(math.Copysign(0, -1))}, 2)
	out := empty(t, f32, 2)
	if err := call(t, "aten::clone.out", x, none, out, out); err != nil {
		t.Fatal(err)
	}
	if b := shapeBits(t, out); b[0] != 0x7fc0_1234 || b[1] != 0x8000_0000 {
		t.Fatalf("bits %#x", b)
	}
}

func TestCloneErrors(t *testing.T) {
	x := shapeIota(t, 2, 3)
	wantErr(t, call(t, "aten::clone.out", x, none, empty(t, executor.Float64, 2, 3), none), "keeps the dtype")
	wantErr(t, call(t, "aten::clone.out", x, none, empty(t, executor.Float32, 3, 2), none), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::clone.out", x, 2, empty(t, executor.Float32, 2, 3), none), "memory format 2")
	wantErr(t, call(t, "aten::clone.out", shapeIota(t, 1, 3, 2, 2), 0, shapeOrderedEmpty(t, executor.Float32, []int{1, 3, 2, 2}, channelsLast), none), "contiguous_format")
	wantErr(t, call(t, "aten::clone.out", x, 0.5, empty(t, executor.Float32, 2, 3), none), "argument 1 (memory_format): want Int")
}
