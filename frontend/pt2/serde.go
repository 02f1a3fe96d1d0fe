package pt2

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"github.com/etgo/etgo/ir"
)

// The JSON shapes of torch/_export/serde/schema.py that etgo reads. Unions are objects with one
// key; fields etgo does not need are not declared (and so ignored).

type exportedProgram struct {
	GraphModule struct {
		Graph     graph     `json:"graph"`
		Signature signature `json:"signature"`
	} `json:"graph_module"`
	RangeConstraints map[string]struct {
		MinVal *int64 `json:"min_val"`
		MaxVal *int64 `json:"max_val"`
	} `json:"range_constraints"`
	SchemaVersion struct {
		Major int `json:"major"`
		Minor int `json:"minor"`
	} `json:"schema_version"`
	TorchVersion string `json:"torch_version"`
}

type graph struct {
	Inputs          []argument            `json:"inputs"`
	Outputs         []argument            `json:"outputs"`
	Nodes           []node                `json:"nodes"`
	TensorValues    map[string]tensorMeta `json:"tensor_values"`
	SymIntValues    map[string]any        `json:"sym_int_values"`
	SymBoolValues   map[string]any        `json:"sym_bool_values"`
	SymFloatValues  map[string]any        `json:"sym_float_values"`
	CustomObjValues map[string]any        `json:"custom_obj_values"`
}

type node struct {
	Target   string            `json:"target"`
	Inputs   []namedArgument   `json:"inputs"`
	Outputs  []argument        `json:"outputs"`
	Metadata map[string]string `json:"metadata"`
	Name     *string           `json:"name"`
}

type namedArgument struct {
	Name string   `json:"name"`
	Arg  argument `json:"arg"`
	Kind int      `json:"kind"` // 1 positional, 2 keyword
}

// serdeFloat is a float as torch.export's serialiser writes it: a JSON number, or the strings
// "Infinity", "-Infinity" and "NaN" for the values JSON cannot spell (masked_fill with -inf).
type serdeFloat float64

func (f *serdeFloat) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		switch s {
		case "Infinity":
			*f = serdeFloat(math.Inf(1))
		case "-Infinity":
			*f = serdeFloat(math.Inf(-1))
		case "NaN":
			*f = serdeFloat(math.NaN())
		default:
			return fmt.Errorf("float %q", s)
		}
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = serdeFloat(v)
	return nil
}

type tensorArg struct {
	Name string `json:"name"`
}

type symArg struct {
	AsName *string     `json:"as_name"`
	AsInt  *int64      `json:"as_int"`
	AsBool *bool       `json:"as_bool"`
	AsFlt  *serdeFloat `json:"as_float"`
}

type optTensorArg struct {
	AsTensor *tensorArg `json:"as_tensor"`
	AsNone   *bool      `json:"as_none"`
}

// argument is serde's Argument union: exactly one field is set.
type argument struct {
	AsNone            *bool           `json:"as_none"`
	AsTensor          *tensorArg      `json:"as_tensor"`
	AsTensors         []tensorArg     `json:"as_tensors"`
	AsInt             *int64          `json:"as_int"`
	AsInts            []int64         `json:"as_ints"`
	AsFloat           *serdeFloat     `json:"as_float"`
	AsFloats          []serdeFloat    `json:"as_floats"`
	AsString          *string         `json:"as_string"`
	AsStrings         []string        `json:"as_strings"`
	AsSymInt          *symArg         `json:"as_sym_int"`
	AsSymInts         []symArg        `json:"as_sym_ints"`
	AsScalarType      *int            `json:"as_scalar_type"`
	AsMemoryFormat    *int            `json:"as_memory_format"`
	AsLayout          *int            `json:"as_layout"`
	AsDevice          json.RawMessage `json:"as_device"`
	AsBool            *bool           `json:"as_bool"`
	AsBools           []bool          `json:"as_bools"`
	AsSymBool         *symArg         `json:"as_sym_bool"`
	AsOptionalTensors []optTensorArg  `json:"as_optional_tensors"`
	AsOptionalTensor  *optTensorArg   `json:"as_optional_tensor"`
	AsSymFloat        *symArg         `json:"as_sym_float"`
	// Present only to be refused by name.
	AsGraph     json.RawMessage `json:"as_graph"`
	AsCustomObj json.RawMessage `json:"as_custom_obj"`
	AsOperator  *string         `json:"as_operator"`
	AsComplex   json.RawMessage `json:"as_complex"`
}

