package passes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/etgo/etgo/ir"
)

// Shape and creation operators outside core ATen, as torch's composite implementations and
// decomposition table write them.

func init() {
	registerRule(unflatten, "aten.unflatten.int")
	registerRule(contiguousRule, "aten.contiguous.default")
	registerRule(transpose2d, "aten.t.default")
	registerRule(expandAs, "aten.expand_as.default")
	registerRule(stack, "aten.stack.default")
	registerRule(viewAs, "aten.view_as.default", "aten.reshape_as.default")
	registerRule(fillNew("zeros", 0), "aten.zeros.default")
	registerRule(fillNew("ones", 1), "aten.ones.default")
	registerRule(fillNew("new_zeros", 0), "aten.new_zeros.default")
	registerRule(fillNew("new_ones", 1), "aten.new_ones.default")
	registerRule(fillNew("new_full", 0), "aten.new_full.default")
	registerRule(fillLike(0), "aten.zeros_like.default")
	registerRule(fillLike(1), "aten.ones_like.default")
	registerRule(arange, "aten.arange.default", "aten.arange.start")
	registerRule(softmaxInt("aten._log_softmax.default"), "aten.log_softmax.int")
	registerRule(softmaxInt("aten._softmax.default"), "aten.softmax.int")
}

// unflatten(x, dim, sizes) is a view to x's shape with dim split into sizes (a -1 among them
// inferred, as ATen's infer_size does).
func unflatten(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	d, err := normDim(n.IntArg("dim", 0), len(x.Meta.Sizes))
	if err != nil {
		return err
	}
	a := n.Arg("sizes")
	if a == nil || (a.Kind != ir.ArgInts && a.Kind != ir.ArgSymInts) {
		return fmt.Errorf("unflatten: sizes is not a list of ints")
	}
	sizes := Renamed(*a, "size")
	if infer := slices.Index(sizes.Ints, -1); infer >= 0 && x.Meta.Sizes[d].IsStatic() && sizes.Values == nil {
		known := int64(1)
		for i, s := range sizes.Ints {
			if i != infer {
				known *= s
			}
		}
		if known == 0 {
			return fmt.Errorf("unflatten: cannot infer -1 next to a zero size")
		}
		sizes.Ints[infer] = x.Meta.Sizes[d].Size / known
	}
	var shape ir.Arg
	shape.Name, shape.Kind = "size", ir.ArgInts
	symbolic := false
	add := func(size int64, v *ir.Value) {
		shape.Ints = append(shape.Ints, size)
		shape.Values = append(shape.Values, v)
		symbolic = symbolic || v != nil
	}
	for i, dim := range x.Meta.Sizes {
		if i != d {
			if !dim.IsStatic() {
				return fmt.Errorf("unflatten of a tensor with a symbolic dim %s", dim)
			}
			add(dim.Size, nil)
			continue
		}
		for j, s := range sizes.Ints {
			var v *ir.Value
			if j < len(sizes.Values) {
				v = sizes.Values[j]
			}
			add(s, v)
		}
	}
	if symbolic {
		shape.Kind = ir.ArgSymInts
	} else {
		shape.Values = nil
	}
	return b.Replace(b.Call("aten.view.default", T("self", x), shape))
}

// contiguous(x, memory_format) is x itself when x already has that layout, else a clone into
// it (MemoryFormatOps then writes the clone as _clone_dim_order).
func contiguousRule(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	format := int64(memoryFormatContiguous)
	if a := n.Arg("memory_format"); a != nil && a.Kind == ir.ArgMemoryFormat {
		format = a.Int
	}
	if hasLayout(b.st, x, format) {
		return b.Replace(x)
	}
	return b.Replace(b.Call("aten.clone.default", T("self", x),
		ir.Arg{Name: "memory_format", Kind: ir.ArgMemoryFormat, Int: format, KwargOnly: true}))
}

