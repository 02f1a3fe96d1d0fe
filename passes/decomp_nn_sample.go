package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// Sliding blocks and grid sampling: im2col (unfold) as torch's decomposition gathers the
// blocks with two index grids, grid_sampler as ATen dispatches it by rank.

func init() {
	registerRule(im2col, "aten.im2col.default")
	registerRule(gridSampler, "aten.grid_sampler.default")
}

// blockIndices is _im2col_col2im_indices_along_dim: the start of every block along a dim (a row)
// plus the dilated kernel offsets (a column).
func blockIndices(b *Builder, in, k, d, p, s int64) *ir.Value {
	arange := func(end, step int64) *ir.Value {
		return b.Call("aten.arange.start_step", I("start", 0), I("end", end), I("step", step), Dt("dtype", ir.Int64), deviceCPU(),
			ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true})
	}
	starts := b.Call("aten.unsqueeze.default", T("self", arange(in+2*p-d*(k-1), s)), I("dim", 0))
	grid := b.Call("aten.unsqueeze.default", T("self", arange(k*d, d)), I("dim", -1))
	return b.Call("aten.add.Tensor", T("self", starts), T("other", grid))
}

// im2col(x, kernel, dilation, padding, stride): the padded input indexed by the row grid (as
// [kh, nh, 1, 1]) and the column grid ([kw, nw]), permuted to [N, C, kh, kw, nh, nw] and
// reshaped to [N, C·kh·kw, nh·nw]; an unbatched input is unsqueezed first and squeezed last.
func im2col(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	two := func(name string) ([]int64, error) {
		v := n.IntsArg(name, nil)
		if len(v) != 2 {
			return nil, fmt.Errorf("im2col: %s must be two ints, not %v", name, v)
		}
		return v, nil
	}
	var lists [4][]int64
	for i, name := range []string{"kernel_size", "dilation", "padding", "stride"} {
		v, err := two(name)
		if err != nil {
			return err
		}
		lists[i] = v
	}
	k, d, p, s := lists[0], lists[1], lists[2], lists[3]
	rank := len(x.Meta.Sizes)
	if (rank != 3 && rank != 4) || !x.Meta.IsStatic() {
		return fmt.Errorf("im2col of %s", x.Meta)
	}
	batched := rank == 4
	if !batched {
		x = b.Call("aten.unsqueeze.default", T("self", x), I("dim", 0))
	}
	sz := sizesOf(x.Meta)
	rows := blockIndices(b, sz[2], k[0], d[0], p[0], s[0])
	cols := blockIndices(b, sz[3], k[1], d[1], p[1], s[1])
	padded := b.Call("aten.constant_pad_nd.default", T("self", x), Is("pad", p[1], p[1], p[0], p[0]), F("value", 0))
	rows = b.Call("aten.unsqueeze.default", T("self", b.Call("aten.unsqueeze.default", T("self", rows), I("dim", -1))), I("dim", -1))
	out := b.Call("aten.index.Tensor", T("self", padded), OptTs("indices", nil, nil, rows, cols))
	out = b.Call("aten.permute.default", T("self", out), Is("dims", 0, 1, 2, 4, 3, 5))
	if b.Err() != nil {
		return b.Err()
	}
	nh, nw := rows.Meta.Sizes[1].Size, cols.Meta.Sizes[1].Size
	out = b.Call("aten.reshape.default", T("self", out), Is("shape", sz[0], sz[1]*k[0]*k[1], nh*nw))
	if !batched {
		out = b.Call("aten.squeeze.dims", T("self", out), Is("dim", 0))
	}
	return b.Replace(out)
}

// grid_sampler is grid_sampler_2d for a 4-d input (grid_sampler_3d, for 5-d, is not in the
// Edge dialect: the official conversion refuses it too).
func gridSampler(b *Builder, n *ir.Node) error {
	x, err := tensorIn(n, "input")
	if err != nil {
		return err
	}
	if len(x.Meta.Sizes) != 4 {
		return fmt.Errorf("grid_sampler of a %d-d input: only 4-d inputs (grid_sampler_2d) are in the Edge dialect", len(x.Meta.Sizes))
	}
	args := []ir.Arg{T("input", x)}
	for _, name := range []string{"grid", "interpolation_mode", "padding_mode", "align_corners"} {
		a := n.Arg(name)
		if a == nil {
			return fmt.Errorf("grid_sampler without %s", name)
		}
		args = append(args, Renamed(*a, name))
	}
	return b.Replace(b.Call("aten.grid_sampler_2d.default", args...))
}
