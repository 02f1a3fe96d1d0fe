package aot

import (
	"github.com/etgo/etgo/backends/vulkan/schema"
	"github.com/etgo/etgo/ir"
)

// Extents are an image's width, height and depth in texels (ExecuTorch's ImageExtents).
type Extents [3]int64

var (
	// DefaultTextureLimits are the 3D image limits the partitioner assumes without an option
	// (utils.DEFAULT_TEXTURE_LIMITS: what mobile GPUs commonly support).
	DefaultTextureLimits = Extents{16384, 16384, 2048}
	// SmallTextureLimits are the option small_texture_limits' (what the Vulkan spec guarantees).
	SmallTextureLimits = Extents{2048, 2048, 2048}
)

// layouts is a set of memory layouts, bit i for schema.VkMemoryLayout i.
type layouts uint16

func lay(ls ...schema.VkMemoryLayout) layouts {
	var s layouts
	for _, l := range ls {
		s |= 1 << l
	}
	return s
}

func (s layouts) has(l schema.VkMemoryLayout) bool { return s&(1<<l) != 0 }

// repSet is the representations a tensor may take (ExecuTorch's TensorRepSet): the memory
// layouts it may have as a buffer and as a 3D texture.
type repSet struct{ buffer, texture layouts }

func (r repSet) empty() bool                  { return r.buffer == 0 && r.texture == 0 }
func (r repSet) and(o repSet) repSet          { return repSet{r.buffer & o.buffer, r.texture & o.texture} }
func (r repSet) or(o repSet) repSet           { return repSet{r.buffer | o.buffer, r.texture | o.texture} }
func (r repSet) withTexture(t layouts) repSet { return repSet{r.buffer, t} }

const (
	width    = schema.VkMemoryLayoutTENSOR_WIDTH_PACKED
	height   = schema.VkMemoryLayoutTENSOR_HEIGHT_PACKED
	channels = schema.VkMemoryLayoutTENSOR_CHANNELS_PACKED
)

var (
	allLayouts       = lay(width, height, channels)
	quantizedLayouts = lay(schema.VkMemoryLayoutPACKED_INT8_4W4C, schema.VkMemoryLayoutPACKED_INT8_4H4W, schema.VkMemoryLayoutPACKED_INT8_4W,
		schema.VkMemoryLayoutPACKED_INT8_4C1W, schema.VkMemoryLayoutPACKED_INT8_CONV2D)

	// The repsets of utils.py, by their names there.
	contiguousAny              = repSet{lay(width), lay(width)}
	contiguousBuffer           = repSet{lay(width), 0}
	widthPackedTexture         = repSet{0, lay(width)}
	heightPackedTexture        = repSet{0, lay(height)}
	channelsPackedTexture      = repSet{0, lay(channels)}
	channelsTextureOrContigBuf = repSet{lay(width), lay(channels)}
	anyTexture                 = repSet{0, allLayouts}
	anyBuffer                  = repSet{allLayouts, 0}
	anyStorage                 = repSet{allLayouts, allLayouts}
	packedInt8Buffer           = repSet{quantizedLayouts, 0}
	packedInt8ChannelsBuffer   = repSet{lay(schema.VkMemoryLayoutPACKED_INT8_4W4C, schema.VkMemoryLayoutPACKED_INT8_4C1W, schema.VkMemoryLayoutPACKED_INT8_CONV2D), 0}
	noStorage                  = repSet{}
	anyStorageInclInt8         = repSet{allLayouts | quantizedLayouts, allLayouts}
)

// requiredExtents is the image a tensor of sizes needs in layout l (required_image_extents):
// width, height and channels × batch, the packed dim divided by 4 rounded up.
func requiredExtents(sizes []ir.Dim, l schema.VkMemoryLayout) (Extents, bool) {
	at := func(back int) int64 {
		if len(sizes) >= back {
			return sizes[len(sizes)-back].Size
		}
		return 1
	}
	w, h, c := at(1), at(2), at(3)
	b := int64(1)
	if len(sizes) >= 4 {
		b = sizes[0].Size
	}
	up := func(x int64) int64 { return (x + 3) / 4 }
	switch l {
	case width:
		w = up(w)
	case height:
		h = up(h)
	case channels:
		c = up(c)
	case schema.VkMemoryLayoutPACKED_INT8_4W4C, schema.VkMemoryLayoutPACKED_INT8_CONV2D:
		w, c = up(w), up(c)
	case schema.VkMemoryLayoutPACKED_INT8_4H4W:
		h, w = up(h), up(w)
	default:
		return Extents{}, false // the official helper raises for the others
	}
	return Extents{w, h, c * b}, true
}

