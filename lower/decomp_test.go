package lower_test

import (
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	xnnaot "github.com/etgo/etgo/backends/xnnpack/aot"
	"github.com/etgo/etgo/frontend/pt2"
	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/passes"
)

var (
	updateDecomp = flag.Bool("update-decomp", false, "rewrite testdata/decomp/report.json from this run")
	decompCaseRE = flag.String("decomp-case", "", "only the oracle cases whose name or exported operators match this regexp; print every difference, do not check the report")
)

// The decomposition oracle (tools/reference/generate_decomp_cases.py): per case, the exported
// program and the official Edge graph, without a partitioner and as the XNNPACK partitioner is
// handed it. Graphs are canonical: inputs in signature order, nodes in order with every schema
// argument, tensors as references (i<k>: graph input k, n<i>.<j>: output j of node i).
type decompCases struct {
	Torch string       `json:"torch"`
	Cases []decompCase `json:"cases"`
}

type decompCase struct {
	Name             string      `json:"name"`
	ExportedOps      []string    `json:"exported_ops"`
	PT2              string      `json:"pt2"`
	Edge             *canonGraph `json:"edge"`
	EdgeError        string      `json:"edge_error"`
	EdgeXnnpack      *canonGraph `json:"edge_xnnpack"`
	EdgeXnnpackError string      `json:"edge_xnnpack_error"`
	// EdgeXnnpackSame: the partitioner keeps none of the graph's operators, so it is handed
	// to_edge's graph.
	EdgeXnnpackSame bool `json:"edge_xnnpack_same"`
}

type canonGraph struct {
	Inputs  []canonInput           `json:"inputs"`
	Nodes   []canonNode            `json:"nodes"`
	Outputs []json.RawMessage      `json:"outputs"`
	Schemas map[string][]schemaArg `json:"schemas"`
}

type canonInput struct {
	Kind  string            `json:"kind"`
	DType string            `json:"dtype"`
	Shape []json.RawMessage `json:"shape"`
	Value []json.RawMessage `json:"value"`
}

type canonNode struct {
	Target string              `json:"target"`
	Args   [][]json.RawMessage `json:"args"`
	Val    json.RawMessage     `json:"val"`
}

type schemaArg struct {
	Name    string          `json:"name"`
	Default json.RawMessage `json:"default"`
	Has     bool            `json:"has_default"`
}

// decompOps is ops.json: the decomposition table's operators and whether export emits them.
type decompOps struct {
	Torch     string `json:"torch"`
	TableSize int    `json:"table_size"`
	Ops       []struct {
		Op         string `json:"op"`
		Cases      int    `json:"cases"`
		Exportable bool   `json:"exportable"`
		Why        string `json:"why"`
	} `json:"ops"`
}

// decompReport is testdata/decomp/report.json.
type decompReport struct {
	Torch      string         `json:"torch"`
	TableSize  int            `json:"table_size"`
	Exportable int            `json:"exportable"`
	EdgeEqual  int            `json:"edge_equal"`
	Cases      int            `json:"cases"`
	CasesEqual int            `json:"cases_equal"`
	Ops        []decompOpRow  `json:"ops"`
	Failing    map[string]int `json:"failing_cases_by_first_difference,omitempty"`
}

type decompOpRow struct {
	Op         string `json:"op"`
	Exportable bool   `json:"exportable"`
	Cases      int    `json:"cases"`
	EdgeEqual  bool   `json:"edge_equal"`
	Note       string `json:"note"`
}

