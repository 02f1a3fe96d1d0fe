package mutate

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/fbverify"
)

const invalidID = 0xFFFFFFFF

// family is one kind of mutation with its share of a seed's mutants.
type family struct {
	name  string
	share float64
	gen   func(s *seedInfo, quota int)
}

var families = []family{
	{"value-id", 0.12, genValueID},
	{"id-out", 0.05, genIDOut},
	{"external", 0.07, genExternal},
	{"dims", 0.12, genDims},
	{"datatype", 0.05, genDatatype},
	{"node-type", 0.07, genNodeType},
	{"value-type", 0.02, genValueType},
	{"node-param", 0.10, genNodeParam},
	{"constant", 0.06, genConstant},
	{"quant", 0.05, genQuant},
	{"drop-node", 0.04, genDropNode},
	{"drop-value", 0.03, genDropValue},
	{"dup-node", 0.02, genDupNode},
	{"swap-nodes", 0.03, genSwapNodes},
	{"vector-len", 0.04, genVectorLen},
	{"num-externs", 0.01, genNumExterns},
	{"header", 0.02, genHeader},
	{"truncate", 0.02, genTruncate},
	{"random-bytes", 0.06, genRandomBytes},
	{"program", 0.04, genProgram},
}

// Families lists the mutation families in generation order.
func Families() []string {
	out := make([]string, len(families))
	for i, f := range families {
		out[i] = f.name
	}
	return out
}

// isNodeTable reports whether a table is one of the XNode union's members.
func isNodeTable(name string) bool {
	switch name {
	case "XNNGraph", "XNode", "XValue", "XNNTensorValue", "XNNQuantizedTensorValue", "OutputMinMax", "ConstantDataOffset", "Buffer",
		"PerChannelQuant", "PerTensorQuant", "PerTokenDynamicQuant", "PerChannelGroupQuant":
		return false
	}
	return true
}

func scalarIn(table string, fields ...string) func(*fbverify.Site) bool {
	return func(x *fbverify.Site) bool {
		if x.Elem >= 0 || !x.IsScalar() || (table != "" && x.Table != table) {
			return false
		}
		if len(fields) == 0 {
			return true
		}
		for _, f := range fields {
			if x.Field.Name == f {
				return true
			}
		}
		return false
	}
}

// flip makes up to quota mutants, each setting one site (drawn from the blob's sites matching
// keep) to one of the candidate values other than its current one.
func (s *seedInfo) flip(kind string, quota int, keep func(*fbverify.Site) bool, cands func(b *blob, x *fbverify.Site, cur uint64) []uint64) {
	for try := 0; try < 4*quota && s.counts[kind] < quota; try++ {
		b := s.pickBlob()
		xs := b.find(keep)
		if len(xs) == 0 {
			continue
		}
		x := pick(s.r, xs)
		cur := s.u(x)
		var vs []uint64
		for _, v := range cands(b, x, cur) {
			if v != cur && (x.Width == 8 || v < 1<<(8*x.Width)) {
				vs = append(vs, v)
			}
		}
		if len(vs) == 0 {
			continue
		}
		v := pick(s.r, vs)
		s.add(kind, fmt.Sprintf("%s: %s -> %s", b.where(x), show(x, cur), show(x, v)), 0, set(x, v))
	}
}

// show formats a scalar for a description: floats as floats, ids in decimal.
func show(x *fbverify.Site, v uint64) string {
	if isFloat(x) {
		return fmt.Sprint(math.Float32frombits(uint32(v)))
	}
	if x.Width == 4 && v == invalidID {
		return "invalid"
	}
	return fmt.Sprint(v)
}

func isFloat(x *fbverify.Site) bool {
	switch x.Field.Name {
	case "scale", "padding_value", "alpha", "negative_slope", "output_min", "output_max":
		return x.Width == 4
	}
	return false
}

