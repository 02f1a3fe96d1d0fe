package htmlreport

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"

	"github.com/etgo/etgo/devtools/coverage"
	"github.com/etgo/etgo/devtools/etdump"
	"github.com/etgo/etgo/devtools/inspect"
	"github.com/etgo/etgo/internal/human"
	"github.com/etgo/etgo/pte"
)

// ProgramReport is one method of a .pte drawn as the runtime executes it: its instructions, the
// tensors between them, each delegate's blob as its backend describes it and, given an ETDump
// of runs of the method (etgo's or the official runtime's), where the time goes.
type ProgramReport struct {
	Title  string
	File   *pte.File
	Method string
	// Describe holds, by backend id, the describers of the backends that can read their blobs
	// (backends.Registry.BlobDescribers).
	Describe map[string]inspect.Describer
	// Profile, when set, is an ETDump of runs of this method.
	Profile *etdump.ETDump
}

type timeRow struct {
	Instruction string
	Kind, Name  string
	MeanUS      string
	Share       string
	Bar         float64
}

type delegateRow struct {
	Index           int
	Backend, Colour string
	Size            string
	Graph           string // "12 nodes (5 Conv2d, …)" or why it could not be read
	Nodes           []timeRow
}

// backendRow is one backend's share of the method (inspect's by-backend table), or the
// portable kernels'.
type backendRow struct {
	Backend, Colour       string
	Delegates, Calls      string
	BlobBytes, Operations string
	CallShare             string
	CallBar               float64
}

type programPage struct {
	Title, Summary string
	Backends       []backendRow
	Times          []timeRow
	PerRun         string
	Delegates      []delegateRow
	SVG            template.HTML
}

// instrTime is an instruction's time over the profile's Execute blocks.
type instrTime struct {
	total float64 // µs
	runs  int
}

