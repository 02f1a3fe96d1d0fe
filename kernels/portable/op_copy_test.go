package portable

import (
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestCopy(t *testing.T) {
	f32 := executor.Float32
	shapeRun(t, "aten::copy.out", []shapeCase{
		{"same shape", []any{empty(t, f32, 2, 2), shapeIota(t, 2, 2), false, empty(t, f32, 2, 2)}, []int{2, 2}, shapeSeq(0, 4)},
		{"broadcast row", []any{empty(t, f32, 2, 3), tensor(t, []float32{1, 2, 3}, 3), false, empty(t, f32, 2, 3)}, []int{2, 3}, []float64{1, 2, 3, 1, 2, 3}},
		{"broadcast 0-d", []any{empty(t, f32, 2), tensor(t, []float32{4}), false, empty(t, f32, 2)}, []int{2}, []float64{4, 4}},
		{"converts to self's dtype", []any{empty(t, executor.Int32, 3), tensor(t, []float64{1.5, -2.5, 7}, 3), false, empty(t, executor.Int32, 3)}, []int{3}, []float64{1, -2, 7}},
		{"empty", []any{empty(t, f32, 0, 2), shapeIota(t, 2), false, empty(t, f32, 0, 2)}, []int{0, 2}, nil},
		{"channels-last self", []any{shapeOrderedEmpty(t, f32, []int{1, 3, 2, 2}, channelsLast), shapeIota(t, 1, 3, 2, 2), false, shapeOrderedEmpty(t, f32, []int{1, 3, 2, 2}, channelsLast)},
			[]int{1, 3, 2, 2}, shapeSeq(0, 12)},
	})
}

func TestCopyInPlace(t *testing.T) {
	self := empty(t, executor.Float32, 2, 3)
	if err := call(t, "aten::copy_", self, tensor(t, []int64{1, 2, 3}, 1, 3), false, self); err != nil {
		t.Fatal(err)
	}
	wantValuesAny(t, self, []int{2, 3}, []float64{1, 2, 3, 1, 2, 3})
	// Same dtype copies are bit-exact.
	big := []int64{1<<62 + 1, -(1<<53 + 1)}
	s := empty(t, executor.Int64, 2)
	if err := call(t, "aten::copy_", s, tensor(t, big, 2), false, s); err != nil {
		t.Fatal(err)
	}
	if got, _ := executor.Values[int64](s); !slices.Equal(got, big) {
		t.Fatalf("got %v", got)
	}
	wantErr(t, call(t, "aten::copy_", self, shapeIota(t, 2), false, self), "cannot be broadcast to [2 3]")
	wantErr(t, call(t, "aten::copy_", self, shapeIota(t, 2, 3), false), "3 arguments")
	wantErr(t, call(t, "aten::copy_", self, 1, false, self), "argument 1 (src): want Tensor")
}

func TestCopyErrors(t *testing.T) {
	f32 := executor.Float32
	wantErr(t, call(t, "aten::copy.out", empty(t, f32, 2, 3), shapeIota(t, 3, 3), false, empty(t, f32, 2, 3), none), "cannot be broadcast")
	wantErr(t, call(t, "aten::copy.out", empty(t, f32, 3), shapeIota(t, 2, 3), false, empty(t, f32, 3), none), "cannot be broadcast")
	wantErr(t, call(t, "aten::copy.out", empty(t, f32, 3), shapeIota(t, 3), false, empty(t, executor.Int32, 3), none), "keeps the dtype")
	wantErr(t, call(t, "aten::copy.out", empty(t, f32, 3), shapeIota(t, 3), false, empty(t, f32, 4), none), "cannot resize a static tensor")
}