// idCands are the replacements for a value-id field: another value, a neighbour, the first
// id past the table, the invalid id, a huge id.
func idCands(b *blob, cur uint64) []uint64 {
	ids := b.valueIDs()
	out := []uint64{cur + 1, uint64(ids[len(ids)-1]) + 1, invalidID, 1 << 20}
	if cur > 0 {
		out = append(out, cur-1)
	}
	for i := 0; i < 3; i++ {
		out = append(out, uint64(ids[(int(cur)+7*i+3)%len(ids)]))
	}
	// A constant, an external input and an external output, when there are some.
	for _, v := range b.graph.Values {
		if v.ConstantIdx != 0 || v.Flags != 0 {
			out = append(out, uint64(v.ID))
		}
	}
	return out
}

func genValueID(s *seedInfo, quota int) {
	s.flip("value-id", quota, func(x *fbverify.Site) bool {
		return x.Elem < 0 && x.Field.Kind == fbverify.KScalar && isNodeTable(x.Table) && strings.HasSuffix(x.Field.Name, "_id")
	}, func(b *blob, x *fbverify.Site, cur uint64) []uint64 { return idCands(b, cur) })
}

func genIDOut(s *seedInfo, quota int) {
	s.flip("id-out", quota, scalarIn("XNNTensorValue", "id_out"), func(b *blob, x *fbverify.Site, cur uint64) []uint64 {
		return idCands(b, cur)
	})
}

func genExternal(s *seedInfo, quota int) {
	s.flip("external", quota, scalarIn("XNNTensorValue", "external_id", "flags"), func(b *blob, x *fbverify.Site, cur uint64) []uint64 {
		if x.Field.Name == "flags" {
			return []uint64{0, 1, 2, 3, 4, 0x80000000}
		}
		n := uint64(b.graph.NumExterns)
		out := []uint64{invalidID, n, n + 1, 4096, 0, 1}
		if cur > 0 && cur != invalidID {
			out = append(out, cur-1)
		}
		if cur+1 < n {
			out = append(out, cur+1)
		}
		return out
	})
}

func genDims(s *seedInfo, quota int) {
	s.flip("dims", quota, func(x *fbverify.Site) bool {
		return x.Table == "XNNTensorValue" && x.Field.Name == "num_dims" && x.Elem < 0 || x.Field.Name == "dims" && x.Elem >= 0
	}, func(b *blob, x *fbverify.Site, cur uint64) []uint64 {
		if x.Field.Name == "num_dims" {
			return []uint64{0, cur + 1, cur - 1, 7}
		}
		return []uint64{0, 1, cur - 1, cur + 1, 2 * cur, 3, 1 << 20, invalidID}
	})
}

func genDatatype(s *seedInfo, quota int) {
	s.flip("datatype", quota, scalarIn("XNNTensorValue", "datatype", "dq_datatype"), func(b *blob, x *fbverify.Site, cur uint64) []uint64 {
		return []uint64{0, 1, 2, 3, 4, 5, 6, 7, 9, 12, 14, 99}
	})
}

// nodeTags is the XNode union: tag -> member table.
func nodeTags() []*fbverify.Table {
	for _, f := range xnngraph.SchemaSpec().Fields {
		if f.Name == "xnodes" {
			for _, g := range f.Table.Fields {
				if g.Kind == fbverify.KUnionValue {
					return g.Union.Members
				}
			}
		}
	}
	return nil
}

func genNodeType(s *seedInfo, quota int) {
	tags := nodeTags()
	s.flip("node-type", quota, scalarIn("XNode", "xnode_union_type"), func(b *blob, x *fbverify.Site, cur uint64) []uint64 {
		// Mostly a type stored in the same table (Add -> Subtract, Conv2d -> DepthwiseConv2d), so
		// the verifier passes and the graph is judged; sometimes any tag.
		var same []uint64
		if cur >= 1 && int(cur) <= len(tags) {
			for t, m := range tags {
				if m == tags[cur-1] {
					same = append(same, uint64(t+1))
				}
			}
		}
		out := append(same, same...)
		return append(out, 0, uint64(len(tags)+1), uint64(1+s.r.IntN(len(tags))))
	})
}

func genValueType(s *seedInfo, quota int) {
	s.flip("value-type", quota, scalarIn("XValue", "xvalue_union_type"), func(b *blob, x *fbverify.Site, cur uint64) []uint64 {
		return []uint64{0, 1, 2, 3}
	})
}