// TestDecompositionOracle lowers every oracle case to Edge with etgo, without a partitioner and
// with XNNPACK's ops_to_not_decompose, and compares the graphs node for node with the official
// ones. report.json records, per operator of the table, whether every case calling it matched;
// the test fails when the report and this run disagree (run with -update-decomp after a change
// and commit the report).
func TestDecompositionOracle(t *testing.T) {
	dir := filepath.Join("..", "testdata", "decomp")
	var cases decompCases
	readJSON(t, filepath.Join(dir, "expected.json"), &cases)
	var ops decompOps
	readJSON(t, filepath.Join(dir, "ops.json"), &ops)

	// Every schema the oracle saw, so that arguments etgo leaves out compare as their defaults.
	schemas := map[string][]schemaArg{}
	for _, c := range cases.Cases {
		for _, g := range []*canonGraph{c.Edge, c.EdgeXnnpack} {
			if g != nil {
				maps.Copy(schemas, g.Schemas)
			}
		}
	}
	failures := map[string]string{} // case → first difference
	firstDiff := map[string]int{}
	var only *regexp.Regexp
	if *decompCaseRE != "" {
		only = regexp.MustCompile(*decompCaseRE)
	}
	for _, c := range cases.Cases {
		if only != nil && !only.MatchString(c.Name) && !slices.ContainsFunc(c.ExportedOps, only.MatchString) {
			continue
		}
		if c.EdgeXnnpackSame {
			c.EdgeXnnpack, c.EdgeXnnpackError = c.Edge, c.EdgeError
		}
		for _, variant := range []struct {
			name  string
			want  *canonGraph
			err   string
			xnnpk bool
		}{{"edge", c.Edge, c.EdgeError, false}, {"xnnpack", c.EdgeXnnpack, c.EdgeXnnpackError, true}} {
			diff, got, want := decompDiff(filepath.Join(dir, "cases", c.PT2), variant.want, variant.err, variant.xnnpk, schemas)
			if diff != "" {
				if only != nil {
					t.Errorf("%s (%s, exports %v): %s\netgo:\n  %s\nofficial:\n  %s", c.Name, variant.name, c.ExportedOps, diff,
						strings.Join(got, "\n  "), strings.Join(want, "\n  "))
				}
				if _, seen := failures[c.Name]; !seen {
					failures[c.Name] = variant.name + ": " + diff
					firstDiff[firstWord(diff)]++
				}
			}
		}
	}

	if only != nil {
		return
	}
	report := decompReport{Torch: cases.Torch, TableSize: ops.TableSize, Cases: len(cases.Cases), Failing: firstDiff}
	report.CasesEqual = len(cases.Cases) - len(failures)
	byOp := map[string][]string{}
	for _, c := range cases.Cases {
		for _, op := range c.ExportedOps {
			byOp[op] = append(byOp[op], c.Name)
		}
	}
	for _, o := range ops.Ops {
		row := decompOpRow{Op: o.Op, Exportable: o.Exportable, Cases: o.Cases, Note: o.Why}
		if o.Exportable {
			report.Exportable++
			row.EdgeEqual = true
			for _, name := range byOp[o.Op] {
				if f, bad := failures[name]; bad {
					row.EdgeEqual = false
					row.Note = name + ": " + truncate(f, 240)
					break
				}
			}
			if row.EdgeEqual {
				report.EdgeEqual++
			}
		}
		report.Ops = append(report.Ops, row)
	}
	got, err := json.MarshalIndent(report, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join(dir, "report.json")
	if *updateDecomp {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-decomp)", err)
	}
	if string(want) != string(got) {
		var old decompReport
		_ = json.Unmarshal(want, &old)
		oldEqual := map[string]bool{}
		for _, r := range old.Ops {
			oldEqual[r.Op] = r.EdgeEqual
		}
		var regressed, improved []string
		for _, r := range report.Ops {
			if oldEqual[r.Op] && !r.EdgeEqual {
				regressed = append(regressed, r.Op+" ("+r.Note+")")
			}
			if !oldEqual[r.Op] && r.EdgeEqual {
				improved = append(improved, r.Op)
			}
		}
		t.Errorf("testdata/decomp/report.json is out of date (%d of %d exportable ops equal now, %d in the report; %d of %d cases equal):\nregressed: %s\nnow equal: %s\nrerun with -update-decomp",
			report.EdgeEqual, report.Exportable, old.EdgeEqual, report.CasesEqual, report.Cases,
			strings.Join(regressed, "\n  "), strings.Join(improved, ", "))
	}
	t.Logf("%d of %d exportable ops (of %d in the table) edge-equal; %d of %d cases", report.EdgeEqual, report.Exportable, report.TableSize, report.CasesEqual, report.Cases)
}

