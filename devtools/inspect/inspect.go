// Package inspect summarises a .pte file: methods and their signatures, instructions by kind,
// operators, delegates, constants, segments, and what a runtime needs to load it. Report is the
// stable JSON object behind `etgo inspect --json` (documented in docs/inspect.md).
package inspect

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/etgo/etgo/pte"
	"github.com/etgo/etgo/pte/schema"
)

// Report is everything etgo inspect prints. Field names are the JSON schema; they only grow.
type Report struct {
	File           string          `json:"file"`
	Size           int             `json:"size"`
	ExtendedHeader *ExtendedHeader `json:"extended_header"`
	Methods        []Method        `json:"methods"`
	Constants      Constants       `json:"constants"`
	MutableData    *MutableData    `json:"mutable_data"`
	Segments       []Segment       `json:"segments"`
	NamedData      []NamedData     `json:"named_data"`
	Required       Required        `json:"required"`
	// ExternalData lists tensors whose data lives in a .ptd file, by fully qualified name.
	ExternalData []string `json:"external_data"`
}

// ExtendedHeader mirrors pte.ExtendedHeader.
type ExtendedHeader struct {
	Length            uint32 `json:"length"`
	ProgramSize       uint64 `json:"program_size"`
	SegmentBaseOffset uint64 `json:"segment_base_offset"`
	SegmentDataSize   uint64 `json:"segment_data_size"`
}

// Method is one execution plan.
type Method struct {
	Name          string       `json:"name"`
	Inputs        []Value      `json:"inputs"`
	Outputs       []Value      `json:"outputs"`
	Values        int          `json:"values"`
	Instructions  Instructions `json:"instructions"`
	KernelCalls   int          `json:"kernel_calls"`
	DelegateCalls int          `json:"delegate_calls"`
	// Operators is the method's operator table as ns::op.overload.
	Operators []string   `json:"operators"`
	Delegates []Delegate `json:"delegates"`
	// PlannedBuffers are the sizes of the memory-planned buffers, memory_id 1 first.
	PlannedBuffers []int64 `json:"planned_buffers"`
	// Backends is each backend's share of the method, read from its delegates' backend ids in
	// the order the first delegate of each appears; Portable is what runs on kernels instead.
	Backends []BackendShare `json:"backends"`
	Portable PortableShare  `json:"portable"`
}

// BackendShare is one backend's part of a method.
type BackendShare struct {
	BackendID string `json:"backend_id"`
	// Name is what etgo calls the backend (etgo lower --partitioner NAME), when this binary
	// has it (Report.NameBackends).
	Name      string `json:"name,omitempty"`
	Delegates int    `json:"delegates"`
	// Calls counts the method's delegate_call instructions to this backend's delegates.
	Calls     int `json:"delegate_calls"`
	BlobBytes int `json:"blob_bytes"`
	// Nodes counts the operations inside the backend's blobs, when its describer read every one
	// of them; null otherwise.
	Nodes *int `json:"nodes"`
}

// PortableShare is the part of a method on the portable (or any registered) kernels.
type PortableShare struct {
	KernelCalls int `json:"kernel_calls"`
	// Operators counts the distinct operators the kernel calls name.
	Operators int `json:"operators"`
}

// Value describes a method input or output.
type Value struct {
	Index int    `json:"index"` // in the method's value table
	Type  string `json:"type"`  // Tensor, Int, Bool, Double, String, IntList, ...
	// Tensor values only.
	DType    string  `json:"dtype,omitempty"`
	Sizes    []int32 `json:"sizes,omitempty"`
	DimOrder []int   `json:"dim_order,omitempty"`
	// Dynamism is "static", "dynamic_bound" (sizes are upper bounds) or "dynamic_unbound".
	Dynamism string `json:"dynamism,omitempty"`
	// Scalar values only: the traced value a runtime requires.
	Scalar any `json:"value,omitempty"`
}

// Instructions counts a method's instructions by kind.
type Instructions struct {
	Total         int `json:"total"`
	KernelCalls   int `json:"kernel_call"`
	DelegateCalls int `json:"delegate_call"`
	Moves         int `json:"move_call"`
	JumpFalses    int `json:"jump_false_call"`
	Frees         int `json:"free_call"`
}

