package passes

import (
	"fmt"

	"github.com/etgo/etgo/ir"
)

// Recurrent layers, as torch's decomposition table unrolls them (lstm_impl, gru_impl,
// rnn_tanh_input, rnn_relu_input over _rnn_helper): per layer and direction the input
// projection for every step at once (one linear), then one cell per time step, the steps'
// outputs concatenated; the final hidden states stacked. Tensors iterated in Python (the
// hidden states per layer, the projected input per step) are unbound: every slice, then every
// squeeze. The linears stay linear here; a partitioner that keeps linear whole gets them so, as
// to_edge_transform_and_lower hands them to XNNPACK.

type rnnKind int

const (
	rnnLSTM rnnKind = iota
	rnnGRU
	rnnTanh
	rnnReLU
)

func init() {
	registerRule(rnnInput(rnnLSTM), "aten.lstm.input")
	registerRule(rnnInput(rnnGRU), "aten.gru.input")
	registerRule(rnnInput(rnnTanh), "aten.rnn_tanh.input")
	registerRule(rnnInput(rnnReLU), "aten.rnn_relu.input")
}

// unbindRows is unbind(t, 0) as Edge writes it: the slice of every index (none for a dim of one),
// then the squeeze of every slice.
func unbindRows(b *Builder, t *ir.Value) []*ir.Value {
	if b.Err() != nil {
		return nil
	}
	if len(t.Meta.Sizes) == 0 || !t.Meta.Sizes[0].IsStatic() {
		b.Fail("unbind of %s along a symbolic or missing dim", t.Meta)
		return nil
	}
	rows := t.Meta.Sizes[0].Size
	slices := make([]*ir.Value, rows)
	for i := range slices {
		slices[i] = t
		if rows > 1 {
			slices[i] = b.Call("aten.slice.Tensor", T("self", t), I("dim", 0), I("start", int64(i)), I("end", int64(i)+1), I("step", 1))
		}
	}
	out := make([]*ir.Value, rows)
	for i, s := range slices {
		out[i] = b.Call("aten.squeeze.dims", T("self", s), Is("dim", 0))
	}
	return out
}

// chunks is chunk(t, k, dim): split_with_sizes of ceil(size/k) pieces, the last shorter.
func chunks(b *Builder, t *ir.Value, k int, dim int64) []*ir.Value {
	if b.Err() != nil {
		return nil
	}
	d, ok := norm(dim, len(t.Meta.Sizes))
	if !ok || !t.Meta.Sizes[d].IsStatic() {
		b.Fail("chunk of %s along dim %d", t.Meta, dim)
		return nil
	}
	size := t.Meta.Sizes[d].Size
	piece := (size + int64(k) - 1) / int64(k)
	var sizes []int64
	for left := size; left > 0; left -= piece {
		sizes = append(sizes, min(piece, left))
	}
	outs := b.CallN("aten.split_with_sizes.default", T("self", t), Is("split_sizes", sizes...), I("dim", dim))
	if b.Err() == nil && len(outs) != k {
		b.Fail("chunk of %s into %d pieces gives %d", t.Meta, k, len(outs))
	}
	return outs
}

// rnnLinear is F.linear(x, w, b), b optional.
func rnnLinear(b *Builder, x, w, bias *ir.Value) *ir.Value {
	args := []ir.Arg{T("input", x), T("weight", w)}
	if bias != nil {
		args = append(args, T("bias", bias))
	}
	return b.Call("aten.linear.default", args...)
}

// rnnParams is one layer and direction's weights: ih, hh, their biases (nil without), and the
// LSTM projection (nil without).
type rnnParams struct{ wih, whh, bih, bhh, whr *ir.Value }

func gatherParams(ps []*ir.Value, hasBiases, hasProj bool) ([]rnnParams, error) {
	group := 2
	switch {
	case hasBiases && hasProj:
		group = 5
	case hasBiases:
		group = 4
	case hasProj:
		group = 3
	}
	if len(ps)%group != 0 {
		return nil, fmt.Errorf("%d parameters are not groups of %d", len(ps), group)
	}
	var out []rnnParams
	for i := 0; i < len(ps); i += group {
		p := rnnParams{wih: ps[i], whh: ps[i+1]}
		if hasBiases {
			p.bih, p.bhh = ps[i+2], ps[i+3]
		}
		switch group {
		case 5:
			p.whr = ps[i+4]
		case 3:
			p.whr = ps[i+2]
		}
		out = append(out, p)
	}
	return out, nil
}