// hasLayout reports whether x is laid out densely in the given memory format (ATen's
// is_contiguous(memory_format)): its strides, tracked through views, are the format's.
func hasLayout(st *strides, x *ir.Value, format int64) bool {
	if !x.Meta.IsStatic() {
		return format == memoryFormatContiguous && surelyContiguous(x) && x.Meta.DimOrder == nil
	}
	sizes := sizesOf(x.Meta)
	var order []int64
	switch format {
	case memoryFormatContiguous, memoryFormatPreserve:
		order = identity(len(sizes))
	case memoryFormatChannelsLast:
		order = []int64{0, 2, 3, 1}
	case memoryFormatChannelsLast3d:
		order = []int64{0, 2, 3, 4, 1}
	default:
		return false
	}
	if len(order) != len(sizes) {
		return false
	}
	got := st.of(x)
	if x.Producer == nil && x.Meta.DimOrder != nil && x.InputStrides == nil {
		got = stridesFor(sizes, x.Meta.DimOrder)
	}
	want := stridesFor(sizes, order)
	for i := range sizes {
		if sizes[i] != 1 && got[i] != want[i] {
			return false
		}
	}
	return true
}

// stridesFor is the dense strides of sizes laid out in order (outermost dim first).
func stridesFor(sizes, order []int64) []int64 {
	s := make([]int64, len(sizes))
	acc := int64(1)
	for i := len(order) - 1; i >= 0; i-- {
		d := order[i]
		s[d] = acc
		acc *= max(sizes[d], 1)
	}
	return s
}

// t(x) swaps the two dims of a matrix and leaves vectors and scalars alone.
func transpose2d(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	if len(x.Meta.Sizes) < 2 {
		// t returns its argument itself, which the trace records as an alias.
		return b.Replace(b.Call("aten.alias.default", T("self", x)))
	}
	return b.Replace(b.Call("aten.permute.default", T("self", x), Is("dims", 1, 0)))
}

// expand_as(x, other) = expand(x, other's sizes).
func expandAs(b *Builder, n *ir.Node) error {
	x := self(b, n)
	other := n.TensorArg("other")
	if b.Err() != nil || other == nil {
		return fmt.Errorf("expand_as: other is not a tensor")
	}
	return b.Replace(b.Call("aten.expand.default", T("self", x), sizeArg("size", other.Meta.Sizes)))
}

// viewAs(x, other) = view(x, other's sizes) (reshape_as likewise, decomposed as reshape).
func viewAs(b *Builder, n *ir.Node) error {
	x := self(b, n)
	other := n.TensorArg("other")
	if b.Err() != nil || other == nil {
		return fmt.Errorf("%s: other is not a tensor", n.Target)
	}
	target := "aten.view.default"
	if n.Target == "aten.reshape_as.default" {
		target = "aten.reshape.default"
		return b.Replace(b.Call(target, T("self", x), sizeArg("shape", other.Meta.Sizes)))
	}
	return b.Replace(b.Call(target, T("self", x), sizeArg("size", other.Meta.Sizes)))
}

// sizeArg is a size list argument from dims; symbolic dims are refused by the caller's rule
// (they would need sym_size nodes).
func sizeArg(name string, dims []ir.Dim) ir.Arg {
	out := make([]int64, len(dims))
	for i, d := range dims {
		out[i] = d.Size
	}
	return Is(name, out...)
}

// stack(ts, dim) concatenates along dim and views the result with the new dim, or, stacking
// after the last dim, concatenates unsqueezed tensors (torch._refs.stack).
func stack(b *Builder, n *ir.Node) error {
	ts := n.Arg("tensors")
	if ts == nil || ts.Kind != ir.ArgTensors || len(ts.Values) == 0 || ts.Values[0].Meta == nil {
		return fmt.Errorf("stack: tensors is not a list of tensors")
	}
	rank := len(ts.Values[0].Meta.Sizes)
	d, err := normDim(n.IntArg("dim", 0), rank+1)
	if err != nil {
		return err
	}
	if d < rank {
		for _, t := range ts.Values {
			if !t.Meta.IsStatic() {
				return fmt.Errorf("stack of tensors with symbolic dims")
			}
		}
		sizes := sizesOf(ts.Values[0].Meta)
		sizes = slices.Insert(sizes, d, int64(len(ts.Values)))
		cat := b.Call("aten.cat.default", Ts("tensors", ts.Values...), I("dim", int64(d)))
		return b.Replace(b.Call("aten.view.default", T("self", cat), Is("size", sizes...)))
	}
	var parts []*ir.Value
	for _, t := range ts.Values {
		parts = append(parts, b.Call("aten.unsqueeze.default", T("self", t), I("dim", int64(d))))
	}
	return b.Replace(b.Call("aten.cat.default", Ts("tensors", parts...), I("dim", n.IntArg("dim", 0))))
}