// Delegate is one delegate and where its blob is.
type Delegate struct {
	BackendID string `json:"backend_id"`
	Size      int    `json:"size"`
	// Location is "segment" or "inline"; Index is the segment or inline-data index.
	Location     string   `json:"location"`
	Index        uint32   `json:"index"`
	CompileSpecs []string `json:"compile_specs"` // keys
	// Graph is the delegated graph's summary when its backend can describe its blobs
	// (Summarize's describers).
	Graph *Graph `json:"graph,omitempty"`
}

// Graph summarises a delegate blob as its backend reads it.
type Graph struct {
	Nodes  int `json:"nodes"`
	Values int `json:"values"`
	// Ops counts nodes by type (for XNNPACK, "XNNConv2d": 3).
	Ops map[string]int `json:"ops"`
	// Error says why the blob could not be read (it is then not summarised further).
	Error string `json:"error,omitempty"`
}

// Constants describes the constant tensor data.
type Constants struct {
	// Count excludes the reserved placeholder entry.
	Count int `json:"count"`
	Bytes int `json:"bytes"`
	// Location is "segment" (constant_segment), "inline" (deprecated constant_buffer) or "none".
	Location string `json:"location"`
	Segment  *int   `json:"segment,omitempty"`
}

// MutableData describes the initial values of mutable planned tensors (buffers a method
// updates, such as a KV cache), copied into planned memory at load.
type MutableData struct {
	Count   int `json:"count"` // placeholder excluded
	Bytes   int `json:"bytes"`
	Segment int `json:"segment"`
}

// Segment is one data segment, relative to the segment base offset.
type Segment struct {
	Offset uint64 `json:"offset"`
	Size   uint64 `json:"size"`
}

// NamedData is one named-data entry.
type NamedData struct {
	Key     string `json:"key"`
	Segment uint32 `json:"segment"`
	Size    int    `json:"size"`
}

// Required is what a runtime must carry to load and run every method.
type Required struct {
	Backends  []string `json:"backends"`
	Operators []string `json:"operators"`
}

// Describer reads one backend's delegate blob back: its operations by type and its values
// (backends.Backend.DescribeBlob).
type Describer = func(blob []byte) (ops map[string]int, values int, err error)

// Summarize builds the report of a verified file; name is what File shows. describe holds, by
// backend id, the backends that can read their blobs back (backends/all's registry has them);
// other delegates are shown by size and location only.
func Summarize(f *pte.File, name string, describe map[string]Describer) *Report {
	p := f.Program
	r := &Report{
		File:         name,
		Size:         len(f.Bytes()),
		Methods:      []Method{},
		Segments:     []Segment{},
		NamedData:    []NamedData{},
		ExternalData: []string{},
		Required:     Required{Backends: f.RequiredBackends(), Operators: f.RequiredOperators()},
	}
	if h := f.Header; h != nil {
		r.ExtendedHeader = &ExtendedHeader{Length: h.Length, ProgramSize: h.ProgramSize, SegmentBaseOffset: h.SegmentBaseOffset, SegmentDataSize: h.SegmentDataSize}
	}
	for _, plan := range p.ExecutionPlans {
		r.Methods = append(r.Methods, SummarizeMethod(f, plan, describe))
		r.ExternalData = append(r.ExternalData, f.ExternalTensors()[plan.Name]...)
	}
	for _, s := range p.Segments {
		r.Segments = append(r.Segments, Segment{Offset: s.Offset, Size: s.Size})
	}
	for _, nd := range p.NamedData {
		b, _ := f.Segment(int(nd.SegmentIndex)) // validated
		r.NamedData = append(r.NamedData, NamedData{Key: nd.Key, Segment: nd.SegmentIndex, Size: len(b)})
	}
	if len(p.MutableDataSegments) > 0 {
		m := p.MutableDataSegments[0] // the runtime reads only the first
		b, _ := f.Segment(int(m.SegmentIndex))
		r.MutableData = &MutableData{Count: max(len(m.Offsets)-1, 0), Bytes: len(b), Segment: int(m.SegmentIndex)}
	}
	r.Constants = Constants{Location: "none"}
	switch {
	case p.ConstantSegment != nil && len(p.ConstantSegment.Offsets) > 1:
		seg := int(p.ConstantSegment.SegmentIndex)
		b, _ := f.Segment(seg)
		r.Constants = Constants{Count: len(p.ConstantSegment.Offsets) - 1, Bytes: len(b), Location: "segment", Segment: &seg}
	case len(p.ConstantBuffer) > 1:
		n := 0
		for _, b := range p.ConstantBuffer {
			n += len(b.Storage)
		}
		r.Constants = Constants{Count: len(p.ConstantBuffer) - 1, Bytes: n, Location: "inline"}
	}
	return r
}