type symInt struct {
	AsExpr *struct {
		ExprStr string `json:"expr_str"`
		Hint    *struct {
			AsInt *int64 `json:"as_int"`
		} `json:"hint"`
	} `json:"as_expr"`
	AsInt *int64 `json:"as_int"`
}

type tensorMeta struct {
	DType         int      `json:"dtype"`
	Sizes         []symInt `json:"sizes"`
	Strides       []symInt `json:"strides"`
	StorageOffset symInt   `json:"storage_offset"`
	Layout        int      `json:"layout"`
}

type signature struct {
	InputSpecs []struct {
		UserInput *struct {
			Arg argument `json:"arg"`
		} `json:"user_input"`
		Parameter *struct {
			Arg           tensorArg `json:"arg"`
			ParameterName string    `json:"parameter_name"`
		} `json:"parameter"`
		Buffer *struct {
			Arg        tensorArg `json:"arg"`
			BufferName string    `json:"buffer_name"`
			Persistent bool      `json:"persistent"`
		} `json:"buffer"`
		TensorConstant *struct {
			Arg                tensorArg `json:"arg"`
			TensorConstantName string    `json:"tensor_constant_name"`
		} `json:"tensor_constant"`
		CustomObj     json.RawMessage `json:"custom_obj"`
		Token         json.RawMessage `json:"token"`
		ConstantInput *struct {
			Name  string   `json:"name"`
			Value argument `json:"value"`
		} `json:"constant_input"`
	} `json:"input_specs"`
	OutputSpecs []struct {
		UserOutput *struct {
			Arg argument `json:"arg"`
		} `json:"user_output"`
		BufferMutation *struct {
			Arg        tensorArg `json:"arg"`
			BufferName string    `json:"buffer_name"`
		} `json:"buffer_mutation"`
		UserInputMutation *struct {
			Arg           tensorArg `json:"arg"`
			UserInputName string    `json:"user_input_name"`
		} `json:"user_input_mutation"`
		LossOutput          json.RawMessage `json:"loss_output"`
		GradientToParameter json.RawMessage `json:"gradient_to_parameter"`
		GradientToUserInput json.RawMessage `json:"gradient_to_user_input"`
		Token               json.RawMessage `json:"token"`
		ParameterMutation   json.RawMessage `json:"parameter_mutation"`
	} `json:"output_specs"`
}

// serdeDTypes maps serde's ScalarType numbering to ExecuTorch's.
var serdeDTypes = map[int]ir.DType{
	1: ir.Uint8, 2: ir.Int8, 3: ir.Int16, 4: ir.Int32, 5: ir.Int64, 6: ir.Float16, 7: ir.Float32,
	8: ir.Float64, 9: ir.ComplexHalf, 10: ir.ComplexFloat, 11: ir.ComplexDouble, 12: ir.Bool,
	13: ir.BFloat16, 28: ir.Uint16, 34: ir.Uint32, 35: ir.Uint64,
}

// serdeLayouts maps serde's Layout numbering to c10's (ir.Layout). Unknown (0) is what older
// serialisers wrote for dense tensors, read as strided. Non-strided layouts are read, not
// refused: the Edge conversion refuses them, naming the tensor, as the official one does.
var serdeLayouts = map[int]ir.Layout{
	0: ir.Strided, 1: ir.SparseCOO, 2: ir.SparseCSR, 3: ir.SparseCSC, 4: ir.SparseBSR, 5: ir.SparseBSC,
	6: ir.Mkldnn, 7: ir.Strided,
}

func convertMeta(name string, m *tensorMeta) (*ir.TensorMeta, error) {
	dt, ok := serdeDTypes[m.DType]
	if !ok {
		return nil, invalid("tensor %q: dtype %d is not supported", name, m.DType)
	}
	layout, ok := serdeLayouts[m.Layout]
	if !ok {
		return nil, invalid("tensor %q: layout %d is not one torch.export writes", name, m.Layout)
	}
	if len(m.Sizes) > 16 {
		return nil, invalid("tensor %q: rank %d exceeds 16", name, len(m.Sizes))
	}
	meta := &ir.TensorMeta{DType: dt, Layout: layout}
	for i, s := range m.Sizes {
		d, err := convertSymInt(s)
		if err != nil {
			return nil, invalid("tensor %q dim %d: %v", name, i, err)
		}
		meta.Sizes = append(meta.Sizes, d)
	}
	meta.DimOrder = dimOrder(m.Strides, len(meta.Sizes))
	return meta, nil
}