// WriteProgram renders the report as one HTML page.
func WriteProgram(w io.Writer, r ProgramReport) error {
	if r.File == nil {
		return fmt.Errorf("htmlreport: no program")
	}
	plan, err := r.File.Method(r.Method)
	if err != nil {
		return err
	}
	type at struct{ chain, instr int }
	times := map[at]*instrTime{}
	nodeTimes := map[at]map[string]float64{} // delegate call -> operator name -> µs
	runs := 0
	var perRun float64
	if r.Profile != nil {
		for _, run := range r.Profile.Runs {
			if run.Name != "Execute" {
				continue
			}
			runs++
			for _, e := range run.Events {
				p := e.Profile
				if p == nil || p.EndTime < p.StartTime {
					continue
				}
				us := float64(p.EndTime-p.StartTime) / 1e3
				k := at{int(p.ChainIndex), int(p.InstructionID)}
				switch {
				case p.Name == "Method::execute":
					perRun += us
				case p.Name == "OPERATOR_CALL" || p.Name == "DELEGATE_CALL":
					if times[k] == nil {
						times[k] = &instrTime{}
					}
					times[k].total += us
					times[k].runs++
				case p.Name == "" && p.DelegateDebugIDStr != "":
					if nodeTimes[k] == nil {
						nodeTimes[k] = map[string]float64{}
					}
					name := p.DelegateDebugIDStr
					if i := strings.LastIndex(name, " #"); i > 0 {
						name = name[:i] // every instance of an operator together
					}
					nodeTimes[k][name] += us
				}
			}
		}
	}
	if runs > 0 {
		perRun /= float64(runs)
	}

	d := &drawing{}
	producer := map[int32]int{}
	isInput := map[int32]bool{}
	for _, i := range plan.Inputs {
		isInput[i] = true
		d.nodes = append(d.nodes, node{name: fmt.Sprintf("input %d", len(d.nodes)), label: fmt.Sprintf("input (value %d)", i),
			title: "method input, value " + fmt.Sprint(i) + " " + valueMeta(plan, i), kind: "input", region: -1})
		producer[i] = len(d.nodes) - 1
	}
	p := programPage{Title: r.Title}
	kernels, delegates := 0, 0
	var total float64
	for _, t := range times {
		total += t.total
	}
	for c, chain := range plan.Chains {
		for pc, in := range chain.Instructions {
			var args []int32
			nd := node{region: -1}
			kind, name := "", ""
			switch x := in.(type) {
			case pte.KernelCall:
				kernels++
				args = x.Args
				name = plan.Operators[x.OpIndex].KernelName()
				kind = "kernel"
				nd.kind, nd.label = "fallback", strings.TrimPrefix(name, "aten::")
			case pte.DelegateCall:
				delegates++
				args = x.Args
				name = fmt.Sprintf("%s (delegate %d)", plan.Delegates[x.DelegateIndex].ID, x.DelegateIndex)
				kind = "delegate"
				nd.kind, nd.region, nd.label = "delegated", int(x.DelegateIndex), fmt.Sprintf("delegate %d", x.DelegateIndex)
			default:
				continue
			}
			nd.name = fmt.Sprintf("instruction %d:%d", c, pc)
			nd.title = fmt.Sprintf("chain %d instruction %d: %s", c, pc, name)
			if t := times[at{c, pc}]; t != nil {
				mean := t.total / float64(t.runs)
				nd.title += fmt.Sprintf("\n%.1f µs per run", mean)
				nd.label += fmt.Sprintf(" · %.0fµs", mean)
				p.Times = append(p.Times, timeRow{Instruction: fmt.Sprintf("%d:%d", c, pc), Kind: kind, Name: name,
					MeanUS: fmt.Sprintf("%.1f", mean), Share: human.Percent(int64(t.total*1e3), int64(total*1e3)), Bar: share(int64(t.total*1e3), int64(total*1e3))})
			}
			if len(nd.label) > 24 {
				nd.label = nd.label[:23] + "…"
			}
			d.nodes = append(d.nodes, nd)
			me := len(d.nodes) - 1
			// A tensor already produced is read here; the first instruction to name a planned
			// tensor is the one that writes it (kernels take their out tensors as arguments).
			for _, a := range args {
				if a < 0 || int(a) >= len(plan.Values) {
					continue
				}
				if _, ok := plan.Values[a].(*pte.Tensor); !ok {
					continue
				}
				if from, ok := producer[a]; ok {
					if from != me {
						d.edges = append(d.edges, edge{from: from, to: me, name: fmt.Sprintf("value %d", a), meta: valueMeta(plan, a),
							bytes: valueBytes(plan, a), boundary: d.nodes[from].region != nd.region})
					}
					continue
				}
				if t := plan.Values[a].(*pte.Tensor); t.AllocationInfo != nil && !isInput[a] {
					producer[a] = me
				}
			}
		}
	}
	for _, o := range plan.Outputs {
		from, ok := producer[o]
		if !ok {
			continue
		}
		d.nodes = append(d.nodes, node{name: fmt.Sprintf("output value %d", o), label: "output", title: "method output, value " + fmt.Sprint(o) + " " + valueMeta(plan, o), kind: "output", region: -1})
		d.edges = append(d.edges, edge{from: from, to: len(d.nodes) - 1, name: fmt.Sprintf("value %d", o), meta: valueMeta(plan, o),
			bytes: valueBytes(plan, o), boundary: d.nodes[from].region >= 0})
	}
	summary := inspect.SummarizeMethod(r.File, plan, r.Describe)
	ids := make([]string, len(summary.Backends))
	for i, b := range summary.Backends {
		ids[i] = b.BackendID
	}
	colour := coverage.Colours(ids, palette)
	calls := summary.Portable.KernelCalls
	for _, b := range summary.Backends {
		calls += b.Calls
	}
	for _, b := range summary.Backends {
		ops := "?"
		if b.Nodes != nil {
			ops = fmt.Sprint(*b.Nodes)
		}
		p.Backends = append(p.Backends, backendRow{Backend: b.BackendID, Colour: colour[b.BackendID], Delegates: fmt.Sprint(b.Delegates),
			Calls: fmt.Sprint(b.Calls), BlobBytes: human.Bytes(int64(b.BlobBytes)), Operations: ops,
			CallShare: human.Percent(int64(b.Calls), int64(calls)), CallBar: share(int64(b.Calls), int64(calls))})
	}
	if len(p.Backends) > 0 {
		k := summary.Portable.KernelCalls
		p.Backends = append(p.Backends, backendRow{Backend: "portable kernels", Delegates: "-", Calls: fmt.Sprint(k), BlobBytes: "-",
			Operations: fmt.Sprintf("%d operators", summary.Portable.Operators),
			CallShare:  human.Percent(int64(k), int64(calls)), CallBar: share(int64(k), int64(calls))})
	}
	for i := range d.nodes {
		if n := &d.nodes[i]; n.kind == "delegated" && n.region < len(plan.Delegates) {
			n.fill = colour[plan.Delegates[n.region].ID]
		}
	}
	d.layout()
	p.SVG = template.HTML(d.svg())
	sort.SliceStable(p.Times, func(i, j int) bool { return p.Times[i].Bar > p.Times[j].Bar })
	if runs > 0 {
		p.PerRun = fmt.Sprintf("%.1f µs per run over %d runs (Method::execute)", perRun, runs)
	}
	p.Summary = fmt.Sprintf("method %s: %d kernel calls, %d delegate calls", r.Method, kernels, delegates)

	for i, del := range plan.Delegates {
		row := delegateRow{Index: i, Backend: del.ID, Colour: colour[del.ID]}
		blob, err := r.File.DelegateData(&plan.Delegates[i])
		if err == nil {
			row.Size = human.Bytes(int64(len(blob)))
			if fn := r.Describe[del.ID]; fn != nil {
				if g := inspect.SummarizeBlob(fn, blob); g.Error != "" {
					row.Graph = "unreadable: " + g.Error
				} else {
					row.Graph = fmt.Sprintf("%s (%s), %s", plural(g.Nodes, "node"), countList(g.Ops), plural(g.Values, "value"))
				}
			}
		}
		// The delegate's own events, by operator, over all its calls.
		byOp := map[string]float64{}
		var sum float64
		for k, ops := range nodeTimes {
			if dc, ok := instructionAt(plan, k.chain, k.instr).(pte.DelegateCall); ok && int(dc.DelegateIndex) == i {
				for op, us := range ops {
					byOp[op] += us
					sum += us
				}
			}
		}
		names := make([]string, 0, len(byOp))
		for op := range byOp {
			names = append(names, op)
		}
		sort.Slice(names, func(a, b int) bool { return byOp[names[a]] > byOp[names[b]] })
		for _, op := range names {
			row.Nodes = append(row.Nodes, timeRow{Name: op, MeanUS: fmt.Sprintf("%.1f", byOp[op]/float64(max(runs, 1))),
				Share: human.Percent(int64(byOp[op]*1e3), int64(sum*1e3)), Bar: share(int64(byOp[op]*1e3), int64(sum*1e3))})
		}
		p.Delegates = append(p.Delegates, row)
	}
	return programTemplate.Execute(w, p)
}

func instructionAt(plan *pte.ExecutionPlan, chain, instr int) pte.Instruction {
	if chain < 0 || chain >= len(plan.Chains) || instr < 0 || instr >= len(plan.Chains[chain].Instructions) {
		return nil
	}
	return plan.Chains[chain].Instructions[instr]
}

func valueMeta(plan *pte.ExecutionPlan, i int32) string {
	if i < 0 || int(i) >= len(plan.Values) {
		return ""
	}
	t, ok := plan.Values[i].(*pte.Tensor)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s%v", pte.DTypeName(t.ScalarType), t.Sizes)
}

func valueBytes(plan *pte.ExecutionPlan, i int32) int64 {
	t, ok := plan.Values[i].(*pte.Tensor)
	if !ok {
		return 0
	}
	size, _ := pte.ElementSize(t.ScalarType)
	n := int64(size)
	for _, s := range t.Sizes {
		n *= int64(max(s, 0))
	}
	return n
}

// plural is "1 node", "2 nodes".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