// creationKwargs are the keyword arguments torch's decompositions give full: the node's own
// dtype (or the default), a strided layout, the CPU and no pinned memory.
func creationKwargs(n *ir.Node, dtype ir.DType) []ir.Arg {
	if d, ok := scalarTypeArg(n, "dtype"); ok {
		dtype = d
	}
	return []ir.Arg{Dt("dtype", dtype), layoutStrided(), deviceCPU(),
		{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true}}
}

// fillNew: zeros/ones(size) = full(size, 0 or 1, dtype, layout, device, pin_memory); the new_*
// forms take the size from their argument and the dtype from self; new_full its fill value.
func fillNew(op string, value int64) rule {
	return func(b *Builder, n *ir.Node) error {
		dtype := ir.Float32
		if x := n.TensorArg("self"); x != nil && x.Meta != nil {
			dtype = x.Meta.DType
		}
		size := n.Arg("size")
		if size == nil || (size.Kind != ir.ArgInts && size.Kind != ir.ArgSymInts) {
			return fmt.Errorf("%s: size is not a list of ints", n.Target)
		}
		fill := I("fill_value", value)
		if op == "new_full" {
			a := n.Arg("fill_value")
			if a == nil {
				return fmt.Errorf("new_full without a fill value")
			}
			fill = Renamed(*a, "fill_value")
		}
		args := append([]ir.Arg{Renamed(*size, "size"), fill}, creationKwargs(n, dtype)...)
		return b.Replace(b.Call("aten.full.default", args...))
	}
}

// fillLike: zeros_like/ones_like(x) = full_like(x, 0 or 1 — False or True for a bool result —,
// with the node's dtype, layout and device when it gives them, pin_memory (False) and
// memory_format (preserve_format)), as torch._refs writes them.
func fillLike(value int64) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		if b.Err() != nil {
			return b.Err()
		}
		dtype, hasDtype := scalarTypeArg(n, "dtype")
		if !hasDtype {
			dtype = x.Meta.DType
		}
		fill := I("fill_value", value)
		if dtype == ir.Bool {
			fill = Bo("fill_value", value != 0)
		}
		args := []ir.Arg{T("self", x), fill}
		for _, name := range []string{"dtype", "layout", "device"} {
			if a := n.Arg(name); a != nil && a.Kind != ir.ArgNone {
				c := *a
				c.KwargOnly = true
				args = append(args, c)
			}
		}
		pin, format := pinMemoryFalse(), ir.Arg{Name: "memory_format", Kind: ir.ArgMemoryFormat, Int: memoryFormatPreserve}
		if a := n.Arg("pin_memory"); a != nil && a.Kind == ir.ArgBool {
			pin.Bool = a.Bool
		}
		if a := n.Arg("memory_format"); a != nil && a.Kind == ir.ArgMemoryFormat {
			format.Int = a.Int
		}
		format.KwargOnly = true
		args = append(args, pin, format)
		return b.Replace(b.Call("aten.full_like.default", args...))
	}
}

// arange(end) and arange(start, end) are arange.start_step with a strided layout on the CPU,
// the dtype only when the node gives one.
func arange(b *Builder, n *ir.Node) error {
	start := I("start", 0)
	if a := n.Arg("start"); a != nil {
		start = Renamed(*a, "start")
	}
	end := n.Arg("end")
	if end == nil {
		return fmt.Errorf("arange without an end")
	}
	args := []ir.Arg{start, Renamed(*end, "end")}
	if d, ok := scalarTypeArg(n, "dtype"); ok {
		args = append(args, Dt("dtype", d))
	}
	args = append(args, layoutStrided(), deviceCPU(), ir.Arg{Name: "pin_memory", Kind: ir.ArgBool, KwargOnly: true})
	return b.Replace(b.Call("aten.arange.start_step", args...))
}