func genNodeParam(s *seedInfo, quota int) {
	s.flip("node-param", quota, func(x *fbverify.Site) bool {
		if x.Table == "OutputMinMax" {
			return true
		}
		if x.Elem >= 0 {
			return x.Field.Kind == fbverify.KVecScalar && isNodeTable(nodeTableOf(x))
		}
		return x.Field.Kind == fbverify.KScalar && isNodeTable(x.Table) && !strings.HasSuffix(x.Field.Name, "_id")
	}, func(b *blob, x *fbverify.Site, cur uint64) []uint64 {
		if isFloat(x) {
			return []uint64{f32bits(float32(math.NaN())), f32bits(float32(math.Inf(1))), f32bits(float32(math.Inf(-1))), f32bits(-1), f32bits(0), f32bits(1e30)}
		}
		if x.Field.Name == "flags" {
			return []uint64{0, cur ^ 1, cur ^ 2, cur ^ 4, cur ^ 8, cur ^ 0x40, 0xFFFFFFFF}
		}
		return []uint64{0, 1, cur + 1, cur - 1, 2*cur + 1, 1 << 16, invalidID}
	})
}

// nodeTableOf is the table a vector element's vector belongs to (from the path: the member
// name inside the union brackets).
func nodeTableOf(x *fbverify.Site) string {
	i := strings.LastIndex(x.Path, "<")
	j := strings.LastIndex(x.Path, ">")
	if i < 0 || j < i {
		return "XNNGraph"
	}
	return x.Path[i+1 : j]
}

func genConstant(s *seedInfo, quota int) {
	// Most mutants move indices and sizes; a few corrupt a named key.
	keys := quota / 6
	s.flip("constant", quota-keys, func(x *fbverify.Site) bool {
		return scalarIn("XNNTensorValue", "constant_buffer_idx")(x) || scalarIn("ConstantDataOffset", "offset", "size")(x)
	}, func(b *blob, x *fbverify.Site, cur uint64) []uint64 {
		n := uint64(len(b.graph.Constants))
		if x.Field.Name == "constant_buffer_idx" {
			return []uint64{0, cur + 1, cur - 1, n, n + 5, invalidID}
		}
		return []uint64{0, cur + 4, cur - 4, cur / 2, 2 * cur, cur + 1<<20, math.MaxUint64}
	})
	for try := 0; try < 4*keys && s.counts["constant"] < quota; try++ {
		b := s.pickBlob()
		xs := b.find(func(x *fbverify.Site) bool { return x.Field.Name == "named_key" && x.Len > 0 })
		if len(xs) == 0 {
			return
		}
		x := pick(s.r, xs)
		at := x.Target + 4 + s.r.IntN(x.Len)
		c := s.data[at]
		nc := "0123456789abcdef"[s.r.IntN(16)]
		if nc == c {
			nc = 'x'
		}
		s.add("constant", fmt.Sprintf("%s: byte %d %q -> %q", b.where(x), at-x.Target-4, c, nc), 0, Edit{Off: at, Data: []byte{nc}})
	}
}

func genQuant(s *seedInfo, quota int) {
	s.flip("quant", quota, func(x *fbverify.Site) bool {
		switch x.Table {
		case "PerTensorQuant", "PerChannelQuant", "PerChannelGroupQuant", "PerTokenDynamicQuant":
			return x.Elem < 0 && x.Field.Kind == fbverify.KScalar
		case "XNNQuantizedTensorValue":
			return x.Field.Kind == fbverify.KUnionType
		}
		return x.Field.Name == "scale" && x.Elem >= 0
	}, func(b *blob, x *fbverify.Site, cur uint64) []uint64 {
		switch {
		case isFloat(x):
			return []uint64{f32bits(0), f32bits(-1), f32bits(float32(math.NaN())), f32bits(float32(math.Inf(1))), f32bits(1e30), f32bits(1e-30)}
		case x.Field.Kind == fbverify.KUnionType:
			return []uint64{0, 1, 2, 3, 4, 5}
		case x.Field.Name == "zero_point":
			return []uint64{uint64(uint32(0xFFFFFF7F)), 128, 300, 0, 1, uint64(uint32(0xFFFFFFFF))}
		}
		return []uint64{0, cur + 1, cur - 1, invalidID}
	})
}