// dimOrder derives the dim order from strides as torch's Tensor.dim_order() does (dims by
// decreasing stride, ties in dim order), or nil when it is contiguous or the strides are
// symbolic or missing.
func dimOrder(strides []symInt, rank int) []int64 {
	if len(strides) != rank {
		return nil
	}
	s := make([]int64, rank)
	for i, st := range strides {
		if st.AsInt == nil {
			return nil
		}
		s[i] = *st.AsInt
	}
	order := make([]int64, rank)
	for i := range order {
		order[i] = int64(i)
	}
	sort.SliceStable(order, func(a, b int) bool { return s[order[a]] > s[order[b]] })
	for i, d := range order {
		if d != int64(i) {
			return order
		}
	}
	return nil
}

// nonDenseStrides are the recorded strides of a static tensor when they are not the dense
// strides of its dim order (size-1 dims, whose stride means nothing, aside); nil otherwise.
func nonDenseStrides(strides []symInt, meta *ir.TensorMeta) []int64 {
	if len(strides) != len(meta.Sizes) || !meta.IsStatic() {
		return nil
	}
	got := make([]int64, len(strides))
	for i, st := range strides {
		if st.AsInt == nil {
			return nil
		}
		got[i] = *st.AsInt
	}
	for _, d := range meta.Sizes {
		if d.Size == 0 {
			return nil
		}
	}
	order := meta.Order()
	dense := make([]int64, len(got))
	acc := int64(1)
	for i := len(order) - 1; i >= 0; i-- {
		d := order[i]
		dense[d] = acc
		acc *= max(meta.Sizes[d].Size, 1)
	}
	for i := range got {
		if meta.Sizes[i].Size != 1 && got[i] != dense[i] {
			return got
		}
	}
	return nil
}

func convertSymInt(s symInt) (ir.Dim, error) {
	switch {
	case s.AsInt != nil:
		if *s.AsInt < 0 {
			return ir.Dim{}, fmt.Errorf("negative size %d", *s.AsInt)
		}
		return ir.Dim{Size: *s.AsInt}, nil
	case s.AsExpr != nil:
		d := ir.Dim{Symbol: s.AsExpr.ExprStr}
		if m := symbolName.FindStringSubmatch(s.AsExpr.ExprStr); m != nil {
			d.Symbol = m[1]
		}
		if s.AsExpr.Hint != nil && s.AsExpr.Hint.AsInt != nil {
			d.Size = *s.AsExpr.Hint.AsInt
		}
		return d, nil
	}
	return ir.Dim{}, fmt.Errorf("size is neither an int nor an expression")
}

