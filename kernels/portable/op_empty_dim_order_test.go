package portable

import (
	"slices"
	"testing"

	"github.com/etgo/etgo/executor"
)

func TestEmptyDimOrder(t *testing.T) {
	out := dynamic(t, executor.Float32, 4, 4)
	if err := call(t, "dim_order_ops::_empty_dim_order.out", []int64{3, 2}, []int64{0, 1}, out, out); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(out.Sizes(), []int{3, 2}) {
		t.Errorf("sizes %v", out.Sizes())
	}
	cl := shapeOrderedEmpty(t, executor.Float32, []int{1, 2, 2, 2}, channelsLast)
	if err := call(t, "dim_order_ops::_empty_dim_order.out", []int64{1, 2, 2, 2}, []int64{0, 2, 3, 1}, cl, cl); err != nil {
		t.Errorf("channels-last: %v", err)
	}
	wantErr(t, call(t, "dim_order_ops::_empty_dim_order.out", []int64{1, 2, 2, 2}, none, cl, none), "None means contiguous")
	wantErr(t, call(t, "dim_order_ops::_empty_dim_order.out", []int64{1, 2, 2, 2}, []int64{0, 1, 2, 3}, cl, none), "differs from out's dim order")
	wantErr(t, call(t, "dim_order_ops::_empty_dim_order.out", []int64{5, 4}, none, out, none), "capacity")
}