// tableVector returns the blob's site of a vector of tables by its path.
func (b *blob) vector(path string) *fbverify.Site {
	for _, x := range b.sites {
		if x.Path == path && x.Elem < 0 {
			return x
		}
	}
	return nil
}

// dropElem is the edit removing element i of the vector of tables at v: later slots move
// down one (each uoffset grows by 4, as its slot moved 4 bytes closer to the table it points
// to) and the length shrinks.
func (s *seedInfo) dropElem(v *fbverify.Site, i int) Edit {
	out := binary.LittleEndian.AppendUint32(nil, uint32(v.Len-1))
	for j := 0; j < v.Len-1; j++ {
		src := j
		if j >= i {
			src = j + 1
		}
		pos := v.Target + 4 + 4*src
		target := pos + int(binary.LittleEndian.Uint32(s.data[pos:]))
		out = binary.LittleEndian.AppendUint32(out, uint32(target-(v.Target+4+4*j)))
	}
	return Edit{Off: v.Target, Data: out}
}

// elemTarget is where element i of a vector of tables points.
func (s *seedInfo) elemTarget(v *fbverify.Site, i int) int {
	pos := v.Target + 4 + 4*i
	return pos + int(binary.LittleEndian.Uint32(s.data[pos:]))
}

// point is the edit making element i of v point to target (false if target is not after it:
// uoffsets only point forward).
func point(v *fbverify.Site, i, target int) (Edit, bool) {
	pos := v.Target + 4 + 4*i
	if target <= pos {
		return Edit{}, false
	}
	return Edit{Off: pos, Data: u32(uint32(target - pos))}, true
}

func genDropNode(s *seedInfo, quota int) {
	// One mutant loses every node (the graph keeps its values and outputs), the others one.
	b := s.pickBlob()
	if v := b.vector("XNNGraph.xnodes"); v != nil && v.Len > 0 {
		s.add("drop-node", fmt.Sprintf("delegate %d: all %d nodes dropped", b.index, v.Len), 0, Edit{Off: v.Target, Data: u32(0)})
	}
	for try := 0; try < 4*quota && s.counts["drop-node"] < quota; try++ {
		b := s.pickBlob()
		v := b.vector("XNNGraph.xnodes")
		if v == nil || v.Len == 0 {
			continue
		}
		i := s.r.IntN(v.Len)
		s.add("drop-node", fmt.Sprintf("delegate %d: node %d (%s) dropped", b.index, i, b.graph.Nodes[i].OpName()), 0, s.dropElem(v, i))
	}
}

func genDropValue(s *seedInfo, quota int) {
	for try := 0; try < 4*quota && s.counts["drop-value"] < quota; try++ {
		b := s.pickBlob()
		v := b.vector("XNNGraph.xvalues")
		if v == nil || v.Len == 0 {
			continue
		}
		i := s.r.IntN(v.Len)
		val := b.graph.Values[i]
		what := "internal"
		switch {
		case val.ConstantIdx != 0:
			what = "constant"
		case val.IsInput():
			what = "input"
		case val.IsOutput():
			what = "output"
		}
		s.add("drop-value", fmt.Sprintf("delegate %d: value %d (%s) dropped", b.index, val.ID, what), 0, s.dropElem(v, i))
	}
}

func genDupNode(s *seedInfo, quota int) {
	for try := 0; try < 4*quota && s.counts["dup-node"] < quota; try++ {
		b := s.pickBlob()
		v := b.vector("XNNGraph.xnodes")
		if v == nil || v.Len < 2 {
			continue
		}
		i, j := s.r.IntN(v.Len), s.r.IntN(v.Len)
		if i == j {
			continue
		}
		e, ok := point(v, j, s.elemTarget(v, i))
		if !ok {
			continue
		}
		s.add("dup-node", fmt.Sprintf("delegate %d: node %d (%s) replaced by a copy of node %d (%s)", b.index, j, b.graph.Nodes[j].OpName(), i, b.graph.Nodes[i].OpName()), 0, e)
	}
}

