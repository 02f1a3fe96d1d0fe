package passes

import (
	"cmp"
	"slices"

	"github.com/etgo/etgo/ir"
)

// strides tracks, for the ATen graph before views become copies, the element strides each value
// has: views (permute, transpose, slice, select, unsqueeze, squeeze, expand, view) share their
// input's storage with new strides; elementwise operators a decomposition adds lay their
// result out as TensorIterator does; every other operator returns a tensor dense in the dim order the .pt2
// recorded for it (contiguous when none). reshape is a view exactly when these strides allow
// one, which decides whether a copy is needed.
type strides struct {
	known map[*ir.Value][]int64
	// recorded are the values the graph had before decomposing: the .pt2 recorded their
	// layout (export's own, in-place results included), which is trusted over emulation.
	recorded map[*ir.Value]bool
}

func contiguous(sizes []int64) []int64 {
	s := make([]int64, len(sizes))
	acc := int64(1)
	for i := len(sizes) - 1; i >= 0; i-- {
		s[i] = acc
		acc *= max(sizes[i], 1)
	}
	return s
}

// norm maps a possibly negative dim into [0, rank).
func norm(d int64, rank int) (int, bool) {
	if d < 0 {
		d += int64(rank)
	}
	return int(d), d >= 0 && d < int64(rank)
}

func (st *strides) of(v *ir.Value) []int64 {
	if s, ok := st.known[v]; ok {
		return s
	}
	s := st.compute(v)
	if len(s) != len(v.Meta.Sizes) {
		// Metadata that disagrees with the operator (a malformed graph): assume a fresh tensor.
		s = contiguous(sizesOf(v.Meta))
	}
	st.known[v] = s
	return s
}

func (st *strides) compute(v *ir.Value) []int64 {
	out := sizesOf(v.Meta)
	// A fresh tensor (a graph input, or the result of an operator that is not a view) is dense
	// in its dim order: the one the .pt2 recorded (ATen's elementwise and convolution kernels
	// keep their input's memory format), or contiguous.
	fresh := contiguous(out)
	if v.Meta.DimOrder != nil && len(v.Meta.DimOrder) == len(out) {
		fresh = stridesFor(out, v.Meta.DimOrder)
	}
	n := v.Producer
	if n == nil && len(v.InputStrides) == len(out) {
		return slices.Clone(v.InputStrides)
	}
	if n != nil && !st.recorded[v] && pointwiseATen[n.Target] && len(n.Outputs) == 1 && n.Outputs[0] == v && v.Meta.IsStatic() {
		// An explicit memory format (clone, _to_copy) decides; preserve_format is
		// TensorIterator's choice.
		switch f := n.Arg("memory_format"); {
		case f != nil && f.Kind == ir.ArgMemoryFormat && f.Int == memoryFormatContiguous:
			return contiguous(out)
		case f != nil && f.Kind == ir.ArgMemoryFormat && f.Int == memoryFormatChannelsLast && len(out) == 4:
			return stridesFor(out, []int64{0, 2, 3, 1})
		case f != nil && f.Kind == ir.ArgMemoryFormat && f.Int == memoryFormatChannelsLast3d && len(out) == 5:
			return stridesFor(out, []int64{0, 2, 3, 4, 1})
		}
		if s, ok := st.elementwise(n, out); ok {
			return s
		}
	}
	if n == nil || len(n.Args) == 0 || n.Args[0].Kind != ir.ArgTensor || len(n.Args[0].Values) != 1 {
		return fresh
	}
	in := n.Args[0].Values[0]
	if in == nil || in.Meta == nil || !in.Meta.IsStatic() || !v.Meta.IsStatic() {
		return fresh
	}
	inSizes, inStrides := sizesOf(in.Meta), st.of(in)
	r := len(inSizes)
	switch n.Target {
	case "aten.split_with_sizes.default", "aten.split.Tensor", "aten.chunk.default", "aten.unbind.int":
		// Pieces of a split keep the input's strides (unbind drops the split dim).
		if len(out) == r {
			return append([]int64(nil), inStrides...)
		}
	case "aten.permute.default":
		dims := n.IntsArg("dims", nil)
		if len(dims) != r {
			break
		}
		s := make([]int64, r)
		for i, d := range dims {
			k, ok := norm(d, r)
			if !ok {
				return contiguous(out)
			}
			s[i] = inStrides[k]
		}
		return s
	case "aten.transpose.int", "aten.t.default":
		a, b := n.IntArg("dim0", 0), n.IntArg("dim1", 1)
		i, ok1 := norm(a, r)
		j, ok2 := norm(b, r)
		if !ok1 || !ok2 {
			break
		}
		s := append([]int64(nil), inStrides...)
		s[i], s[j] = s[j], s[i]
		return s
	case "aten.slice.Tensor":
		d, ok := norm(n.IntArg("dim", 0), r)
		if !ok || len(out) != r {
			break
		}
		s := append([]int64(nil), inStrides...)
		s[d] *= n.IntArg("step", 1)
		return s
	case "aten.select.int":
		d, ok := norm(n.IntArg("dim", 0), r)
		if !ok {
			break
		}
		return append(append([]int64(nil), inStrides[:d]...), inStrides[d+1:]...)
	case "aten.unsqueeze.default":
		d, ok := norm(n.IntArg("dim", 0), r+1)
		if !ok {
			break
		}
		ins := int64(1)
		if d < r {
			ins = inStrides[d] * max(inSizes[d], 1)
		}
		s := append(append(append([]int64(nil), inStrides[:d]...), ins), inStrides[d:]...)
		return s
	case "aten.squeeze.dim", "aten.squeeze.dims", "aten.squeeze.default":
		var s []int64
		for i := range inSizes {
			if inSizes[i] == 1 && len(out) < r && squeezes(n, i, r) {
				continue
			}
			s = append(s, inStrides[i])
		}
		if len(s) == len(out) {
			return s
		}
	case "aten.expand.default":
		lead := len(out) - r
		if lead < 0 {
			break
		}
		s := make([]int64, len(out))
		for i := range out {
			switch {
			case i < lead:
				s[i] = 0
			case inSizes[i-lead] == 1 && out[i] != 1:
				s[i] = 0
			default:
				s[i] = inStrides[i-lead]
			}
		}
		return s
	case "aten.view.default", "aten.alias.default", "aten.detach.default":
		if s, ok := viewStrides(inSizes, inStrides, out); ok {
			return s
		}
	}
	return fresh
}