// decompDiff lowers one case with etgo and returns the first difference from want ("" when
// equal). When the official conversion failed (wantErr), etgo must refuse too.
func decompDiff(path string, want *canonGraph, wantErr string, withXnnpack bool, schemas map[string][]schemaArg) (diff string, got, exp []string) {
	defer func() {
		if r := recover(); r != nil {
			diff = fmt.Sprintf("panic: %v", r)
		}
	}()
	prog, err := pt2.Open(path)
	if err != nil {
		return "read: " + err.Error(), nil, nil
	}
	var preserve []passes.Preserve
	if withXnnpack {
		ops, keep := (&xnnaot.Partitioner{}).OpsToNotDecompose()
		preserve = []passes.Preserve{{Ops: ops, Keep: keep}}
	}
	_, err = passes.ToEdge(prog.Graph, preserve)
	if want != nil {
		exp = renderCanon(want)
	}
	switch {
	case want == nil && err != nil:
		return "", nil, nil
	case want == nil:
		return "official conversion fails (" + wantErr + "), etgo's succeeds", renderIR(prog.Graph, schemas), nil
	case err != nil:
		return "refused: " + err.Error(), nil, exp
	}
	got = renderIR(prog.Graph, schemas)
	for i := 0; i < max(len(got), len(exp)); i++ {
		g, e := "(none)", "(none)"
		if i < len(got) {
			g = got[i]
		}
		if i < len(exp) {
			e = exp[i]
		}
		if g != e {
			return fmt.Sprintf("line %d: etgo %q, official %q", i, g, e), got, exp
		}
	}
	return "", got, exp
}

// renderCanon writes the official graph as lines: inputs, nodes, outputs.
func renderCanon(g *canonGraph) []string {
	var lines []string
	us := unbackedNames{}
	for i, in := range g.Inputs {
		lines = append(lines, fmt.Sprintf("i%d: %s %s%s", i, in.Kind, canonMeta(in.DType, in.Shape, us), canonValues(in.Value)))
	}
	// Results nobody reads are "_", as etgo's IR keeps them: collect the references first.
	read := map[string]bool{}
	var collect func(raw json.RawMessage)
	collect = func(raw json.RawMessage) {
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return
		}
		if r, ok := m["ref"]; ok {
			var s string
			_ = json.Unmarshal(r, &s)
			read[s] = true
		}
		var items []json.RawMessage
		if l, ok := m["list"]; ok && json.Unmarshal(l, &items) == nil {
			for _, it := range items {
				collect(it)
			}
		}
	}
	for _, n := range g.Nodes {
		for _, a := range n.Args {
			collect(a[1])
		}
	}
	for _, o := range g.Outputs {
		collect(o)
	}
	for i, n := range g.Nodes {
		var args []string
		for _, a := range n.Args {
			var name string
			_ = json.Unmarshal(a[0], &name)
			args = append(args, name+"="+canonValue(a[1]))
		}
		lines = append(lines, fmt.Sprintf("n%d = %s(%s) -> %s", i, n.Target, strings.Join(args, ", "), canonResults(n.Val, i, read, us)))
	}
	var outs []string
	for _, o := range g.Outputs {
		outs = append(outs, canonValue(o))
	}
	return append(lines, "return "+strings.Join(outs, ", "))
}