// buildGraph converts the serialized graph, checking that every value is defined before use.
func buildGraph(ep *exportedProgram) (*ir.Graph, error) {
	sg := &ep.GraphModule.Graph
	if len(sg.CustomObjValues) > 0 {
		return nil, invalid("the program holds custom (TorchBind) objects, which are pickled and not supported")
	}
	g := ir.NewGraph()
	for sym, r := range ep.RangeConstraints {
		rg := ir.Range{Min: 0, Max: -1}
		if r.MinVal != nil {
			rg.Min = *r.MinVal
		}
		if r.MaxVal != nil && *r.MaxVal < math.MaxInt64/2 {
			rg.Max = *r.MaxVal
		}
		g.Ranges[sym] = rg
	}
	define := func(name string, producer *ir.Node) (*ir.Value, error) {
		v := &ir.Value{Name: name, Producer: producer}
		if m, ok := sg.TensorValues[name]; ok {
			meta, err := convertMeta(name, &m)
			if err != nil {
				return nil, err
			}
			v.Kind, v.Meta = ir.TensorValue, meta
		} else if raw, ok := sg.SymIntValues[name]; ok {
			v.Kind = ir.SymIntValue
			// The expression and hint are informative (decompositions size their results
			// from them); a value that does not parse stays unknown.
			if b, err := json.Marshal(raw); err == nil {
				var si symInt
				if json.Unmarshal(b, &si) == nil {
					if d, err := convertSymInt(si); err == nil {
						v.Sym = d
					}
				}
			}
		} else if _, ok := sg.SymBoolValues[name]; ok {
			v.Kind = ir.SymBoolValue
		} else if _, ok := sg.SymFloatValues[name]; ok {
			v.Kind = ir.SymFloatValue
		} else {
			return nil, invalid("value %q has no metadata", name)
		}
		if err := g.AddValue(v); err != nil {
			return nil, invalid("%v", err)
		}
		return v, nil
	}
	for i, in := range sg.Inputs {
		if in.AsTensor == nil && in.AsSymInt == nil {
			return nil, invalid("graph input %d is neither a tensor nor a symbolic int", i)
		}
		name := ""
		if in.AsTensor != nil {
			name = in.AsTensor.Name
		} else if in.AsSymInt.AsName != nil {
			name = *in.AsSymInt.AsName
		}
		v, err := define(name, nil)
		if err != nil {
			return nil, err
		}
		if v.Kind == ir.TensorValue {
			v.InputStrides = nonDenseStrides(sg.TensorValues[name].Strides, v.Meta)
		}
	}
	for i := range sg.Nodes {
		sn := &sg.Nodes[i]
		n := &ir.Node{Target: trimTarget(sn.Target), StackTrace: sn.Metadata["stack_trace"], ModuleStack: sn.Metadata["nn_module_stack"]}
		if sn.Name != nil {
			n.Name = *sn.Name
		}
		where := fmt.Sprintf("node %d (%s)", i, sn.Target)
		for _, na := range sn.Inputs {
			a, err := convertArg(g, na.Arg)
			if err != nil {
				return nil, invalid("%s argument %q: %v", where, na.Name, err)
			}
			a.Name, a.KwargOnly = na.Name, na.Kind == 2
			n.Args = append(n.Args, a)
		}
		for _, out := range sn.Outputs {
			switch {
			case out.AsTensor != nil:
				v, err := define(out.AsTensor.Name, n)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", where, err)
				}
				n.Outputs = append(n.Outputs, v)
			case out.AsTensors != nil:
				n.ListOutput = true
				for _, t := range out.AsTensors {
					v, err := define(t.Name, n)
					if err != nil {
						return nil, fmt.Errorf("%s: %w", where, err)
					}
					n.Outputs = append(n.Outputs, v)
				}
			case out.AsSymInt != nil && out.AsSymInt.AsName != nil,
				out.AsSymBool != nil && out.AsSymBool.AsName != nil,
				out.AsSymFloat != nil && out.AsSymFloat.AsName != nil:
				// A symbolic number: a size read off a tensor, or a comparison of sizes
				// (_operator.ge on an unbacked size, which a runtime assertion reads).
				name, kind := symOutput(out)
				v, err := define(name, n)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", where, err)
				}
				if v.Kind != kind {
					return nil, invalid("%s: output %q is declared as a symbolic number of another kind", where, name)
				}
				n.Outputs = append(n.Outputs, v)
			case out.AsNone != nil:
				n.Outputs = append(n.Outputs, nil)
			default:
				return nil, invalid("%s: an output of an unsupported kind", where)
			}
		}
		if len(sn.Outputs) == 0 {
			// A node returning nothing (a runtime assertion) holds one nil output, as a
			// node whose single result is None does.
			n.Outputs = []*ir.Value{nil}
		}
		if n.Name == "" && len(n.Outputs) > 0 && n.Outputs[0] != nil {
			n.Name = n.Outputs[0].Name
		}
		g.Nodes = append(g.Nodes, n)
	}
	if err := buildSignature(g, &ep.GraphModule.Signature); err != nil {
		return nil, err
	}
	return g, nil
}

// symOutput names a symbolic-number output and the kind its value must have.
func symOutput(out argument) (string, ir.ValueKind) {
	switch {
	case out.AsSymInt != nil && out.AsSymInt.AsName != nil:
		return *out.AsSymInt.AsName, ir.SymIntValue
	case out.AsSymBool != nil && out.AsSymBool.AsName != nil:
		return *out.AsSymBool.AsName, ir.SymBoolValue
	}
	return *out.AsSymFloat.AsName, ir.SymFloatValue
}

// trimTarget turns "torch.ops.aten.add.Tensor" into "aten.add.Tensor".
func trimTarget(t string) string {
	const p = "torch.ops."
	if len(t) > len(p) && t[:len(p)] == p {
		return t[len(p):]
	}
	return t
}

func lookup(g *ir.Graph, name string) (*ir.Value, error) {
	v, ok := g.Value(name)
	if !ok {
		return nil, fmt.Errorf("value %q is used before it is defined", name)
	}
	return v, nil
}

