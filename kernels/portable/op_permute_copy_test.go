package portable

import (
	"math"
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestPermuteCopy(t *testing.T) {
	f32 := executor.Float32
	shapeRun(t, "aten::permute_copy.out", []shapeCase{
		{"3-d", []any{shapeIota(t, 2, 3, 4), []int64{2, 0, 1}, empty(t, f32, 4, 2, 3)}, []int{4, 2, 3},
			[]float64{0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23}},
		{"negative dims", []any{shapeIota(t, 2, 3, 4), []int64{-1, -3, -2}, empty(t, f32, 4, 2, 3)}, []int{4, 2, 3},
			[]float64{0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23}},
		{"identity", []any{shapeIota(t, 2, 3), []int64{0, 1}, empty(t, f32, 2, 3)}, []int{2, 3}, shapeSeq(0, 6)},
		{"0-d", []any{tensor(t, []float32{7}), []int64{}, empty(t, f32)}, []int{}, []float64{7}},
		{"empty", []any{shapeIota(t, 0, 3), []int64{1, 0}, empty(t, f32, 3, 0)}, []int{3, 0}, nil},
		{"dynamic out", []any{shapeIota(t, 2, 3), []int64{1, 0}, dynamic(t, f32, 4, 4)}, []int{3, 2}, []float64{0, 3, 1, 4, 2, 5}},
		{"int8", []any{tensor(t, []int8{1, 2, 3, 4, 5, 6}, 2, 3), []int64{1, 0}, empty(t, executor.Int8, 3, 2)}, []int{3, 2}, []float64{1, 4, 2, 5, 3, 6}},
		// NCHW -> NHWC of a channels-last input (physically already NHWC).
		{"channels-last input", []any{shapeOrdered(t, []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, []int{1, 3, 2, 2}, channelsLast), []int64{0, 2, 3, 1}, empty(t, f32, 1, 2, 2, 3)},
			[]int{1, 2, 2, 3}, []float64{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}},
		{"channels-last out", []any{shapeIota(t, 1, 2, 2, 3), []int64{0, 3, 1, 2}, shapeOrderedEmpty(t, f32, []int{1, 3, 2, 2}, channelsLast)},
			[]int{1, 3, 2, 2}, []float64{0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11}},
	})
}

func TestPermuteCopyBitExact(t *testing.T) {
	nan := math.Float64frombits(0x7ff8_dead_beef_0001)
	big := int64(1<<62 + 1)
	x := tensor(t, []int64{big, -big, 3, 4}, 2, 2)
	out := empty(t, executor.Int64, 2, 2)
	if err := call(t, "aten::permute_copy.out", x, []int64{1, 0}, out, out); err != nil {
		t.Fatal(err)
	}
	if got, _ := executor.Values[int64](out); !slices.Equal(got, []int64{big, 3, -big, 4}) {
		t.Fatalf("got %v", got)
	}
	f := tensor(t, []float64{nan, 1}, 2, 1)
	fo := empty(t, executor.Float64, 1, 2)
	if err := call(t, "aten::permute_copy.out", f, []int64{1, 0}, fo, fo); err != nil {
		t.Fatal(err)
	}
	if b := shapeBits(t, fo); b[0] != 0x7ff8_dead_beef_0001 {
		t.Fatalf("NaN payload lost: %#x", b[0])
	}
}

func TestPermuteCopyErrors(t *testing.T) {
	x := shapeIota(t, 2, 3)
	out := empty(t, executor.Float32, 3, 2)
	wantErr(t, call(t, "aten::permute_copy.out", x, []int64{0, 0}, out, out), "more than once")
	wantErr(t, call(t, "aten::permute_copy.out", x, []int64{0}, out, out), "1 dims for a rank-2")
	wantErr(t, call(t, "aten::permute_copy.out", x, []int64{0, 2}, out, out), "out of range")
	wantErr(t, call(t, "aten::permute_copy.out", x, []int64{0, 1}, out, out), "cannot resize a static tensor")
	wantErr(t, call(t, "aten::permute_copy.out", x, []int64{1, 0}, empty(t, executor.Int32, 3, 2), out), "keeps the dtype")
	wantErr(t, call(t, "aten::permute_copy.out", x, 1, out, out), "argument 1 (dims): want IntList")
	wantErr(t, call(t, "aten::permute_copy.out", x, []int64{1, 0}, out), "3 arguments")
}