func genSwapNodes(s *seedInfo, quota int) {
	for try := 0; try < 4*quota && s.counts["swap-nodes"] < quota; try++ {
		b := s.pickBlob()
		v := b.vector("XNNGraph.xnodes")
		if v == nil || v.Len < 2 {
			continue
		}
		i := s.r.IntN(v.Len - 1)
		j := i + 1 + s.r.IntN(min(3, v.Len-1-i)) // near neighbours: a producer and its reader, mostly
		ti, tj := s.elemTarget(v, i), s.elemTarget(v, j)
		ei, ok1 := point(v, i, tj)
		ej, ok2 := point(v, j, ti)
		if !ok1 || !ok2 {
			continue
		}
		s.add("swap-nodes", fmt.Sprintf("delegate %d: nodes %d (%s) and %d (%s) swapped", b.index, i, b.graph.Nodes[i].OpName(), j, b.graph.Nodes[j].OpName()), 0, ei, ej)
	}
}

func genVectorLen(s *seedInfo, quota int) {
	for try := 0; try < 4*quota && s.counts["vector-len"] < quota; try++ {
		b := s.pickBlob()
		xs := b.find(func(x *fbverify.Site) bool {
			return x.Elem < 0 && (x.Field.Kind == fbverify.KVecScalar || x.Field.Kind == fbverify.KVecTable) && x.Field.Name != "version"
		})
		if len(xs) == 0 {
			return
		}
		x := pick(s.r, xs)
		cands := []int{x.Len + 1, 0}
		if x.Len > 0 {
			cands = append(cands, x.Len-1, x.Len-1)
		}
		n := pick(s.r, cands)
		if n == x.Len {
			continue
		}
		s.add("vector-len", fmt.Sprintf("%s: length %d -> %d", b.where(x), x.Len, n), 0, Edit{Off: x.Target, Data: u32(uint32(n))})
	}
}

func genNumExterns(s *seedInfo, quota int) {
	s.flip("num-externs", quota, scalarIn("XNNGraph", "num_externs"), func(b *blob, x *fbverify.Site, cur uint64) []uint64 {
		return []uint64{0, cur - 1, cur + 1, 4096, 4097, invalidID}
	})
}

func genHeader(s *seedInfo, quota int) {
	type field struct {
		name  string
		at, w int
	}
	fields := []field{{"flatbuffer_offset", 10, 4}, {"flatbuffer_size", 14, 4}, {"constant_data_offset", 18, 4}, {"constant_data_size", 22, 8}, {"magic", 4, 1}}
	for try := 0; try < 4*quota && s.counts["header"] < quota; try++ {
		b := s.pickBlob()
		if b.fbOff == b.off {
			return // no header
		}
		f := pick(s.r, fields)
		x := &fbverify.Site{Pos: b.off + f.at, Width: f.w, Field: &fbverify.Field{Name: f.name}}
		cur := s.u(x)
		cands := []uint64{0, cur + 1, cur - 1, cur + 16, cur - 16, cur / 2, uint64(b.size), 1 << 31}
		if f.name == "magic" {
			cands = []uint64{'Y', 'x', 0}
		}
		v := pick(s.r, cands)
		if v == cur || (f.w == 4 && v >= 1<<32) {
			continue
		}
		s.add("header", fmt.Sprintf("delegate %d: header %s %d -> %d", b.index, f.name, cur, v), 0, set(x, v))
	}
}

func genTruncate(s *seedInfo, quota int) {
	for try := 0; try < 4*quota && s.counts["truncate"] < quota; try++ {
		b := s.pickBlob()
		if s.r.IntN(4) == 0 || b.segSize == nil {
			// The file itself ends inside the blob.
			n := b.off + 1 + s.r.IntN(b.size-1)
			s.add("truncate", fmt.Sprintf("file cut to %d bytes, inside delegate %d's blob [%d, %d)", n, b.index, b.off, b.off+b.size), n)
			continue
		}
		// The blob's segment is declared shorter: the blob is cut where the graph or its
		// constants are.
		cur := s.u(b.segSize)
		cands := []uint64{cur - 1, cur / 2, uint64(b.fbOff - b.off + b.fbSize/2), uint64(b.fbOff - b.off + b.fbSize), 29, 8, 0}
		v := pick(s.r, cands)
		if v >= cur {
			continue
		}
		s.add("truncate", fmt.Sprintf("delegate %d: segment size %d -> %d", b.index, cur, v), 0, set(b.segSize, v))
	}
}