// SummarizeMethod is Summarize's report of one method of f.
func SummarizeMethod(f *pte.File, plan *pte.ExecutionPlan, describe map[string]Describer) Method {
	m := Method{
		Name:           plan.Name,
		Inputs:         describeValues(plan, plan.Inputs),
		Outputs:        describeValues(plan, plan.Outputs),
		Values:         len(plan.Values),
		Operators:      []string{},
		Delegates:      []Delegate{},
		PlannedBuffers: []int64{},
		Backends:       []BackendShare{},
	}
	if len(plan.NonConstBufferSizes) > 1 {
		m.PlannedBuffers = plan.NonConstBufferSizes[1:]
	}
	for _, op := range plan.Operators {
		m.Operators = append(m.Operators, op.KernelName())
	}
	for _, d := range plan.Delegates {
		b, _ := f.DelegateData(&d) // validated
		loc := "inline"
		if d.Processed.Location == schema.DataLocationSEGMENT {
			loc = "segment"
		}
		keys := []string{}
		for _, cs := range d.CompileSpecs {
			keys = append(keys, cs.Key)
		}
		del := Delegate{BackendID: d.ID, Size: len(b), Location: loc, Index: d.Processed.Index, CompileSpecs: keys}
		if fn := describe[d.ID]; fn != nil {
			del.Graph = SummarizeBlob(fn, b)
		}
		m.Delegates = append(m.Delegates, del)
	}
	at := map[string]int{}
	for i, d := range m.Delegates {
		k, ok := at[d.BackendID]
		if !ok {
			k = len(m.Backends)
			at[d.BackendID] = k
			zero := 0
			m.Backends = append(m.Backends, BackendShare{BackendID: d.BackendID, Nodes: &zero})
		}
		b := &m.Backends[k]
		b.Delegates++
		b.BlobBytes += d.Size
		if g := m.Delegates[i].Graph; g != nil && g.Error == "" && b.Nodes != nil {
			*b.Nodes += g.Nodes
		} else {
			b.Nodes = nil
		}
	}
	ops := map[int32]bool{}
	for _, chain := range plan.Chains {
		for _, in := range chain.Instructions {
			m.Instructions.Total++
			switch x := in.(type) {
			case pte.KernelCall:
				m.Instructions.KernelCalls++
				ops[x.OpIndex] = true
			case pte.DelegateCall:
				m.Instructions.DelegateCalls++
				if int(x.DelegateIndex) < len(m.Delegates) { // validated; a bound all the same
					m.Backends[at[m.Delegates[x.DelegateIndex].BackendID]].Calls++
				}
			case pte.MoveCall:
				m.Instructions.Moves++
			case pte.JumpFalseCall:
				m.Instructions.JumpFalses++
			case pte.FreeCall:
				m.Instructions.Frees++
			}
		}
	}
	m.KernelCalls, m.DelegateCalls = m.Instructions.KernelCalls, m.Instructions.DelegateCalls
	m.Portable = PortableShare{KernelCalls: m.KernelCalls, Operators: len(ops)}
	return m
}

// NameBackends fills each backend's Name with name(backend id) (an empty name leaves it out):
// the ids are the program's, the names the binary's registry's.
func (r *Report) NameBackends(name func(id string) string) {
	for i := range r.Methods {
		for k := range r.Methods[i].Backends {
			b := &r.Methods[i].Backends[k]
			b.Name = name(b.BackendID)
		}
	}
}

// SummarizeBlob describes one delegate blob with its backend's describer; a describer that
// fails (an unreadable blob) or panics (a blob is untrusted input) leaves the error in the
// summary instead. Every tool that shows a blob goes through it.
func SummarizeBlob(describe Describer, blob []byte) (g *Graph) {
	defer func() {
		if r := recover(); r != nil {
			g = &Graph{Ops: map[string]int{}, Error: fmt.Sprintf("describing the blob panicked: %v", r)}
		}
	}()
	ops, values, err := describe(blob)
	if err != nil {
		return &Graph{Ops: map[string]int{}, Error: err.Error()}
	}
	g = &Graph{Values: values, Ops: map[string]int{}}
	for op, n := range ops {
		g.Ops[op] = n
		g.Nodes += n
	}
	return g
}