// softmax.int(x, dim, dtype) = _softmax(x, dim, half_to_float=False), converting first when a
// dtype is given.
func softmaxInt(target string) rule {
	return func(b *Builder, n *ir.Node) error {
		x := self(b, n)
		if b.Err() != nil {
			return b.Err()
		}
		if d, ok := scalarTypeArg(n, "dtype"); ok && d != x.Meta.DType {
			// ATen converts with x.toType(dtype): its options bring the layout and device.
			x = b.Call("aten._to_copy.default", T("self", x), Dt("dtype", d), layoutStrided(), deviceCPU())
		}
		return b.Replace(b.Call(target, T("self", x), I("dim", n.IntArg("dim", -1)), Bo("half_to_float", false)))
	}
}

func init() {
	registerRule(toCopy, "aten.to.dtype", "aten.to.dtype_layout", "aten.to.device", "aten.to.other", "aten.type_as.default")
}

// to(x, …) is x itself when nothing changes (ATen's to_will_alias: no copy asked, the same
// dtype and device, a memory format x already has), else _to_copy with the arguments given.
func toCopy(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	dtype, hasDtype := scalarTypeArg(n, "dtype")
	if other := n.TensorArg("other"); other != nil && other.Meta != nil {
		dtype, hasDtype = other.Meta.DType, true
	}
	format := int64(memoryFormatPreserve)
	if a := n.Arg("memory_format"); a != nil && a.Kind == ir.ArgMemoryFormat {
		format = a.Int
	}
	if d := n.Arg("device"); d != nil && d.Kind == ir.ArgDevice && d.Str != "cpu" && d.Str != "" {
		return fmt.Errorf("to(device=%s): etgo lowers CPU programs", d.Str)
	}
	alias := !n.BoolArg("copy", false) && (!hasDtype || dtype == x.Meta.DType) &&
		(format == memoryFormatPreserve || hasLayout(b.st, x, format))
	if alias {
		return b.Replace(x)
	}
	args := []ir.Arg{T("self", x)}
	if hasDtype {
		args = append(args, Dt("dtype", dtype))
	}
	for _, name := range []string{"layout", "device", "pin_memory", "non_blocking", "memory_format"} {
		if a := n.Arg(name); a != nil && a.Kind != ir.ArgNone {
			c := *a
			c.KwargOnly = true
			args = append(args, c)
		}
	}
	return b.Replace(b.Call("aten._to_copy.default", args...))
}

func init() {
	registerRule(squeezeDims, "aten.squeeze.dim", "aten.squeeze.default")
	registerRule(sumDefault, "aten.sum.default")
	registerRule(splitEqual, "aten.split.Tensor")
	registerRule(unbind, "aten.unbind.int")
	for _, v := range []string{"aten.alias_copy.default", "aten.diagonal_copy.default", "aten.expand_copy.default",
		"aten.squeeze_copy.default", "aten.squeeze_copy.dim", "aten.squeeze_copy.dims", "aten.t_copy.default",
		"aten.transpose_copy.int", "aten.unsqueeze_copy.default", "aten.unfold_copy.default",
		"aten.split_with_sizes_copy.default"} {
		registerRule(copyFromView, v)
	}
}

// copyFromView: a view's _copy form, called directly, is the view followed by a contiguous
// clone of each result (torch._refs' _make_copy_from_view). Only the forms in the
// decomposition table: narrow_copy and unbind_copy stay as they are (the Edge verifier takes
// every operator torch tags view_copy).
func copyFromView(b *Builder, n *ir.Node) error {
	view := strings.Replace(n.Target, "_copy.", ".", 1)
	outs := b.CallN(view, slices.Clone(n.Args)...)
	if b.Err() != nil {
		return b.Err()
	}
	clones := make([]*ir.Value, len(outs))
	for i, v := range outs {
		if i < len(n.Outputs) && n.Outputs[i] == nil {
			continue // an unused result of a split
		}
		clones[i] = b.Call("aten.clone.default", T("self", v),
			ir.Arg{Name: "memory_format", Kind: ir.ArgMemoryFormat, Int: memoryFormatContiguous, KwargOnly: true})
	}
	return b.Replace(clones...)
}