func genRandomBytes(s *seedInfo, quota int) {
	for k := 0; k < quota; k++ {
		b := s.pickBlob()
		n := 1 + s.r.IntN(8)
		var edits []Edit
		var at []string
		for i := 0; i < n; i++ {
			off := b.fbOff + s.r.IntN(b.fbSize)
			edits = append(edits, Edit{Off: off, Data: []byte{byte(s.r.IntN(256))}})
			at = append(at, fmt.Sprint(off-b.fbOff))
		}
		s.add("random-bytes", fmt.Sprintf("delegate %d: %d random bytes in the XNNGraph at %s", b.index, n, strings.Join(at, ",")), 0, edits...)
	}
}

// genProgram edits the program around the blobs: the delegate call's arguments, the sizes and
// types of the tensors it passes, the named data holding the weights.
func genProgram(s *seedInfo, quota int) {
	var args, sizes, types, segSizes, keys []*fbverify.Site
	argValues := map[string]bool{}
	for _, x := range s.prog {
		if x.Table == "" && x.Field.Name == "args" && x.Elem >= 0 && strings.Contains(x.Path, "<DelegateCall>") {
			args = append(args, x)
			argValues[fmt.Sprintf("Program.execution_plan[0].values[%d].", s.u(x))] = true
		}
	}
	named := map[string]bool{}
	for _, nd := range s.file.Program.NamedData {
		named[fmt.Sprintf("Program.segments[%d].size", nd.SegmentIndex)] = true
	}
	for _, x := range s.prog {
		for p := range argValues {
			if strings.HasPrefix(x.Path, p) {
				switch {
				case x.Field.Name == "sizes" && x.Elem >= 0:
					sizes = append(sizes, x)
				case x.Field.Name == "scalar_type" && x.Elem < 0:
					types = append(types, x)
				}
			}
		}
		if named[x.Path] {
			segSizes = append(segSizes, x)
		}
		if x.Table == "NamedData" && x.Field.Name == "key" && x.Len > 0 {
			keys = append(keys, x)
		}
	}
	nvals := len(s.file.Program.ExecutionPlans[0].Values)
	for try := 0; try < 6*quota && s.counts["program"] < quota; try++ {
		var x *fbverify.Site
		var cands []uint64
		switch s.r.IntN(5) {
		case 0:
			if len(args) == 0 {
				continue
			}
			x = pick(s.r, args)
			cur := s.u(x)
			cands = []uint64{cur + 1, cur - 1, uint64(nvals), uint64(s.r.IntN(nvals)), 0}
		case 1:
			if len(sizes) == 0 {
				continue
			}
			x = pick(s.r, sizes)
			cur := s.u(x)
			cands = []uint64{cur + 1, cur - 1, 2 * cur, 1}
		case 2:
			if len(types) == 0 {
				continue
			}
			x = pick(s.r, types)
			cands = []uint64{1, 3, 4, 5, 6, 11}
		case 3:
			if len(segSizes) == 0 {
				continue
			}
			x = pick(s.r, segSizes)
			cur := s.u(x)
			cands = []uint64{cur - 4, cur / 2, 0}
		case 4:
			if len(keys) == 0 {
				continue
			}
			x = pick(s.r, keys)
			at := x.Target + 4 + s.r.IntN(x.Len)
			c := s.data[at]
			nc := byte('0' + s.r.IntN(10))
			if nc == c {
				continue
			}
			s.add("program", fmt.Sprintf("%s: byte %d %q -> %q", strings.TrimPrefix(x.Path, "Program."), at-x.Target-4, c, nc), 0, Edit{Off: at, Data: []byte{nc}})
			continue
		}
		cur := s.u(x)
		v := pick(s.r, cands)
		if v == cur || v >= 1<<(8*min(x.Width, 7)) {
			continue
		}
		s.add("program", fmt.Sprintf("%s: %d -> %d", strings.TrimPrefix(x.Path, "Program."), cur, v), 0, set(x, v))
	}
}