// rnnHidden is one layer and direction's initial state: h, and c for an LSTM.
type rnnHidden struct{ h, c *ir.Value }

// layer runs one layer in one direction (one_layer_lstm / one_layer_rnn) and returns its
// outputs for every step and its final state.
func (k rnnKind) layer(b *Builder, inp *ir.Value, hidden rnnHidden, p rnnParams, reverse bool) (*ir.Value, rnnHidden) {
	var hx, cx *ir.Value
	if k == rnnLSTM {
		hx = b.Call("aten.unsqueeze.default", T("self", hidden.h), I("dim", 0))
		cx = b.Call("aten.unsqueeze.default", T("self", hidden.c), I("dim", 0))
	}
	pre := rnnLinear(b, inp, p.wih, p.bih)
	if reverse {
		pre = b.Call("aten.flip.default", T("self", pre), Is("dims", 0))
	}
	if k != rnnLSTM {
		hx = b.Call("aten.unsqueeze.default", T("self", hidden.h), I("dim", 0))
	}
	var steps []*ir.Value
	for _, x := range unbindRows(b, pre) {
		switch k {
		case rnnLSTM:
			hx, cx = lstmCell(b, x, hx, cx, p)
		case rnnGRU:
			hx = gruCell(b, x, hx, p)
		default:
			g := b.Call("aten.add.Tensor", T("self", rnnLinear(b, hx, p.whh, p.bhh)), T("other", x))
			if k == rnnTanh {
				hx = b.Call("aten.tanh.default", T("self", g))
			} else {
				hx = b.Call("aten.relu.default", T("self", g))
			}
		}
		steps = append(steps, hx)
	}
	if b.Err() != nil {
		return nil, rnnHidden{}
	}
	if reverse {
		for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
			steps[i], steps[j] = steps[j], steps[i]
		}
	}
	out := b.Call("aten.cat.default", Ts("tensors", steps...), I("dim", 0))
	final := rnnHidden{h: b.Call("aten.squeeze.dims", T("self", hx), Is("dim", 0))}
	if k == rnnLSTM {
		final.c = b.Call("aten.squeeze.dims", T("self", cx), Is("dim", 0))
	}
	return out, final
}

// lstmCell: gates = linear(h, w_hh, b_hh) + x in four chunks; c' = σ(f)·c + σ(i)·tanh(g);
// h' = σ(o)·tanh(c'), projected when the layer has a projection.
func lstmCell(b *Builder, x, hx, cx *ir.Value, p rnnParams) (*ir.Value, *ir.Value) {
	gates := b.Call("aten.add.Tensor", T("self", rnnLinear(b, hx, p.whh, p.bhh)), T("other", x))
	g := chunks(b, gates, 4, 2)
	if b.Err() != nil {
		return nil, nil
	}
	in := b.Call("aten.sigmoid.default", T("self", g[0]))
	forget := b.Call("aten.sigmoid.default", T("self", g[1]))
	cell := b.Call("aten.tanh.default", T("self", g[2]))
	out := b.Call("aten.sigmoid.default", T("self", g[3]))
	cy := b.Call("aten.add.Tensor", T("self", b.Call("aten.mul.Tensor", T("self", forget), T("other", cx))),
		T("other", b.Call("aten.mul.Tensor", T("self", in), T("other", cell))))
	hy := b.Call("aten.mul.Tensor", T("self", out), T("other", b.Call("aten.tanh.default", T("self", cy))))
	if p.whr != nil {
		hy = rnnLinear(b, hy, p.whr, nil)
	}
	return hy, cy
}

// gruCell: r = σ(h_r + x_r), z = σ(h_z + x_z), n = tanh(x_n + h_n·r), h' = (h - n)·z + n, the
// x gates chunked from the step's projection and the h gates from linear(h, w_hh, b_hh).
func gruCell(b *Builder, x, hx *ir.Value, p rnnParams) *ir.Value {
	ig := chunks(b, x, 3, 1)
	hg := chunks(b, rnnLinear(b, hx, p.whh, p.bhh), 3, 2)
	if b.Err() != nil {
		return nil
	}
	reset := b.Call("aten.sigmoid.default", T("self", b.Call("aten.add.Tensor", T("self", hg[0]), T("other", ig[0]))))
	update := b.Call("aten.sigmoid.default", T("self", b.Call("aten.add.Tensor", T("self", hg[1]), T("other", ig[1]))))
	nw := b.Call("aten.tanh.default", T("self", b.Call("aten.add.Tensor", T("self", ig[2]),
		T("other", b.Call("aten.mul.Tensor", T("self", hg[2]), T("other", reset))))))
	d := b.Call("aten.mul.Tensor", T("self", b.Call("aten.sub.Tensor", T("self", hx), T("other", nw))), T("other", update))
	return b.Call("aten.add.Tensor", T("self", d), T("other", nw))
}

