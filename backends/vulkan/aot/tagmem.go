package aot

import (
	"fmt"
	"math/bits"

	"github.com/etgo/etgo/backends/vulkan/schema"
	"github.com/etgo/etgo/ir"
)

// TagMemoryMetaPass, ported from ExecuTorch 1.5.1 (_passes/tag_memory_meta_pass.py and the
// OpRepSets/TensorRepSet rules of utils.py): every tensor gets a storage type and memory
// layout; where an operator needs another representation of an argument than the one it
// already has, a clone node makes the transition.

// tensorRepr is a chosen representation (TensorRepr).
type tensorRepr struct {
	storage schema.VkStorageType
	layout  schema.VkMemoryLayout
}

var defaultRepr = tensorRepr{schema.VkStorageTypeDEFAULT_STORAGE, schema.VkMemoryLayoutDEFAULT_LAYOUT}

func lowest(l layouts) schema.VkMemoryLayout {
	return schema.VkMemoryLayout(bits.TrailingZeros16(uint16(l)))
}

// makeTensorRepr prefers a texture, then the first (lowest) layout.
func (r repSet) makeTensorRepr() tensorRepr {
	switch {
	case r.empty():
		return defaultRepr
	case r.texture != 0:
		return tensorRepr{schema.VkStorageTypeTEXTURE_3D, lowest(r.texture)}
	default:
		return tensorRepr{schema.VkStorageTypeBUFFER, lowest(r.buffer)}
	}
}

func (r repSet) isConstrained() bool {
	nt, nb := bits.OnesCount16(uint16(r.texture)), bits.OnesCount16(uint16(r.buffer))
	return r.empty() || nt == 1 && nb == 0 || nt == 0 && nb == 1
}

func (r repSet) anyInCommon(o repSet) bool { return r.buffer&o.buffer != 0 || r.texture&o.texture != 0 }

func reprSet(t tensorRepr) (repSet, error) {
	switch t.storage {
	case schema.VkStorageTypeBUFFER:
		return repSet{lay(t.layout), 0}, nil
	case schema.VkStorageTypeTEXTURE_3D:
		return repSet{0, lay(t.layout)}, nil
	}
	return repSet{}, fmt.Errorf("vulkan: unsupported storage type %d", t.storage)
}

// pdi is PackedDimInfo: the packed dim and its block size.
type pdi struct{ dim, block int }

func pdiOf(l schema.VkMemoryLayout, buffer bool) pdi {
	b := 4
	if buffer {
		b = 1
	}
	switch l {
	case width:
		return pdi{0, b}
	case height:
		return pdi{1, b}
	case channels:
		return pdi{2, b}
	case schema.VkMemoryLayoutPACKED_INT8_4W:
		return pdi{0, 4}
	case schema.VkMemoryLayoutPACKED_INT8_4W4C:
		return pdi{2, 4}
	case schema.VkMemoryLayoutPACKED_INT8_4H4W:
		return pdi{0, 4}
	case schema.VkMemoryLayoutPACKED_INT8_4C1W:
		if buffer {
			return pdi{2, 4}
		}
		return pdi{2, 16}
	case schema.VkMemoryLayoutPACKED_INT8_CONV2D:
		return pdi{2, 4}
	}
	return pdi{-1, 0}
}

func pdis(l layouts, buffer bool) map[pdi]bool {
	out := map[pdi]bool{}
	for i := schema.VkMemoryLayout(0); i < 16; i++ {
		if l.has(i) {
			out[pdiOf(i, buffer)] = true
		}
	}
	return out
}

// hasCompatiblePDIs: every packed-dim info of o is one of r's.
func (r repSet) hasCompatiblePDIs(o repSet) bool {
	rb, rt := pdis(r.buffer, true), pdis(r.texture, false)
	for p := range pdis(o.buffer, true) {
		if !rb[p] {
			return false
		}
	}
	for p := range pdis(o.texture, false) {
		if !rt[p] {
			return false
		}
	}
	return true
}

// constrainToCompatiblePD keeps r's layouts whose packed-dim info o has (an empty o: no
// constraint).
func (r repSet) constrainToCompatiblePD(o repSet) repSet {
	if o.empty() {
		return r
	}
	ob, ot := pdis(o.buffer, true), pdis(o.texture, false)
	var out repSet
	for i := schema.VkMemoryLayout(0); i < 16; i++ {
		if r.buffer.has(i) && len(ob) > 0 && ob[pdiOf(i, true)] {
			out.buffer |= lay(i)
		}
		if r.texture.has(i) && len(ot) > 0 && ot[pdiOf(i, false)] {
			out.texture |= lay(i)
		}
	}
	return out
}