func describeValues(plan *pte.ExecutionPlan, idx []int32) []Value {
	out := []Value{}
	for _, i := range idx {
		v := Value{Index: int(i)}
		switch x := plan.Values[i].(type) {
		case *pte.Tensor:
			v.Type, v.DType, v.Sizes = "Tensor", pte.DTypeName(x.ScalarType), x.Sizes
			v.DimOrder = make([]int, len(x.DimOrder))
			for k, d := range x.DimOrder {
				v.DimOrder[k] = int(d)
			}
			v.Dynamism = strings.ToLower(x.ShapeDynamism.String())
		case pte.Int:
			v.Type, v.Scalar = "Int", x.Val
		case pte.Bool:
			v.Type, v.Scalar = "Bool", x.Val
		case pte.Double:
			v.Type, v.Scalar = "Double", x.Val
		case pte.String:
			v.Type, v.Scalar = "String", x.Val
		default:
			v.Type = strings.TrimPrefix(fmt.Sprintf("%T", x), "pte.")
		}
		out = append(out, v)
	}
	return out
}

// WriteText prints the report for people.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%s: ExecuTorch program, %d bytes", r.File, r.Size)
	if h := r.ExtendedHeader; h != nil {
		fmt.Fprintf(w, ", extended header (%d bytes): program %d bytes, segments at %d (%d bytes)\n", h.Length, h.ProgramSize, h.SegmentBaseOffset, h.SegmentDataSize)
	} else {
		fmt.Fprintln(w, ", no extended header")
	}
	fmt.Fprintf(w, "\n%d method(s)\n", len(r.Methods))
	for _, m := range r.Methods {
		fmt.Fprintf(w, "\nmethod %s: %d values, %d instructions (%s)\n", m.Name, m.Values, m.Instructions.Total, m.Instructions.summary())
		writeValues(w, "inputs", m.Inputs)
		writeValues(w, "outputs", m.Outputs)
		if len(m.Operators) > 0 {
			fmt.Fprintf(w, "  operators (%d):\n", len(m.Operators))
			for i, op := range m.Operators {
				fmt.Fprintf(w, "    %3d  %s\n", i, op)
			}
		}
		if len(m.Delegates) > 0 {
			fmt.Fprintf(w, "  delegates (%d):\n", len(m.Delegates))
			for i, d := range m.Delegates {
				fmt.Fprintf(w, "    %3d  %s: %d bytes, %s %d, compile specs %s\n", i, d.BackendID, d.Size, d.Location, d.Index, keys(d.CompileSpecs))
				if x := d.Graph; x != nil {
					if x.Error != "" {
						fmt.Fprintf(w, "         unreadable blob: %s\n", x.Error)
					} else {
						fmt.Fprintf(w, "         graph: %d nodes (%s), %d values\n", x.Nodes, opCounts(x.Ops), x.Values)
					}
				}
			}
		}
		if len(m.Backends) > 0 {
			m.writeBackends(w)
		}
		fmt.Fprintf(w, "  planned memory: %s bytes\n", ints(m.PlannedBuffers))
	}
	c := r.Constants
	switch c.Location {
	case "none":
		fmt.Fprintf(w, "\nconstants: none\n")
	case "segment":
		fmt.Fprintf(w, "\nconstants: %d tensors, %d bytes in segment %d\n", c.Count, c.Bytes, *c.Segment)
	default:
		fmt.Fprintf(w, "\nconstants: %d tensors, %d bytes inline (deprecated constant_buffer)\n", c.Count, c.Bytes)
	}
	if m := r.MutableData; m != nil {
		fmt.Fprintf(w, "mutable data: %d tensors, %d bytes in segment %d\n", m.Count, m.Bytes, m.Segment)
	}
	var total uint64
	for _, s := range r.Segments {
		total += s.Size
	}
	fmt.Fprintf(w, "segments: %d, %d bytes\n", len(r.Segments), total)
	for i, s := range r.Segments {
		fmt.Fprintf(w, "  %3d  offset %d, %d bytes\n", i, s.Offset, s.Size)
	}
	if len(r.NamedData) > 0 {
		n := 0
		for _, nd := range r.NamedData {
			n += nd.Size
		}
		fmt.Fprintf(w, "named data: %d keys, %d bytes\n", len(r.NamedData), n)
	}
	if len(r.ExternalData) > 0 {
		fmt.Fprintf(w, "external data (.ptd): %s\n", strings.Join(r.ExternalData, ", "))
	}
	fmt.Fprintf(w, "\nrequires backends:  %s\n", list(r.Required.Backends))
	fmt.Fprintf(w, "requires operators: %s\n", list(r.Required.Operators))
}