func convertArg(g *ir.Graph, a argument) (ir.Arg, error) {
	var out ir.Arg
	switch {
	case a.AsNone != nil:
		out.Kind = ir.ArgNone
	case a.AsTensor != nil:
		v, err := lookup(g, a.AsTensor.Name)
		if err != nil {
			return out, err
		}
		out.Kind, out.Values = ir.ArgTensor, []*ir.Value{v}
	case a.AsOptionalTensor != nil:
		if a.AsOptionalTensor.AsTensor == nil {
			out.Kind = ir.ArgNone
			break
		}
		v, err := lookup(g, a.AsOptionalTensor.AsTensor.Name)
		if err != nil {
			return out, err
		}
		out.Kind, out.Values = ir.ArgTensor, []*ir.Value{v}
	case a.AsTensors != nil:
		out.Kind = ir.ArgTensors
		for _, t := range a.AsTensors {
			v, err := lookup(g, t.Name)
			if err != nil {
				return out, err
			}
			out.Values = append(out.Values, v)
		}
	case a.AsOptionalTensors != nil:
		out.Kind = ir.ArgOptionalTensors
		for _, t := range a.AsOptionalTensors {
			if t.AsTensor == nil {
				out.Values = append(out.Values, nil)
				continue
			}
			v, err := lookup(g, t.AsTensor.Name)
			if err != nil {
				return out, err
			}
			out.Values = append(out.Values, v)
		}
	case a.AsInt != nil:
		out.Kind, out.Int = ir.ArgInt, *a.AsInt
	case a.AsInts != nil:
		out.Kind, out.Ints = ir.ArgInts, a.AsInts
	case a.AsFloat != nil:
		out.Kind, out.Float = ir.ArgFloat, float64(*a.AsFloat)
	case a.AsFloats != nil:
		out.Kind, out.Floats = ir.ArgFloats, make([]float64, len(a.AsFloats))
		for i, f := range a.AsFloats {
			out.Floats[i] = float64(f)
		}
	case a.AsBool != nil:
		out.Kind, out.Bool = ir.ArgBool, *a.AsBool
	case a.AsBools != nil:
		out.Kind, out.Bools = ir.ArgBools, a.AsBools
	case a.AsString != nil:
		out.Kind, out.Str = ir.ArgString, *a.AsString
	case a.AsStrings != nil:
		out.Kind, out.Strs = ir.ArgStrings, a.AsStrings
	case a.AsScalarType != nil:
		dt, ok := serdeDTypes[*a.AsScalarType]
		if !ok {
			return out, fmt.Errorf("scalar type %d is not supported", *a.AsScalarType)
		}
		out.Kind, out.Int = ir.ArgScalarType, int64(dt)
	case a.AsMemoryFormat != nil:
		out.Kind, out.Int = ir.ArgMemoryFormat, int64(*a.AsMemoryFormat)
	case a.AsLayout != nil:
		out.Kind, out.Int = ir.ArgLayout, int64(*a.AsLayout)
	case a.AsDevice != nil:
		var d struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(a.AsDevice, &d); err != nil || d.Type != "cpu" {
			return out, fmt.Errorf("device %s is not cpu", a.AsDevice)
		}
		out.Kind, out.Str = ir.ArgDevice, "cpu"
	case a.AsSymInt != nil:
		if a.AsSymInt.AsInt != nil {
			out.Kind, out.Int = ir.ArgInt, *a.AsSymInt.AsInt
			break
		}
		if a.AsSymInt.AsName == nil {
			return out, fmt.Errorf("empty symbolic int")
		}
		v, err := lookup(g, *a.AsSymInt.AsName)
		if err != nil {
			return out, err
		}
		out.Kind, out.Values = ir.ArgSymInt, []*ir.Value{v}
	case a.AsSymInts != nil:
		out.Kind = ir.ArgSymInts
		for _, s := range a.AsSymInts {
			switch {
			case s.AsInt != nil:
				out.Ints, out.Values = append(out.Ints, *s.AsInt), append(out.Values, nil)
			case s.AsName != nil:
				v, err := lookup(g, *s.AsName)
				if err != nil {
					return out, err
				}
				out.Ints, out.Values = append(out.Ints, 0), append(out.Values, v)
			default:
				return out, fmt.Errorf("empty symbolic int in a list")
			}
		}
	case a.AsGraph != nil:
		return out, fmt.Errorf("control flow (a subgraph argument) is not supported yet")
	case a.AsCustomObj != nil:
		return out, fmt.Errorf("custom (TorchBind) objects are not supported")
	case a.AsSymBool != nil, a.AsSymFloat != nil:
		// As for symbolic ints, ArgSymInt refers to the symbolic value; the value's kind says
		// whether it is a bool or a float.
		s, kind := a.AsSymBool, ir.SymBoolValue
		if s == nil {
			s, kind = a.AsSymFloat, ir.SymFloatValue
		}
		switch {
		case s.AsBool != nil && kind == ir.SymBoolValue:
			out.Kind, out.Bool = ir.ArgBool, *s.AsBool
		case s.AsFlt != nil && kind == ir.SymFloatValue:
			out.Kind, out.Float = ir.ArgFloat, float64(*s.AsFlt)
		case s.AsName != nil:
			v, err := lookup(g, *s.AsName)
			if err != nil {
				return out, err
			}
			if v.Kind != kind {
				return out, fmt.Errorf("value %q is not a symbolic number of the declared kind", *s.AsName)
			}
			out.Kind, out.Values = ir.ArgSymInt, []*ir.Value{v}
		default:
			return out, fmt.Errorf("empty symbolic number")
		}
	case a.AsOperator != nil, a.AsComplex != nil:
		return out, fmt.Errorf("this argument kind is not supported")
	default:
		return out, fmt.Errorf("an argument of an unknown kind")
	}
	return out, nil
}