// opRepSets is OpRepSets.
type opRepSets struct {
	node                           *fxNode
	syncArgs, syncOuts, syncPrimIO bool
	primary                        int // -1: none
	args, outs                     []repSet
}

// repListAt is TensorRepSetList's lookup (one entry applies to all; past the end: none).
func repListAt(l []repSet, i int) repSet {
	if i > 0 && len(l) == 1 {
		return l[0]
	}
	if i >= len(l) {
		return noStorage
	}
	return l[i]
}

func setListAt(l []repSet, i int, r repSet) {
	if i > 0 && len(l) == 1 {
		l[0] = r
		return
	}
	l[i] = r
}

// isTensorArg is is_tensor_arg_node.
func isTensorArg(a *fxArg) bool {
	switch a.kind {
	case faNode:
		return a.node.isTensor()
	case faNodes:
		if len(a.nodes) == 0 {
			return false
		}
		for _, n := range a.nodes {
			if !n.isTensor() {
				return false
			}
		}
		return true
	}
	return false
}

func singleTensor(n *fxNode) bool { return len(n.vals) == 1 && !n.tuple }

func newOpRepSets(n *fxNode, ins, outs []repSet, limits Extents) (*opRepSets, error) {
	o := &opRepSets{node: n, syncArgs: len(ins) <= 1, syncOuts: len(outs) <= 1, primary: -1}
	for i := range n.args {
		if !isTensorArg(&n.args[i]) {
			continue
		}
		if repListAt(ins, i).empty() {
			continue
		}
		o.primary = i
		break
	}
	o.syncPrimIO = o.primary >= 0 && repListAt(ins, o.primary) == repListAt(outs, 0)

	commonArg := anyStorageInclInt8
	for i := range n.args {
		a := &n.args[i]
		r := repListAt(ins, i)
		if !isTensorArg(a) || r.empty() {
			o.args = append(o.args, anyStorageInclInt8)
			continue
		}
		f, err := o.filterForArg(r, a, limits)
		if err != nil {
			return nil, err
		}
		o.args = append(o.args, f)
		commonArg = commonArg.and(f)
	}
	commonOut := anyStorageInclInt8
	if singleTensor(n) {
		commonOut = filter(n.vals[0], repListAt(outs, 0), limits)
		o.outs = append(o.outs, commonOut)
	} else {
		for i, v := range n.vals {
			r := filter(v, repListAt(outs, i), limits)
			o.outs = append(o.outs, r)
			commonOut = commonOut.and(r)
		}
	}
	var primary repSet
	if o.syncPrimIO {
		in := o.args[o.primary]
		if o.syncArgs {
			in = commonArg
		}
		out := o.outs[0]
		if o.syncOuts {
			out = commonOut
		}
		primary = in.and(out)
		o.args[o.primary] = primary
		o.outs[0] = primary
	}
	if o.syncArgs {
		c := commonArg
		if o.syncPrimIO {
			c = primary
		}
		for i := range o.args {
			o.args[i] = c
		}
	}
	if o.syncOuts {
		c := commonOut
		if o.syncPrimIO {
			c = primary
		}
		for i := range o.outs {
			o.outs[i] = c
		}
	}
	return o, nil
}

func (o *opRepSets) filterForArg(r repSet, a *fxArg, limits Extents) (repSet, error) {
	switch {
	case a.kind == faNode && singleTensor(a.node):
		return filter(a.node.vals[0], r, limits), nil
	case a.kind == faNodes:
		c := r
		for _, n := range a.nodes {
			if !singleTensor(n) {
				return r, unsupported("node %s: a list argument item %s is not a single tensor", o.node.name, n.name)
			}
			c = c.and(filter(n.vals[0], c, limits))
		}
		return c, nil
	case o.node.kind == fxGetitem && a.kind == faNode && a.node == o.node.args[0].node:
		return filter(a.node.vals[o.node.item], r, limits), nil
	}
	return r, unsupported("node %s: unhandled argument %s", o.node.name, a.name)
}

func (o *opRepSets) arg(i int) repSet { return repListAt(o.args, i) }
func (o *opRepSets) out(i int) repSet { return repListAt(o.outs, i) }

func (o *opRepSets) tryConstrainWithArg(i int, src repSet) bool {
	cur := o.arg(i)
	if cur == src || !cur.anyInCommon(src) {
		return false
	}
	narrowed := cur.and(src)
	if o.syncPrimIO && !o.out(0).hasCompatiblePDIs(narrowed) {
		return false
	}
	setListAt(o.args, i, narrowed)
	if o.syncArgs {
		for j := range o.args {
			if j != i {
				o.args[j] = o.args[j].constrainToCompatiblePD(narrowed)
			}
		}
	}
	if o.syncPrimIO && (i == o.primary || o.syncArgs) {
		o.outs[0] = o.outs[0].constrainToCompatiblePD(narrowed)
		if o.syncOuts {
			for j := 1; j < len(o.outs); j++ {
				o.outs[j] = o.outs[j].constrainToCompatiblePD(o.outs[0])
			}
		}
	}
	return true
}