// squeezes reports whether a squeeze node removes dim i.
func squeezes(n *ir.Node, i, r int) bool {
	if n.Target == "aten.squeeze.default" {
		return true
	}
	dims := n.IntsArg("dim", nil)
	if n.Target == "aten.squeeze.dim" {
		dims = []int64{n.IntArg("dim", 0)}
	}
	for _, d := range dims {
		if k, ok := norm(d, r); ok && k == i {
			return true
		}
	}
	return false
}

// viewable reports whether a tensor of these sizes and strides can be viewed with newSizes.
func viewable(sizes, strides, newSizes []int64) bool {
	_, ok := viewStrides(sizes, strides, newSizes)
	return ok
}

// viewStrides is ATen's computeStride: the strides a view with newSizes would have, if one
// exists. Dims are matched in chunks of memory-contiguous dims, from the innermost.
func viewStrides(sizes, strides, newSizes []int64) ([]int64, bool) {
	if len(sizes) == 0 {
		return contiguous(newSizes), true
	}
	numel := int64(1)
	for _, s := range sizes {
		numel *= s
	}
	if numel == 0 {
		return contiguous(newSizes), true
	}
	out := make([]int64, len(newSizes))
	viewD := len(newSizes) - 1
	chunkBase := strides[len(strides)-1]
	tensorNumel, viewNumel := int64(1), int64(1)
	for d := len(sizes) - 1; d >= 0; d-- {
		tensorNumel *= sizes[d]
		if d == 0 || (sizes[d-1] != 1 && strides[d-1] != tensorNumel*chunkBase) {
			for viewD >= 0 && (viewNumel < tensorNumel || newSizes[viewD] == 1) {
				out[viewD] = viewNumel * chunkBase
				viewNumel *= newSizes[viewD]
				viewD--
			}
			if viewNumel != tensorNumel {
				return nil, false
			}
			if d > 0 {
				chunkBase = strides[d-1]
				tensorNumel, viewNumel = 1, 1
			}
		}
	}
	if viewD != -1 {
		return nil, false
	}
	return out, true
}

// channelsLast2d reports whether a 4-D tensor's strides make ATen's suggest_memory_format()
// answer channels_last (c10's is_channels_last_strides_2d), channelsLast3d the same for a 5-D
// tensor and channels_last_3d.
func channelsLast2d(sizes, strides []int64) bool {
	return len(sizes) == 4 && channelsLastStrides(sizes, strides, []int{1, 3, 2, 0})
}

func channelsLast3d(sizes, strides []int64) bool {
	return len(sizes) == 5 && channelsLastStrides(sizes, strides, []int{1, 4, 3, 2, 0})
}

// channelsLastStrides visits the dims from the innermost of the channels-last order: each
// stride is at least the extent of the dims visited before it; a C stride of 0 and the
// ambiguous N11… case (N's stride equal to C's) answer contiguous.
func channelsLastStrides(sizes, strides []int64, order []int) bool {
	if len(strides) != len(sizes) || strides[1] == 0 {
		return false
	}
	var min int64
	for _, d := range order {
		if sizes[d] == 0 || strides[d] < min {
			return false
		}
		if d == 0 && min == strides[1] {
			return false
		}
		min = strides[d]
		if sizes[d] > 1 {
			min *= sizes[d]
		}
	}
	return true
}

