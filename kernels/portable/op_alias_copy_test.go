package portable

import (
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestAliasCopy(t *testing.T) {
	shapeRun(t, "aten::alias_copy.out", []shapeCase{
		{"float32", []any{shapeIota(t, 2, 3), empty(t, executor.Float32, 2, 3)}, []int{2, 3}, shapeSeq(0, 6)},
		{"uint8", []any{tensor(t, []uint8{255, 0}, 2), empty(t, executor.Uint8, 2)}, []int{2}, []float64{255, 0}},
		{"empty", []any{shapeIota(t, 0), empty(t, executor.Float32, 0)}, []int{0}, nil},
	})
	big := []int64{1<<62 + 3, -(1<<62 + 5)}
	out := empty(t, executor.Int64, 2)
	if err := call(t, "aten::alias_copy.out", tensor(t, big, 2), out, out); err != nil {
		t.Fatal(err)
	}
	if got, _ := executor.Values[int64](out); !slices.Equal(got, big) {
		t.Fatalf("got %v", got)
	}
	wantErr(t, call(t, "aten::alias_copy.out", shapeIota(t, 2), empty(t, executor.Int32, 2), none), "keeps the dtype")
	wantErr(t, call(t, "aten::alias_copy.out", shapeIota(t, 2), empty(t, executor.Float32, 3), none), "cannot resize a static tensor")
}