func (o *opRepSets) tryConstrainWithOut(req repSet) bool {
	cur := o.outs[0]
	if cur == req || !cur.anyInCommon(req) {
		return false
	}
	narrowed := cur.and(req)
	o.outs[0] = narrowed
	if o.syncOuts {
		for j := 1; j < len(o.outs); j++ {
			o.outs[j] = o.outs[j].constrainToCompatiblePD(narrowed)
		}
	}
	if o.syncPrimIO {
		o.args[o.primary] = o.args[o.primary].constrainToCompatiblePD(narrowed)
		if o.syncArgs {
			for j := range o.args {
				if j != o.primary {
					o.args[j] = o.args[j].constrainToCompatiblePD(o.args[o.primary])
				}
			}
		}
	}
	return true
}

func (o *opRepSets) pick() (args, outs []tensorRepr) {
	for i := range o.node.args {
		args = append(args, o.arg(i).makeTensorRepr())
	}
	for i := range numTensors(o.node) {
		outs = append(outs, o.out(i).makeTensorRepr())
	}
	return args, outs
}

func numTensors(n *fxNode) int { return len(n.vals) }

// tagger is the pass's state.
type tagger struct {
	g      *fxGraph
	limits Extents
	err    error
}

func (t *tagger) fail(err error) {
	if t.err == nil {
		t.err = err
	}
}

func (t *tagger) validOp(n *fxNode) bool {
	if n == nil || !n.isTensor() || n.tensorRef {
		return false
	}
	if n.kind == fxGetitem {
		return true
	}
	if n.kind != fxCall {
		return false
	}
	_, ok := registry[n.target]
	return ok
}

func (t *tagger) makeRepSets(n *fxNode) *opRepSets {
	f := registry[n.target]
	ins, outs := f.storage(n.ir)
	o, err := newOpRepSets(n, ins, outs, t.limits)
	if err != nil {
		t.fail(err)
		return &opRepSets{node: n, primary: -1, args: make([]repSet, len(n.args)), outs: make([]repSet, max(1, len(n.vals)))}
	}
	return o
}

func (t *tagger) cached(n *fxNode) *opRepSets {
	if n.repsets != nil {
		return n.repsets
	}
	var o *opRepSets
	if n.kind == fxGetitem {
		src := n.args[0].node
		r := t.cached(src).out(n.item)
		var err error
		o, err = newOpRepSets(n, []repSet{r}, []repSet{r}, t.limits)
		if err != nil {
			t.fail(err)
			o = &opRepSets{node: n, primary: -1, args: []repSet{r, r}, outs: []repSet{r}}
		}
	} else {
		o = t.makeRepSets(n)
	}
	n.repsets = o
	return o
}

// The representation of a node's tensors lives in its specs (a getitem shares its item's).
func hasRepr(n *fxNode) bool {
	if len(n.specs) == 0 {
		return false
	}
	for _, s := range n.specs {
		if s.repr == nil {
			return false
		}
	}
	return true
}

func setRepr(n *fxNode, rs []tensorRepr) {
	for i, s := range n.specs {
		r := rs[0]
		if len(rs) == len(n.specs) {
			r = rs[i]
		}
		s.repr = &r
	}
}

func (t *tagger) sourceRepSet(op *fxNode, i int) repSet {
	a := &op.args[i]
	if !isTensorArg(a) {
		return anyStorageInclInt8
	}
	n := a.node
	if a.kind == faNodes {
		n = a.nodes[0]
	}
	if hasRepr(n) && len(n.specs) == 1 {
		r, err := reprSet(*n.specs[0].repr)
		if err != nil {
			t.fail(err)
		}
		return r
	}
	if t.validOp(n) {
		if op.kind == fxGetitem {
			return t.cached(op.args[0].node).out(op.item)
		}
		return t.cached(n).out(0)
	}
	return anyStorage
}