func buildSignature(g *ir.Graph, s *signature) error {
	for i, spec := range s.InputSpecs {
		var in ir.InputSpec
		name := ""
		switch {
		case spec.UserInput != nil:
			in.Kind = ir.UserInput
			switch {
			case spec.UserInput.Arg.AsTensor != nil:
				name = spec.UserInput.Arg.AsTensor.Name
			case spec.UserInput.Arg.AsSymInt != nil && spec.UserInput.Arg.AsSymInt.AsName != nil:
				name = *spec.UserInput.Arg.AsSymInt.AsName
			default:
				return invalid("signature input %d: a user input that is not a tensor or symbolic int", i)
			}
		case spec.Parameter != nil:
			in.Kind, in.Target, name = ir.Parameter, spec.Parameter.ParameterName, spec.Parameter.Arg.Name
		case spec.Buffer != nil:
			in.Kind, in.Target, in.Persistent, name = ir.Buffer, spec.Buffer.BufferName, spec.Buffer.Persistent, spec.Buffer.Arg.Name
		case spec.TensorConstant != nil:
			in.Kind, in.Target, name = ir.TensorConstant, spec.TensorConstant.TensorConstantName, spec.TensorConstant.Arg.Name
		case spec.ConstantInput != nil:
			g.Inputs = append(g.Inputs, ir.InputSpec{Kind: ir.ConstantInput, Target: spec.ConstantInput.Name})
			continue
		case spec.CustomObj != nil:
			return invalid("signature input %d: custom (TorchBind) objects are not supported", i)
		case spec.Token != nil:
			return invalid("signature input %d: effect tokens are not supported", i)
		default:
			return invalid("signature input %d: unknown kind", i)
		}
		v, err := lookup(g, name)
		if err != nil {
			return invalid("signature input %d: %v", i, err)
		}
		in.Value = v
		g.Inputs = append(g.Inputs, in)
	}
	for i, spec := range s.OutputSpecs {
		var out ir.OutputSpec
		name := ""
		switch {
		case spec.UserOutput != nil:
			out.Kind = ir.UserOutput
			switch a := spec.UserOutput.Arg; {
			case a.AsTensor != nil:
				name = a.AsTensor.Name
			case a.AsSymInt != nil && a.AsSymInt.AsName != nil:
				name = *a.AsSymInt.AsName
			case a.AsNone != nil:
				g.Outputs = append(g.Outputs, out) // a None output
				continue
			default:
				return invalid("signature output %d: a user output of an unsupported kind", i)
			}
		case spec.BufferMutation != nil:
			out.Kind, out.Target, name = ir.BufferMutation, spec.BufferMutation.BufferName, spec.BufferMutation.Arg.Name
		case spec.UserInputMutation != nil:
			out.Kind, out.Target, name = ir.UserInputMutation, spec.UserInputMutation.UserInputName, spec.UserInputMutation.Arg.Name
		default:
			return invalid("signature output %d: training outputs (loss, gradients), tokens and parameter mutations are not supported", i)
		}
		v, err := lookup(g, name)
		if err != nil {
			return invalid("signature output %d: %v", i, err)
		}
		out.Value = v
		g.Outputs = append(g.Outputs, out)
	}
	return nil
}