// rnnInput is the .input overload of a recurrent layer.
func rnnInput(k rnnKind) rule {
	return func(b *Builder, n *ir.Node) error {
		x, err := tensorIn(n, "input")
		if err != nil {
			return err
		}
		pa := n.Arg("params")
		if pa == nil || pa.Kind != ir.ArgTensors {
			return fmt.Errorf("%s: params is not a list of tensors", n.Target)
		}
		hasBiases := n.BoolArg("has_biases", true)
		layers := int(n.IntArg("num_layers", 1))
		bidir := n.BoolArg("bidirectional", false)
		batchFirst := n.BoolArg("batch_first", false)
		if len(x.Meta.Sizes) != 3 {
			return fmt.Errorf("%s of a %d-d input: only batched (3-d) inputs are decomposed", n.Target, len(x.Meta.Sizes))
		}
		var hidden []rnnHidden
		hasProj := false
		if k == rnnLSTM {
			hx := n.Arg("hx")
			if hx == nil || hx.Kind != ir.ArgTensors || len(hx.Values) != 2 {
				return fmt.Errorf("lstm expects two hidden states")
			}
			h0, c0 := hx.Values[0], hx.Values[1]
			if len(h0.Meta.Sizes) != 3 || len(c0.Meta.Sizes) != 3 {
				return fmt.Errorf("lstm hidden states %s and %s are not 3-d", h0.Meta, c0.Meta)
			}
			hasProj = h0.Meta.Sizes[2] != c0.Meta.Sizes[2]
			hs, cs := unbindRows(b, h0), unbindRows(b, c0)
			for i := range hs {
				hidden = append(hidden, rnnHidden{h: hs[i], c: cs[i]})
			}
		} else {
			hx, err := tensorIn(n, "hx")
			if err != nil {
				return err
			}
			for _, h := range unbindRows(b, hx) {
				hidden = append(hidden, rnnHidden{h: h})
			}
		}
		params, err := gatherParams(pa.Values, hasBiases, hasProj)
		if err != nil {
			return fmt.Errorf("%s: %w", n.Target, err)
		}
		dirs := 1
		if bidir {
			dirs = 2
		}
		if b.Err() == nil && (len(params) != layers*dirs || len(hidden) != layers*dirs) {
			return fmt.Errorf("%s: %d parameter groups and %d hidden states for %d layers × %d directions", n.Target, len(params), len(hidden), layers, dirs)
		}
		// Dropout between layers: _rnn_helper's condition (num_layers < i - 1) never holds, so
		// torch traces none whatever dropout and train say.
		inp := x
		if batchFirst {
			inp = b.Call("aten.permute.default", T("self", inp), Is("dims", 1, 0, 2))
		}
		var finals []rnnHidden
		for i := 0; i < layers && b.Err() == nil; i++ {
			fwd, fh := k.layer(b, inp, hidden[dirs*i], params[dirs*i], false)
			finals = append(finals, fh)
			if bidir {
				bwd, bh := k.layer(b, inp, hidden[2*i+1], params[2*i+1], true)
				finals = append(finals, bh)
				if b.Err() != nil {
					break
				}
				inp = b.Call("aten.cat.default", Ts("tensors", fwd, bwd), I("dim", int64(len(fwd.Meta.Sizes)-1)))
			} else {
				inp = fwd
			}
		}
		if b.Err() != nil {
			return b.Err()
		}
		if batchFirst {
			inp = b.Call("aten.permute.default", T("self", inp), Is("dims", 1, 0, 2))
		}
		var hs, cs []*ir.Value
		for _, f := range finals {
			hs = append(hs, f.h)
			cs = append(cs, f.c)
		}
		outs := []*ir.Value{inp, b.Call("aten.stack.default", Ts("tensors", hs...), I("dim", 0))}
		if k == rnnLSTM {
			outs = append(outs, b.Call("aten.stack.default", Ts("tensors", cs...), I("dim", 0)))
		}
		return b.Replace(outs...)
	}
}