// elementwise is the layout TensorIterator gives an elementwise operator's result (the
// strides export records, which later reshapes read): the inputs' common layout when they
// all have the result's shape and one dense layout, else dense in the order of the
// inputs' strides (reorder_dimensions: dims sorted by stride, the first input that tells two
// dims apart decides, broadcast dims do not count).
func (st *strides) elementwise(n *ir.Node, out []int64) ([]int64, bool) {
	r := len(out)
	var ops [][]int64 // each input's strides over the result's dims (0 where it broadcasts)
	sameShape := true
	for _, a := range n.Args {
		if a.Kind != ir.ArgTensor || len(a.Values) != 1 || a.Values[0] == nil || a.Values[0].Meta == nil {
			continue
		}
		x := a.Values[0]
		if !x.Meta.IsStatic() || len(x.Meta.Sizes) > r {
			return nil, false
		}
		sizes, xs := sizesOf(x.Meta), st.of(x)
		if !slices.Equal(sizes, out) {
			sameShape = false
		}
		ops = append(ops, broadcastStrides(sizes, xs, out))
	}
	if len(ops) == 0 || r <= 1 {
		return contiguous(out), true
	}
	if sameShape {
		if s, ok := commonDenseLayout(ops, out); ok {
			return s, true
		}
	}
	// perm lists dims from the fastest-varying; it starts as the reverse of the dims.
	perm := make([]int, r)
	for i := range perm {
		perm[i] = r - 1 - i
	}
	swap := func(d0, d1 int) int {
		for _, s := range ops {
			a, b := s[d0], s[d1]
			if a == 0 || b == 0 {
				continue
			}
			if a < b {
				return -1
			}
			if a > b {
				return 1
			}
			if out[d0] > out[d1] {
				return 1
			}
		}
		return 0
	}
	for i := 1; i < r; i++ {
		d1 := i
		for d0 := i - 1; d0 >= 0; d0-- {
			c := swap(perm[d0], perm[d1])
			if c > 0 {
				perm[d0], perm[d1] = perm[d1], perm[d0]
				d1 = d0
			} else if c < 0 {
				break
			}
		}
	}
	s := make([]int64, r)
	acc := int64(1)
	for _, d := range perm {
		s[d] = acc
		acc *= max(out[d], 1)
	}
	return s, true
}

// broadcastStrides aligns an operand's strides with the result's dims, as TensorIterator
// sees them: missing leading dims and size-1 dims the result expands have stride 0.
func broadcastStrides(sizes, strides, out []int64) []int64 {
	s := make([]int64, len(out))
	lead := len(out) - len(sizes)
	for i := range sizes {
		if sizes[i] == 1 && out[lead+i] != 1 {
			continue
		}
		s[lead+i] = strides[i]
	}
	return s
}

// commonDenseLayout is TensorIterator's fast setup for same-shaped inputs: all contiguous,
// all channels-last, or all one non-overlapping dense layout — then the result has it.
func commonDenseLayout(ops [][]int64, sizes []int64) ([]int64, bool) {
	allContig, allCL, allDense := true, len(sizes) == 4, true
	for _, s := range ops {
		allContig = allContig && sameLayout(sizes, s, contiguous(sizes))
		allCL = allCL && len(sizes) == 4 && sameLayout(sizes, s, stridesFor(sizes, []int64{0, 2, 3, 1}))
		allDense = allDense && nonOverlappingDense(sizes, s)
	}
	switch {
	case allContig:
		return contiguous(sizes), true
	case allCL:
		return stridesFor(sizes, []int64{0, 2, 3, 1}), true
	case allDense:
		for _, s := range ops[1:] {
			if !slices.Equal(s, ops[0]) {
				return nil, false
			}
		}
		return slices.Clone(ops[0]), true
	}
	return nil, false
}

// sameLayout compares strides where they matter (dims of size 1 have no stride to speak of).
func sameLayout(sizes, got, want []int64) bool {
	for i := range sizes {
		if sizes[i] != 1 && got[i] != want[i] {
			return false
		}
	}
	return true
}

// nonOverlappingDense reports strides that cover the tensor's elements exactly once, in some
// order of the dims (c10's is_non_overlapping_and_dense).
func nonOverlappingDense(sizes, strides []int64) bool {
	if len(sizes) == 1 {
		return sizes[0] < 2 || strides[0] == 1
	}
	dims := make([]int, len(sizes))
	for i := range dims {
		dims[i] = i
	}
	slices.SortStableFunc(dims, func(a, b int) int {
		if sizes[a] < 2 || sizes[b] < 2 {
			// size-0/1 dims go last, whatever their stride
			switch {
			case sizes[a] < 2 && sizes[b] >= 2:
				return 1
			case sizes[b] < 2 && sizes[a] >= 2:
				return -1
			}
			return 0
		}
		return cmp.Compare(strides[a], strides[b])
	})
	want := int64(1)
	for _, d := range dims {
		if sizes[d] == 1 {
			continue
		}
		if strides[d] != want {
			return false
		}
		want *= sizes[d]
	}
	return true
}