func (t *tagger) traceUsers(origin *fxNode, r repSet, depth *int) repSet {
	if depth == nil {
		d := 64
		depth = &d
	}
	queue := []*fxNode{origin}
	for len(queue) > 0 {
		if r.isConstrained() {
			return r
		}
		*depth--
		if *depth <= 0 {
			return r
		}
		n := queue[0]
		queue = queue[1:]
		users := n.users
		syncOuts := true
		if t.validOp(n) {
			syncOuts = t.cached(n).syncOuts
		}
		if numTensors(n) > 1 && !syncOuts {
			users = nil
			for _, u := range n.users {
				if u.kind == fxGetitem && u.item == 1 {
					users = append(users, u)
				}
			}
		}
		for _, u := range users {
			if r.isConstrained() {
				return r
			}
			ai := -1
			for i := range u.args {
				if u.args[i].kind == faNode && u.args[i].node == n {
					ai = i
					break
				}
			}
			if ai < 0 || !t.validOp(u) {
				continue
			}
			ors := t.cached(u)
			req := ors.arg(ai)
			if !req.anyInCommon(r) {
				continue
			}
			r = r.and(req)
			if ors.syncPrimIO && (ors.syncArgs || ai == ors.primary) {
				queue = append(queue, u)
			}
		}
	}
	return r
}

func (t *tagger) constrainArg(i int, o *opRepSets) {
	a := &o.node.args[i]
	n := a.node
	if a.kind == faNodes {
		n = a.nodes[0]
	}
	if r := o.arg(i); !r.isConstrained() {
		o.tryConstrainWithArg(i, t.traceUsers(n, r, nil))
	}
	if r := o.arg(i); !r.isConstrained() {
		o.tryConstrainWithArg(i, t.sourceRepSet(o.node, i))
	}
}

func (t *tagger) constrainOut(o *opRepSets) {
	r := o.out(0)
	if r.isConstrained() {
		return
	}
	o.tryConstrainWithOut(t.traceUsers(o.node, r, nil))
}

type transitionKey struct {
	src  *fxNode
	repr tensorRepr
}

func (t *tagger) setOpReprs(op *fxNode, cache map[transitionKey]*fxNode) {
	if !t.validOp(op) {
		return
	}
	if op.kind == fxGetitem {
		return // shares its item's spec, tagged with the producer
	}
	o := t.makeRepSets(op)
	for i := range op.args {
		if isTensorArg(&op.args[i]) {
			t.constrainArg(i, o)
		}
	}
	t.constrainOut(o)
	args, outs := o.pick()
	setRepr(op, outs)
	for i := range op.args {
		a := &op.args[i]
		if !nonConstantTensorArg(a) {
			continue
		}
		for _, n := range a.nodesOf() {
			t.setArgReprOrTransition(op, n, args[i], cache)
		}
	}
}

func nonConstantTensorArg(a *fxArg) bool {
	switch a.kind {
	case faNode:
		return a.node.isTensor() && !a.node.tensorRef
	case faNodes:
		for _, n := range a.nodes {
			if !n.isTensor() || n.tensorRef {
				return false
			}
		}
		return true
	}
	return false
}

func (t *tagger) setArgReprOrTransition(op, n *fxNode, want tensorRepr, cache map[transitionKey]*fxNode) {
	if !hasRepr(n) {
		setRepr(n, []tensorRepr{want})
		return
	}
	if len(n.specs) != 1 {
		t.fail(unsupported("node %s: argument %s is a tuple needing a transition", op.name, n.name))
		return
	}
	if *n.specs[0].repr == want {
		return
	}
	key := transitionKey{n, want}
	if c, ok := cache[key]; ok {
		op.replaceInput(n, c)
		return
	}
	c := &fxNode{kind: fxCall, name: fmt.Sprintf("%s_vk_clone_%d", n.name, len(cache)), target: tClone, vals: n.vals,
		args: []fxArg{{name: "self", kind: faNode, node: n}}}
	c.ir = &ir.Node{Name: c.name, Target: tClone}
	c.specs = []*tensorSpec{{meta: n.vals[0], memObjID: -1}}
	setRepr(c, []tensorRepr{want})
	t.g.insertBefore(op, c)
	addUser(n, c)
	op.replaceInput(n, c)
	cache[key] = c
}

// tagMemoryMeta runs the pass over the graph, in node order.
func (g *fxGraph) tagMemoryMeta(limits Extents) error {
	g.makeSpecs()
	t := &tagger{g: g, limits: limits}
	cache := map[transitionKey]*fxNode{}
	for _, n := range append([]*fxNode(nil), g.nodes...) {
		t.setOpReprs(n, cache)
		if t.err != nil {
			return t.err
		}
	}
	return nil
}

// makeSpecs gives every tensor node its specs (SpecPropPass): a getitem shares its item's, a
// constant's is const, a prepack node's a const copy with a dedicated memory object.
func (g *fxGraph) makeSpecs() {
	for _, n := range g.nodes {
		switch n.kind {
		case fxGetitem:
			n.specs = []*tensorSpec{n.args[0].node.specs[n.item]}
		case fxPlaceholder, fxCall:
			for _, v := range n.vals {
				n.specs = append(n.specs, &tensorSpec{meta: v, konst: n.param || n.target == tPrepack, memObjID: -1, dedicated: n.target == tPrepack})
			}
		}
	}
}