func canonMeta(dtype string, shape []json.RawMessage, us unbackedNames) string {
	dims := make([]string, len(shape))
	for i, d := range shape {
		var s string
		if json.Unmarshal(d, &s) == nil {
			dims[i] = us.canon(s)
		} else {
			dims[i] = string(d)
		}
	}
	return dtype + "[" + strings.Join(dims, ",") + "]"
}

func canonValues(vs []json.RawMessage) string {
	if vs == nil {
		return ""
	}
	items := make([]string, len(vs))
	for i, v := range vs {
		items[i] = canonValue(v)
	}
	return " = [" + strings.Join(items, ", ") + "]"
}

// canonValue renders one encoded argument (see enc in the generator).
func canonValue(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return "None"
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return "?" + string(raw)
	}
	for k, v := range m {
		switch k {
		case "ref":
			var s string
			_ = json.Unmarshal(v, &s)
			return s
		case "b":
			var b bool
			_ = json.Unmarshal(v, &b)
			return renderBool(b)
		case "i":
			return string(v)
		case "f":
			var f float64
			if json.Unmarshal(v, &f) != nil {
				var s string
				_ = json.Unmarshal(v, &s)
				f, _ = strconv.ParseFloat(s, 64)
			}
			return renderFloat(f)
		case "dtype", "memory_format", "layout", "device", "s", "sym":
			var s string
			_ = json.Unmarshal(v, &s)
			return k + ":" + s
		case "list":
			var items []json.RawMessage
			_ = json.Unmarshal(v, &items)
			out := make([]string, len(items))
			for i, it := range items {
				out[i] = canonValue(it)
			}
			return "[" + strings.Join(out, ", ") + "]"
		}
	}
	return "?" + string(raw)
}

// canonResults renders a node's results: a list with the entries nobody reads as "_".
func canonResults(raw json.RawMessage, node int, read map[string]bool, us unbackedNames) string {
	var m struct {
		List []json.RawMessage `json:"list"`
	}
	if json.Unmarshal(raw, &m) != nil || m.List == nil {
		return canonVal(raw, us)
	}
	items := make([]string, len(m.List))
	for j, it := range m.List {
		items[j] = "_"
		if read[fmt.Sprintf("n%d.%d", node, j)] {
			items[j] = canonVal(it, us)
		}
	}
	return "(" + strings.Join(items, ", ") + ")"
}

// canonVal renders a node's meta["val"].
func canonVal(raw json.RawMessage, us unbackedNames) string {
	if len(raw) == 0 || string(raw) == "null" {
		return "None"
	}
	var m struct {
		DType string            `json:"dtype"`
		Shape []json.RawMessage `json:"shape"`
		List  []json.RawMessage `json:"list"`
		Sym   *string           `json:"symint"`
		Bool  *string           `json:"symbool"`
		Float *string           `json:"symfloat"`
	}
	_ = json.Unmarshal(raw, &m)
	switch {
	case m.Sym != nil:
		return "symint"
	case m.Bool != nil:
		return "symbool"
	case m.Float != nil:
		return "symfloat"
	case m.List != nil || m.DType == "":
		items := make([]string, len(m.List))
		for i, it := range m.List {
			items[i] = canonVal(it, us)
		}
		return "(" + strings.Join(items, ", ") + ")"
	}
	return canonMeta(m.DType, m.Shape, us)
}

// unbackedNames renames the unbacked symbols of one graph's sizes (u0, u3, …) in the order
// they first appear: torch numbers them by how many fake-tensor traces ran (to_edge retraces
// and allocates new ones; the exported program's assertion messages keep the old), so only
// which sizes share a symbol is compared, as node names are not. Strings are left alone.
type unbackedNames map[string]string

var unbackedSym = regexp.MustCompile(`\bu[0-9]+\b`)

func (us unbackedNames) canon(dim string) string {
	return unbackedSym.ReplaceAllStringFunc(dim, func(u string) string {
		if c, ok := us[u]; ok {
			return c
		}
		c := fmt.Sprintf("u#%d", len(us))
		us[u] = c
		return c
	})
}

func renderBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func renderFloat(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eIN") {
		s += ".0"
	}
	return "f" + s
}

// renderIR writes etgo's graph in the same form. Schemas come from the oracle so that
// arguments etgo leaves out are compared as their defaults.
func renderIR(g *ir.Graph, schemas map[string][]schemaArg) []string {
	refs := map[*ir.Value]string{}
	us := unbackedNames{}
	var lines []string
	for i, in := range g.Inputs {
		if in.Value == nil {
			lines = append(lines, fmt.Sprintf("i%d: constant input", i))
			continue
		}
		refs[in.Value] = fmt.Sprintf("i%d", i)
		kind := map[ir.InputKind]string{ir.UserInput: "user_input", ir.Parameter: "parameter", ir.Buffer: "buffer",
			ir.TensorConstant: "constant_tensor"}[in.Kind]
		vals := ""
		if c := g.Constants[in.Target]; c != nil && in.Kind != ir.UserInput {
			vals = constantValues(c)
		}
		lines = append(lines, fmt.Sprintf("i%d: %s %s%s", i, kind, metaString(in.Value, us), vals))
	}
	read := map[*ir.Value]bool{}
	for _, n := range g.Nodes {
		for _, a := range n.Args {
			for _, v := range a.Values {
				read[v] = true
			}
		}
	}
	for _, o := range g.Outputs {
		read[o.Value] = true
	}
	for i, n := range g.Nodes {
		for j, o := range n.Outputs {
			if o != nil {
				refs[o] = fmt.Sprintf("n%d.%d", i, j)
			}
		}
		args := make([]string, 0, len(n.Args))
		if schema, ok := schemas[n.Target]; ok {
			for _, s := range schema {
				if a := n.Arg(s.Name); a != nil {
					args = append(args, s.Name+"="+renderArg(*a, refs))
				} else {
					args = append(args, s.Name+"="+canonValue(s.Default))
				}
			}
		} else {
			// Python callables (_operator.mul on symbolic sizes) take positional arguments.
			for i, a := range n.Args {
				args = append(args, fmt.Sprintf("a%d=%s", i, renderArg(a, refs)))
			}
		}
		lines = append(lines, fmt.Sprintf("n%d = %s(%s) -> %s", i, n.Target, strings.Join(args, ", "), renderOutputs(n, read, us)))
	}
	var outs []string
	for _, o := range g.Outputs {
		if o.Value == nil {
			outs = append(outs, "None")
			continue
		}
		outs = append(outs, refs[o.Value])
	}
	return append(lines, "return "+strings.Join(outs, ", "))
}

func metaString(v *ir.Value, us unbackedNames) string {
	switch v.Kind {
	case ir.SymIntValue:
		return "symint"
	case ir.SymBoolValue:
		return "symbool"
	case ir.SymFloatValue:
		return "symfloat"
	}
	if v.Meta == nil {
		return "None"
	}
	dims := make([]string, len(v.Meta.Sizes))
	for i, d := range v.Meta.Sizes {
		dims[i] = us.canon(d.String())
	}
	return v.Meta.DType.String() + "[" + strings.Join(dims, ",") + "]"
}

func renderOutputs(n *ir.Node, read map[*ir.Value]bool, us unbackedNames) string {
	if len(n.Outputs) == 1 && !n.ListOutput {
		if n.Outputs[0] == nil {
			return "None"
		}
		return metaString(n.Outputs[0], us)
	}
	items := make([]string, len(n.Outputs))
	for i, o := range n.Outputs {
		if o == nil || !read[o] {
			items[i] = "_"
			continue
		}
		items[i] = metaString(o, us)
	}
	return "(" + strings.Join(items, ", ") + ")"
}

