package passes

import (
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/irtext"
	"github.com/etgo/etgo/ir"
)

// The math rules' behaviour at their edges: what they refuse by name, and the Python number
// types they pass (the oracle in lower/decomp_test.go checks whole graphs).
func TestMathDecompositions(t *testing.T) {
	for _, tc := range []struct {
		name, graph, want, err string
		float                  string // a node whose first argument must be a Python float
	}{
		{
			name: "masked_fill gives a float tensor's fill value as a float",
			graph: `
in x f32[2,3]
in m bool[2,3]
y = aten.masked_fill.Scalar(self=x, mask=m, value=10) -> f32[2,3]
out y`,
			want:  "y_scalar_tensor: aten.scalar_tensor.default(s=10 dtype=6 layout= device=)\ny: aten.where.self(condition=m self=y_scalar_tensor other=x)\n| y",
			float: "y_scalar_tensor",
		},
		{
			name: "vector norms over size-1 dims are the absolute value",
			graph: `
in x f32[3,1]
y = aten.linalg_vector_norm.default(self=x, ord=2, dim=[1]) -> f32[3]
out y`,
			want: "y_abs: aten.abs.default(self=x)\ny: aten.view_copy.default(self=y_abs size=[3])\n| y",
		},
		{
			name: "broadcasting to a symbolic shape is refused by name",
			graph: `
sym s0
in x f32[s0,3]
in v f32[3]
y = aten.heaviside.default(self=x, values=v) -> f32[s0,3]
out y`,
			err: "broadcasting to a symbolic shape is not decomposed yet",
		},
		{
			name: "matrix norms that need singular values are refused by name",
			graph: `
in x f32[3,4]
y = aten.linalg_matrix_norm.default(self=x, ord=2, dim=[0,1]) -> f32[]
out y`,
			err: "needs singular values",
		},
		{
			name: "isin that would sort is refused by name",
			graph: `
in x f32[2]
in t f32[40]
y = aten.isin.Tensor_Tensor(elements=x, test_elements=t) -> bool[2]
out y`,
			err: "searchsorted",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := irtext.MustParse(tc.graph)
			_, err := ToEdge(g, nil)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := show(g); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
			for _, n := range g.Nodes {
				if n.Name == tc.float && (len(n.Args) == 0 || n.Args[0].Kind != ir.ArgFloat) {
					t.Errorf("%s: first argument %+v, want a float", n.Name, n.Args[0])
				}
			}
		})
	}
}