// squeeze(x, dim) is squeeze.dims(x, [dim]); squeeze(x) names every dim (the operator drops the
// ones of size 1).
func squeezeDims(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	dims := identity(len(x.Meta.Sizes))
	if n.Target == "aten.squeeze.dim" {
		dims = []int64{n.IntArg("dim", 0)}
	}
	return b.Replace(b.Call("aten.squeeze.dims", T("self", x), Is("dim", dims...)))
}

// sum(x, dtype) is sum.dim_IntList(x, [], dtype=dtype): every dim.
func sumDefault(b *Builder, n *ir.Node) error {
	args := []ir.Arg{T("self", self(b, n)), Is("dim"), Bo("keepdim", false)}
	if d, ok := scalarTypeArg(n, "dtype"); ok {
		args = append(args, Dt("dtype", d))
	}
	return b.Replace(b.Call("aten.sum.dim_IntList", args...))
}

// split(x, size, dim) is split_with_sizes with the sizes spelled out (the last one shorter).
func splitEqual(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	d, err := normDim(n.IntArg("dim", 0), len(x.Meta.Sizes))
	if err != nil {
		return err
	}
	size := n.IntArg("split_size", 0)
	if !x.Meta.Sizes[d].IsStatic() {
		return fmt.Errorf("split of a symbolic dim")
	}
	if size <= 0 {
		return fmt.Errorf("split size %d", size)
	}
	total := x.Meta.Sizes[d].Size
	var sizes []int64
	for left := total; left > 0; left -= size {
		sizes = append(sizes, min(size, left))
	}
	if len(sizes) == 0 {
		sizes = []int64{0}
	}
	outs := b.CallN("aten.split_with_sizes.default", T("self", x), Is("split_sizes", sizes...), I("dim", n.IntArg("dim", 0)))
	if b.Err() != nil {
		return b.Err()
	}
	return b.Replace(outs...)
}

// unbind(x, dim) slices every index of dim, then squeezes each slice (torch's decomposition:
// all slices first).
func unbind(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	if len(x.Meta.Sizes) == 0 {
		return fmt.Errorf("unbind of a 0-d tensor")
	}
	d, err := normDim(n.IntArg("dim", 0), len(x.Meta.Sizes))
	if err != nil {
		return err
	}
	if !x.Meta.Sizes[d].IsStatic() {
		return fmt.Errorf("unbind of a symbolic dim")
	}
	k := x.Meta.Sizes[d].Size
	slices := make([]*ir.Value, k)
	for i := range slices {
		slices[i] = b.Call("aten.slice.Tensor", T("self", x), I("dim", int64(d)), I("start", int64(i)), I("end", int64(i)+1), I("step", 1))
	}
	outs := make([]*ir.Value, k)
	for i, s := range slices {
		outs[i] = b.Call("aten.squeeze.dims", T("self", s), Is("dim", int64(d)))
	}
	return b.Replace(outs...)
}

func init() {
	registerRule(flatten, "aten.flatten.using_ints")
}

// flatten(x, start, end) is x itself when it merges a single dim, else a reshape whose merged
// size is the product of the dims (SymInt arithmetic when they are symbolic).
func flatten(b *Builder, n *ir.Node) error {
	x := self(b, n)
	if b.Err() != nil {
		return b.Err()
	}
	r := len(x.Meta.Sizes)
	if r == 0 {
		return b.Replace(b.Call("aten.reshape.default", T("self", x), Is("shape", 1)))
	}
	start, err := normDim(n.IntArg("start_dim", 0), r)
	if err != nil {
		return err
	}
	end, err := normDim(n.IntArg("end_dim", -1), r)
	if err != nil {
		return err
	}
	if start > end {
		return fmt.Errorf("flatten: start_dim %d after end_dim %d", start, end)
	}
	if start == end {
		return b.Replace(x)
	}
	var shape []SizeArg
	for i := 0; i < start; i++ {
		shape = append(shape, b.DimSize(x, i))
	}
	merged := SizeArg{Size: 1}
	for i := start; i <= end; i++ {
		merged = b.MulSize(merged, b.DimSize(x, i))
	}
	shape = append(shape, merged)
	for i := end + 1; i < r; i++ {
		shape = append(shape, b.DimSize(x, i))
	}
	return b.Replace(b.Call("aten.reshape.default", T("self", x), Sizes("shape", shape...)))
}