var (
	memoryFormatNames = map[int64]string{1: "contiguous_format", 2: "channels_last", 3: "channels_last_3d", 4: "preserve_format"}
	layoutNames       = map[int64]string{7: "strided"}
)

func renderArg(a ir.Arg, refs map[*ir.Value]string) string {
	ref := func(v *ir.Value) string {
		if v == nil {
			return "None"
		}
		if r, ok := refs[v]; ok {
			return r
		}
		return "?" + v.Name
	}
	list := func(items []string) string { return "[" + strings.Join(items, ", ") + "]" }
	switch a.Kind {
	case ir.ArgNone:
		return "None"
	case ir.ArgTensor, ir.ArgSymInt:
		return ref(a.Values[0])
	case ir.ArgTensors, ir.ArgOptionalTensors:
		items := make([]string, len(a.Values))
		for i, v := range a.Values {
			items[i] = ref(v)
		}
		return list(items)
	case ir.ArgInt:
		return strconv.FormatInt(a.Int, 10)
	case ir.ArgInts, ir.ArgSymInts:
		items := make([]string, len(a.Ints))
		for i, x := range a.Ints {
			items[i] = strconv.FormatInt(x, 10)
			if i < len(a.Values) && a.Values[i] != nil {
				items[i] = ref(a.Values[i])
			}
		}
		return list(items)
	case ir.ArgFloat:
		return renderFloat(a.Float)
	case ir.ArgFloats:
		items := make([]string, len(a.Floats))
		for i, f := range a.Floats {
			items[i] = renderFloat(f)
		}
		return list(items)
	case ir.ArgBool:
		return renderBool(a.Bool)
	case ir.ArgBools:
		items := make([]string, len(a.Bools))
		for i, b := range a.Bools {
			items[i] = renderBool(b)
		}
		return list(items)
	case ir.ArgString:
		return "s:" + a.Str
	case ir.ArgStrings:
		items := make([]string, len(a.Strs))
		for i, s := range a.Strs {
			items[i] = "s:" + s
		}
		return list(items)
	case ir.ArgScalarType:
		return "dtype:" + ir.DType(a.Int).String()
	case ir.ArgMemoryFormat:
		return "memory_format:" + memoryFormatNames[a.Int]
	case ir.ArgLayout:
		return "layout:" + layoutNames[a.Int]
	case ir.ArgDevice:
		return "device:" + a.Str
	}
	return fmt.Sprintf("?kind%d", a.Kind)
}

// constantValues renders a small constant's elements as the generator does (≤ 16 elements).
func constantValues(c *ir.Constant) string {
	n := 1
	for _, d := range c.Meta.Sizes {
		n *= int(d.Size)
	}
	size := c.Meta.DType.Size()
	if n > 16 || size == 0 || len(c.Data) < n*size {
		return ""
	}
	items := make([]string, n)
	for i := range items {
		b := c.Data[i*size : (i+1)*size]
		switch c.Meta.DType {
		case ir.Float32:
			items[i] = renderFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(b))))
		case ir.Float64:
			items[i] = renderFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)))
		case ir.Int64:
			items[i] = strconv.FormatInt(int64(binary.LittleEndian.Uint64(b)), 10)
		case ir.Int32:
			items[i] = strconv.FormatInt(int64(int32(binary.LittleEndian.Uint32(b))), 10)
		case ir.Bool:
			items[i] = renderBool(b[0] != 0)
		default:
			items[i] = fmt.Sprintf("0x%x", b)
		}
	}
	return " = [" + strings.Join(items, ", ") + "]"
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func firstWord(s string) string {
	if i := strings.IndexAny(s, ":"); i > 0 {
		rest := s[i+1:]
		if j := strings.Index(rest, "official"); j > 0 && strings.HasPrefix(strings.TrimSpace(rest), "line") {
			return "mismatch"
		}
		return strings.TrimSpace(s[:i]) + ":" + strings.Fields(rest + " x")[0]
	}
	return s
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