// writeBackends prints the by-backend table: each backend's delegates, calls, blob bytes and
// the operations inside its blobs, and the portable kernel calls, with each row's share of the
// method's calls (delegate and kernel) and, when every blob could be read, of its operations
// (the operations inside the delegates and the kernel calls).
func (m Method) writeBackends(w io.Writer) {
	calls, nodes, known := m.Portable.KernelCalls, m.Portable.KernelCalls, true
	for _, b := range m.Backends {
		calls += b.Calls
		if b.Nodes == nil {
			known = false
		} else {
			nodes += *b.Nodes
		}
	}
	fmt.Fprintf(w, "  by backend:\n    %-24s %9s %6s %11s %10s %9s %11s\n", "backend", "delegates", "calls", "blob bytes", "operations", "of calls", "of ops")
	share := func(n, of int, ok bool) string {
		if !ok {
			return "-"
		}
		return percent(n, of)
	}
	for _, b := range m.Backends {
		name, ops := b.BackendID, "?"
		if b.Name != "" {
			name += " (" + b.Name + ")"
		}
		if b.Nodes != nil {
			ops = fmt.Sprint(*b.Nodes)
		}
		fmt.Fprintf(w, "    %-24s %9d %6d %11d %10s %9s %11s\n", name, b.Delegates, b.Calls, b.BlobBytes, ops,
			share(b.Calls, calls, true), share(derefOr(b.Nodes, 0), nodes, known))
	}
	p := m.Portable
	fmt.Fprintf(w, "    %-24s %9s %6d %11s %10d %9s %11s\n", "portable kernels", "-", p.KernelCalls, "-", p.KernelCalls,
		share(p.KernelCalls, calls, true), share(p.KernelCalls, nodes, known))
}

func derefOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// percent is n of whole as "42.9%" (three significant digits), "0%" of nothing.
func percent(n, whole int) string {
	if whole == 0 {
		return "0%"
	}
	return fmt.Sprintf("%.3g%%", 100*float64(n)/float64(whole))
}

func (in Instructions) summary() string {
	var parts []string
	for _, c := range []struct {
		n    int
		name string
	}{{in.KernelCalls, "kernel"}, {in.DelegateCalls, "delegate"}, {in.Moves, "move"}, {in.JumpFalses, "jump_false"}, {in.Frees, "free"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.name))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func writeValues(w io.Writer, what string, vs []Value) {
	if len(vs) == 0 {
		fmt.Fprintf(w, "  %s: none\n", what)
		return
	}
	fmt.Fprintf(w, "  %s:\n", what)
	for i, v := range vs {
		switch {
		case v.Type == "Tensor":
			fmt.Fprintf(w, "    %d  %s%s dim_order %s %s (value %d)\n", i, v.DType, ints(v.Sizes), ints(v.DimOrder), v.Dynamism, v.Index)
		case v.Scalar != nil:
			fmt.Fprintf(w, "    %d  %s %v (value %d)\n", i, v.Type, v.Scalar, v.Index)
		default:
			fmt.Fprintf(w, "    %d  %s (value %d)\n", i, v.Type, v.Index)
		}
	}
}

func ints[T int | int32 | int64](v []T) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(s, ",") + "]"
}

// opCounts renders {"XNNConv2d": 3, "XNNAdd": 1} as "3 XNNConv2d, 1 XNNAdd", most frequent first.
func opCounts(ops map[string]int) string {
	names := make([]string, 0, len(ops))
	for n := range ops {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if ops[names[i]] != ops[names[j]] {
			return ops[names[i]] > ops[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%d %s", ops[n], strings.TrimPrefix(n, "XNN"))
	}
	return strings.Join(parts, ", ")
}

func keys(k []string) string {
	if len(k) == 0 {
		return "none"
	}
	return strings.Join(k, ", ")
}

func list(v []string) string {
	if len(v) == 0 {
		return "none"
	}
	return strings.Join(v, ", ")
}
