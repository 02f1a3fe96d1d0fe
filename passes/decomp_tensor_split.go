package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

func init() {
	registerRule(tensorSplit, "aten.tensor_split.indices", "aten.tensor_split.sections")
}

// tensorSplit is ATen's composite tensor_split: one slice per piece along dim, with the
// indices as given (a piece between decreasing or out-of-range indices is an empty slice,
// not an error), or for sections pieces of dim_size/sections elements, the first
// dim_size%sections of them one longer.
func tensorSplit(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	d, err := normDim(n.IntArg("dim", 0), len(x.Meta.Sizes))
	if err != nil {
		return fmt.Errorf("%s: %w", n.Target, err)
	}
	if len(x.Meta.Sizes) == 0 {
		return fmt.Errorf("%s of a 0-d tensor", n.Target)
	}
	if !x.Meta.Sizes[d].IsStatic() {
		return fmt.Errorf("%s along a symbolic dim (%s) is not decomposed yet", n.Target, x.Meta)
	}
	var sections int64
	var indices []int64
	if n.Target == "aten.tensor_split.sections" {
		a := n.Arg("sections")
		if a == nil || a.Kind != ir.ArgInt || a.Int <= 0 {
			return fmt.Errorf("%s: sections is not a positive int", n.Target)
		}
		sections = a.Int
	} else {
		a := n.Arg("indices")
		if a == nil || a.Kind != ir.ArgInts {
			return fmt.Errorf("%s: indices is not a list of ints", n.Target)
		}
		indices = a.Ints
	}
	return b.Replace(splitPieces(b, x, d, sections, indices)...)
}

// splitPieces slices x along dim d (static) into tensor_split's pieces: sections of them
// when sections is positive, else the pieces between indices.
func splitPieces(b *Builder, x *ir.Value, d int, sections int64, indices []int64) []*ir.Value {
	size := x.Meta.Sizes[d].Size
	var bounds [][2]int64
	if sections > 0 {
		k := sections
		start := int64(0)
		for i := range k {
			length := size / k
			if i < size%k {
				length++
			}
			bounds = append(bounds, [2]int64{start, start + length})
			start += length
		}
	} else {
		start := int64(0)
		for _, end := range indices {
			bounds = append(bounds, [2]int64{start, end})
			start = end
		}
		bounds = append(bounds, [2]int64{start, size})
	}
	outs := make([]*ir.Value, len(bounds))
	for i, s := range bounds {
		outs[i] = b.Call("aten.slice.Tensor", T("self", x), I("dim", int64(d)), I("start", s[0]), I("end", s[1]), I("step", 1))
	}
	return outs
}