func init() {
	registerRule(rnnCell(rnnLSTM), "aten.lstm_cell.default")
	registerRule(rnnCell(rnnGRU), "aten.gru_cell.default")
	registerRule(rnnCell(rnnTanh), "aten.rnn_tanh_cell.default")
	registerRule(rnnCell(rnnReLU), "aten.rnn_relu_cell.default")
}

// rnnCell is one step of a recurrent cell as ATen's LSTMCell, GRUCell and SimpleCell compute
// it, on a batched input: the hidden projection first, then the input's (GRU: the input's
// first), the gates chunked along dim 1.
func rnnCell(k rnnKind) rule {
	return func(b *Builder, n *ir.Node) error {
		x, err := tensorIn(n, "input")
		if err != nil {
			return err
		}
		p := rnnParams{wih: optTensor(n, "w_ih"), whh: optTensor(n, "w_hh"), bih: optTensor(n, "b_ih"), bhh: optTensor(n, "b_hh")}
		if p.wih == nil || p.whh == nil {
			return fmt.Errorf("%s without weights", n.Target)
		}
		if len(x.Meta.Sizes) != 2 {
			return fmt.Errorf("%s of a %d-d input: only batched (2-d) inputs are decomposed", n.Target, len(x.Meta.Sizes))
		}
		switch k {
		case rnnLSTM:
			hx := n.Arg("hx")
			if hx == nil || hx.Kind != ir.ArgTensors || len(hx.Values) != 2 {
				return fmt.Errorf("lstm_cell expects two hidden states")
			}
			gates := b.Call("aten.add.Tensor", T("self", rnnLinear(b, hx.Values[0], p.whh, p.bhh)), T("other", rnnLinear(b, x, p.wih, p.bih)))
			g := chunks(b, gates, 4, 1)
			if b.Err() != nil {
				return b.Err()
			}
			in := b.Call("aten.sigmoid.default", T("self", g[0]))
			forget := b.Call("aten.sigmoid.default", T("self", g[1]))
			cell := b.Call("aten.tanh.default", T("self", g[2]))
			out := b.Call("aten.sigmoid.default", T("self", g[3]))
			cy := b.Call("aten.add.Tensor", T("self", b.Call("aten.mul.Tensor", T("self", forget), T("other", hx.Values[1]))),
				T("other", b.Call("aten.mul.Tensor", T("self", in), T("other", cell))))
			hy := b.Call("aten.mul.Tensor", T("self", out), T("other", b.Call("aten.tanh.default", T("self", cy))))
			return b.Replace(hy, cy)
		case rnnGRU:
			hx, err := tensorIn(n, "hx")
			if err != nil {
				return err
			}
			ig := chunks(b, rnnLinear(b, x, p.wih, p.bih), 3, 1)
			hg := chunks(b, rnnLinear(b, hx, p.whh, p.bhh), 3, 1)
			if b.Err() != nil {
				return b.Err()
			}
			reset := b.Call("aten.sigmoid.default", T("self", b.Call("aten.add.Tensor", T("self", hg[0]), T("other", ig[0]))))
			update := b.Call("aten.sigmoid.default", T("self", b.Call("aten.add.Tensor", T("self", hg[1]), T("other", ig[1]))))
			nw := b.Call("aten.tanh.default", T("self", b.Call("aten.add.Tensor", T("self", ig[2]),
				T("other", b.Call("aten.mul.Tensor", T("self", hg[2]), T("other", reset))))))
			d := b.Call("aten.mul.Tensor", T("self", b.Call("aten.sub.Tensor", T("self", hx), T("other", nw))), T("other", update))
			return b.Replace(b.Call("aten.add.Tensor", T("self", d), T("other", nw)))
		}
		hx, err := tensorIn(n, "hx")
		if err != nil {
			return err
		}
		g := b.Call("aten.add.Tensor", T("self", rnnLinear(b, hx, p.whh, p.bhh)), T("other", rnnLinear(b, x, p.wih, p.bih)))
		if k == rnnTanh {
			return b.Replace(b.Call("aten.tanh.default", T("self", g)))
		}
		return b.Replace(b.Call("aten.relu.default", T("self", g)))
	}
}
