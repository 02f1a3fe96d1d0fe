package portable

import (
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestEmpty(t *testing.T) {
	out := dynamic(t, executor.Float32, 4, 4)
	if err := call(t, "aten::empty.out", []int64{2, 3}, none, out, out); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(out.Sizes(), []int{2, 3}) {
		t.Errorf("sizes %v", out.Sizes())
	}
	if err := call(t, "aten::empty.out", []int64{4, 4}, 0, out, out); err != nil {
		t.Errorf("contiguous memory format: %v", err)
	}
	wantErr(t, call(t, "aten::empty.out", []int64{5, 4}, none, out, none), "capacity")
	wantErr(t, call(t, "aten::empty.out", []int64{2}, 2, empty(t, executor.Float32, 2), none), "memory format 2 is not supported")
	wantErr(t, call(t, "aten::empty.out", []int64{2}, none, empty(t, executor.Float32, 2)), "takes 4 (with the return slot)")
}