// filter keeps the texture layouts whose image fits limits (filter_invalid_reprs); a tensor of
// more than 4 dims has no texture representation.
func filter(m *ir.TensorMeta, r repSet, limits Extents) repSet {
	if len(m.Sizes) > 4 {
		return repSet{r.buffer, 0}
	}
	var keep layouts
	for l := schema.VkMemoryLayout(0); l < 16; l++ {
		if !r.texture.has(l) {
			continue
		}
		if e, ok := requiredExtents(m.Sizes, l); ok && e[0] <= limits[0] && e[1] <= limits[1] && e[2] <= limits[2] {
			keep |= 1 << l
		}
	}
	return r.withTexture(keep)
}

// opArg is one positional argument of a node as the representation rules see it.
type opArg struct {
	tensors []*ir.TensorMeta // one for a tensor, each item's for a list of tensors
	list    bool             // a list argument (cat's tensors)
}

func (a opArg) isTensor() bool { return len(a.tensors) > 0 }

// positional returns a node's positional arguments (FX's node.args) in schema order.
func positional(n *ir.Node) []opArg {
	var out []opArg
	for i := range n.Args {
		a := &n.Args[i]
		if a.KwargOnly {
			continue
		}
		arg := opArg{list: a.Kind != ir.ArgTensor}
		switch a.Kind {
		case ir.ArgTensor, ir.ArgTensors:
			ok := len(a.Values) > 0
			for _, v := range a.Values {
				if v == nil || v.Kind != ir.TensorValue || v.Meta == nil {
					ok = false
					break
				}
			}
			if ok {
				for _, v := range a.Values {
					arg.tensors = append(arg.tensors, v.Meta)
				}
			}
		}
		out = append(out, arg)
	}
	return out
}

// at returns the repset for position i of a list with ExecuTorch's broadcasting: one entry
// applies to every position; past the end of a longer list there is none.
func at(list []repSet, i int) repSet {
	if len(list) == 1 {
		return list[0]
	}
	if i < len(list) {
		return list[i]
	}
	return noStorage
}

// opRepSetsEmpty reports whether some tensor of n has no representation the operator's
// implementation and the texture limits allow, once the representations are synchronised as
// ExecuTorch's OpRepSets synchronises them: with one input repset every argument shares a
// representation, with one output repset every output does, and when the primary (first
// tensor) argument's repset is the output's, the two share one.
func opRepSetsEmpty(n *ir.Node, ins, outs []repSet, limits Extents) bool {
	args := positional(n)
	syncArgs, syncOuts := len(ins) <= 1, len(outs) <= 1
	primary := -1
	for i, a := range args {
		if a.isTensor() && !at(ins, i).empty() {
			primary = i
			break
		}
	}
	syncPrimary := primary >= 0 && at(ins, primary) == at(outs, 0)

	argSets := make([]repSet, len(args))
	commonArg := anyStorageInclInt8
	for i, a := range args {
		r := at(ins, i)
		if !a.isTensor() || r.empty() {
			argSets[i] = anyStorageInclInt8
			continue
		}
		f := r
		for _, m := range a.tensors { // a list (cat's tensors): the representations all items allow
			f = f.and(filter(m, f, limits))
		}
		argSets[i] = f
		commonArg = commonArg.and(f)
	}
	var outSets []repSet
	commonOut := anyStorageInclInt8
	tensorOuts := 0
	for _, v := range n.Outputs {
		if v != nil && v.Kind == ir.TensorValue && v.Meta != nil {
			tensorOuts++
		}
	}
	if len(n.Outputs) == 1 && tensorOuts == 1 {
		commonOut = filter(n.Outputs[0].Meta, at(outs, 0), limits)
		outSets = append(outSets, commonOut)
	} else {
		for i, v := range n.Outputs {
			// An output nothing reads has no value here; the official partitioner filters its
			// repset too, which for the small statistics outputs (mean, rstd) never empties it.
			o := at(outs, i)
			if v != nil && v.Meta != nil {
				o = filter(v.Meta, o, limits)
			}
			outSets = append(outSets, o)
			commonOut = commonOut.and(o)
		}
	}
	var primarySet repSet
	if syncPrimary {
		in := argSets[primary]
		if syncArgs {
			in = commonArg
		}
		out := commonOut
		if !syncOuts && len(outSets) > 0 {
			out = outSets[0]
		}
		primarySet = in.and(out)
		argSets[primary] = primarySet
		if len(outSets) > 0 {
			outSets[0] = primarySet
		}
	}
	if syncArgs {
		c := commonArg
		if syncPrimary {
			c = primarySet
		}
		for i := range argSets {
			argSets[i] = c
		}
	}
	if syncOuts {
		c := commonOut
		if syncPrimary {
			c = primarySet
		}
		for i := range outSets {
			outSets[i] = c
		}
	}
	if len(argSets) == 0 || len(outSets) == 0 {
		return true
	}
	for _, r := range append(argSets, outSets...) {
		if r.empty() {
			return true
		}
	}
	return false
}
