package passes

import (
	"errors"
	"strings"
	"testing"

	"github.com/etgo/etgo/ir"
)

func TestIsEdgeOp(t *testing.T) {
	for _, tc := range []struct {
		target string
		want   bool
	}{
		{"aten.convolution.default", true},
		{"aten.view_copy.default", true},    // view is core; Edge holds its copy
		{"aten.permute_copy.default", true}, // likewise
		{"aten.view.default", true},         // core itself (ReplaceViewOps runs before partitioning)
		{"dim_order_ops._to_dim_order_copy.default", true},
		{"aten.conv2d.default", false}, // decomposes to convolution
		{"aten.linear.default", false}, // not core: only a partitioner can keep it
		{"aten.cumsum_copy.default", false},
		{"aten.relu_.default", false}, // in-place: functionalised away
		{"", false},
	} {
		if got := IsEdgeOp(tc.target); got != tc.want {
			t.Errorf("IsEdgeOp(%q) = %v, want %v", tc.target, got, tc.want)
		}
	}
}

func TestVerifyEdge(t *testing.T) {
	g := ir.NewGraph()
	g.Nodes = []*ir.Node{{Name: "fc", Target: "aten.linear.default"}, {Name: "r", Target: "aten.relu.default"}}
	if err := VerifyEdge(g, []Preserve{{Ops: []string{"aten.linear.default"}}}); err != nil {
		t.Errorf("linear kept whole: %v", err)
	}
	err := VerifyEdge(g, nil)
	if !errors.Is(err, ErrNotEdge) || !strings.Contains(err.Error(), "node 0 (fc) calls aten.linear.default") {
		t.Errorf("error %v, want ErrNotEdge naming node fc", err)
	}
}
