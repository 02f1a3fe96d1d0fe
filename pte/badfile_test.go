package pte

import (
	"encoding/binary"
	"errors"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/pte/schema"
)

// goodProgram is a small valid program exercising every region: a planned input and output, a
// constant in the constant segment, an Int, an IntList, a kernel call and a delegate whose blob
// lands in a segment.
func goodProgram() *Contents {
	f32 := schema.ScalarTypeFLOAT
	planned := func(off uint32) *Tensor {
		return &Tensor{ScalarType: f32, Sizes: []int32{2}, DimOrder: []uint8{0}, AllocationInfo: &AllocationDetails{MemoryID: 1, MemoryOffsetLow: off}}
	}
	plan := &ExecutionPlan{
		Name:              "forward",
		ContainerMetaType: &ContainerMetadata{EncodedInpStr: "T1#1($)", EncodedOutStr: "$"},
		Values: []EValue{
			planned(0),  // 0: input
			planned(16), // 1: output
			Int{Val: 1}, // 2: alpha
			&Tensor{ScalarType: f32, Sizes: []int32{2}, DimOrder: []uint8{0}, DataBufferIdx: 1}, // 3: constant
			Int{Val: 2},                   // 4
			IntList{Items: []int64{4, 2}}, // 5
			planned(8),                    // 6: delegate output
		},
		Inputs:  []int32{0},
		Outputs: []int32{1},
		Chains: []Chain{{Inputs: []int32{}, Outputs: []int32{}, Instructions: []Instruction{
			KernelCall{OpIndex: 0, Args: []int32{0, 3, 2, 1, 1}},
			DelegateCall{DelegateIndex: 0, Args: []int32{1, 6}},
		}}},
		Operators:           []Operator{{Name: "aten::add", Overload: "out"}},
		Delegates:           []BackendDelegate{{ID: "XnnpackBackend", Processed: &DataReference{Location: locationInline}, CompileSpecs: []CompileSpec{}}},
		NonConstBufferSizes: []int64{0, 32},
	}
	return &Contents{
		Program:      &Program{ExecutionPlans: []*ExecutionPlan{plan}},
		Constants:    [][]byte{{}, make([]byte, 8)},
		DelegateData: [][]byte{[]byte("blob of the delegate")},
	}
}

func mustWrite(t *testing.T, c *Contents) []byte {
	t.Helper()
	b, err := Write(c, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rawFile encodes p exactly as given (no layout recomputation) and appends body as segment
// data behind an extended header when body is not empty.
func rawFile(p *Program, body []byte) []byte {
	fb := encodeProgram(p, 16, 16)
	if len(body) == 0 {
		return fb
	}
	h := ExtendedHeader{ProgramSize: uint64(len(fb)) + 32}
	h.SegmentBaseOffset = alignUp(h.ProgramSize, 128)
	h.SegmentDataSize = uint64(len(body))
	out := binary.LittleEndian.AppendUint32(nil, binary.LittleEndian.Uint32(fb)+32)
	out = append(out, fb[4:8]...)
	out = append(out, h.encode()...)
	out = append(out, fb[8:]...)
	out = append(out, make([]byte, h.SegmentBaseOffset-h.ProgramSize)...)
	return append(out, body...)
}

// mutated returns the good program's file after f changed its tables (no layout recomputation).
func mutated(t *testing.T, f func(p *Program, plan *ExecutionPlan)) []byte {
	t.Helper()
	good, err := Parse(mustWrite(t, goodProgram()))
	if err != nil {
		t.Fatal(err)
	}
	p := good.Program
	f(p, p.ExecutionPlans[0])
	return rawFile(p, good.Bytes()[good.Header.SegmentBaseOffset:])
}

func patch(b []byte, at int, v []byte) []byte {
	out := append([]byte(nil), b...)
	copy(out[at:], v)
	return out
}

func u32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// bogusValue and bogusInstr carry union tags no reader knows.
type bogusValue struct{}

func (bogusValue) kernelType() schema.KernelTypes { return 99 }

type bogusInstr struct{}

func (bogusInstr) instrType() schema.InstructionArguments { return 9 }

// sharedPlans builds a program whose execution_plan vector holds n references to one plan table.
func sharedPlans(n int) []byte {
	e := &encoder{b: flatbuffers.NewBuilder(1024), bufferAlign: 16, delegateAlign: 16}
	plan := e.plan(goodProgram().Program.ExecutionPlans[0])
	e.b.StartVector(4, n, 4)
	for i := 0; i < n; i++ {
		e.b.PrependUOffsetT(plan)
	}
	plans := e.b.EndVector(n)
	schema.ProgramStart(e.b)
	schema.ProgramAddExecutionPlan(e.b, plans)
	e.b.FinishWithFileIdentifier(schema.ProgramEnd(e.b), []byte(FileIdentifier))
	return e.b.FinishedBytes()
}

// planWithoutValues builds a program whose plan lacks the required values vector.
func planWithoutValues() []byte {
	b := flatbuffers.NewBuilder(256)
	name := b.CreateString("forward")
	schema.ExecutionPlanStart(b)
	schema.ExecutionPlanAddName(b, name)
	plan := schema.ExecutionPlanEnd(b)
	schema.ProgramStartExecutionPlanVector(b, 1)
	b.PrependUOffsetT(plan)
	plans := b.EndVector(1)
	schema.ProgramStart(b)
	schema.ProgramAddExecutionPlan(b, plans)
	b.FinishWithFileIdentifier(schema.ProgramEnd(b), []byte(FileIdentifier))
	return b.FinishedBytes()
}

func TestGoodProgram(t *testing.T) {
	f, err := Parse(mustWrite(t, goodProgram()))
	if err != nil {
		t.Fatal(err)
	}
	if f.Header == nil || len(f.Program.Segments) != 2 {
		t.Fatalf("header %v, segments %v", f.Header, f.Program.Segments)
	}
	d, err := f.DelegateData(&f.Program.ExecutionPlans[0].Delegates[0])
	if err != nil || string(d) != "blob of the delegate" {
		t.Errorf("delegate data %q, %v", d, err)
	}
}

func TestBadFiles(t *testing.T) {
	good := mustWrite(t, goodProgram())
	gf, err := Parse(good)
	if err != nil {
		t.Fatal(err)
	}
	h := gf.Header
	type tc struct {
		name string
		data []byte
		is   error
		want string
	}
	var cases []tc
	// Truncation at every region boundary and inside each region.
	for _, cut := range []uint64{0, 4, 7, 8, 12, 20, 39, 40, 41, h.ProgramSize / 2, h.ProgramSize - 1, h.ProgramSize,
		h.SegmentBaseOffset, h.SegmentBaseOffset + 1, h.SegmentBaseOffset + h.SegmentDataSize - 1} {
		want := "past the end"
		is := ErrInvalidProgram
		if cut < 8 {
			want, is = "too short", ErrNotProgram
		} else if cut < 16 {
			want, is = "", ErrInvalidProgram // magic present, header cut: ParseExtendedHeader or verifier
		}
		cases = append(cases, tc{name: "truncated at " + strconv.FormatUint(cut, 10), data: good[:cut], is: is, want: want})
	}
	cases = append(cases,
		tc{"bad root offset", patch(good, 0, u32(0xfffff000)), ErrInvalidProgram, "table at"},
		tc{"root offset into header", patch(good, 0, u32(8)), ErrInvalidProgram, "Program"},
		tc{"wrong identifier", patch(good, 4, []byte("XX12")), ErrNotProgram, `no "ET12" identifier`},
		tc{"other ET version", patch(good, 4, []byte("ET13")), ErrIncompatibleVersion, `"ET13"`},
		tc{"header length 20", patch(good, 12, u32(20)), ErrInvalidProgram, "below the minimum 24"},
		tc{"header length past the file", patch(good[:40], 12, u32(64)), ErrInvalidProgram, "runs past the end of the file"},
		tc{"program_size past the file", patch(good, 16, binary.LittleEndian.AppendUint64(nil, 1<<40)), ErrInvalidProgram, "program_size"},
		tc{"segment base past the file", patch(good, 24, binary.LittleEndian.AppendUint64(nil, 1<<40)), ErrInvalidProgram, "segment_base_offset"},
		tc{"segment data size past the file", patch(good, 32, binary.LittleEndian.AppendUint64(nil, 1<<40)), ErrInvalidProgram, "past the end of the file"},
		tc{"segment offset past the end", mutated(t, func(p *Program, _ *ExecutionPlan) { p.Segments[1].Offset = 1 << 20 }), ErrInvalidProgram, "segment 1"},
		tc{"segment size past the end", mutated(t, func(p *Program, _ *ExecutionPlan) { p.Segments[1].Size = 1 << 20 }), ErrInvalidProgram, "segment 1"},
		tc{"segment offset overflowing", mutated(t, func(p *Program, _ *ExecutionPlan) { p.Segments[1].Offset = math.MaxUint64 - 4 }), ErrInvalidProgram, "segment 1"},
		tc{"segment data without header", rawFile(&Program{ExecutionPlans: goodProgram().Program.ExecutionPlans, Segments: []DataSegment{{0, 8}}}, nil), ErrInvalidProgram, "no extended header"},
		tc{"input value out of range", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Inputs[0] = 100 }), ErrInvalidProgram, "input 0: value 100 out of range"},
		tc{"output value negative", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Outputs[0] = -1 }), ErrInvalidProgram, "output 0: value -1"},
		tc{"kernel argument out of range", mutated(t, func(_ *Program, pl *ExecutionPlan) {
			pl.Chains[0].Instructions[0] = KernelCall{OpIndex: 0, Args: []int32{0, 3, 2, 1, 7}}
		}), ErrInvalidProgram, "instruction 0: argument 4: value 7"},
		tc{"operator out of range", mutated(t, func(_ *Program, pl *ExecutionPlan) {
			pl.Chains[0].Instructions[0] = KernelCall{OpIndex: 3, Args: []int32{0}}
		}), ErrInvalidProgram, "operator 3 out of range"},
		tc{"delegate out of range", mutated(t, func(_ *Program, pl *ExecutionPlan) {
			pl.Chains[0].Instructions[1] = DelegateCall{DelegateIndex: 1}
		}), ErrInvalidProgram, "instruction 1: delegate call: delegate 1 out of range"},
		tc{"delegate segment out of range", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Delegates[0].Processed.Index = 5 }), ErrInvalidProgram, "segment 5 out of range"},
		tc{"delegate inline data out of range", mutated(t, func(_ *Program, pl *ExecutionPlan) {
			pl.Delegates[0].Processed = &DataReference{Location: locationInline, Index: 0}
		}), ErrInvalidProgram, "inline data 0 out of range"},
		tc{"jump out of range", mutated(t, func(_ *Program, pl *ExecutionPlan) {
			pl.Chains[0].Instructions[1] = JumpFalseCall{CondValueIndex: 2, DestinationInstruction: 9}
		}), ErrInvalidProgram, "jump destination 9"},
		tc{"constant buffer index out of range", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Values[3].(*Tensor).DataBufferIdx = 9 }), ErrInvalidProgram, "value 3: tensor data: invalid program: constant 9"},
		tc{"constant data past its segment", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Values[3].(*Tensor).Sizes = []int32{1000} }), ErrInvalidProgram, "runs past its segment"},
		tc{"planned tensor past its buffer", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Values[1].(*Tensor).AllocationInfo.MemoryOffsetLow = 30 }), ErrInvalidProgram, "runs past planned buffer 1"},
		tc{"memory id 0", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Values[1].(*Tensor).AllocationInfo.MemoryID = 0 }), ErrInvalidProgram, "memory_id 0 out of range"},
		tc{"negative size", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Values[0].(*Tensor).Sizes = []int32{-2} }), ErrInvalidProgram, "value 0: tensor: invalid program: dimension 0 is negative"},
		tc{"huge sizes", mutated(t, func(_ *Program, pl *ExecutionPlan) {
			pl.Values[0].(*Tensor).Sizes = []int32{math.MaxInt32, math.MaxInt32, math.MaxInt32}
			pl.Values[0].(*Tensor).DimOrder = []uint8{0, 1, 2}
		}), ErrInvalidProgram, "too large"},
		tc{"rank 17", mutated(t, func(_ *Program, pl *ExecutionPlan) {
			tt := pl.Values[0].(*Tensor)
			tt.Sizes, tt.DimOrder = make([]int32, 17), make([]uint8, 17)
		}), ErrInvalidProgram, "rank 17 exceeds 16"},
		tc{"dim order not a permutation", mutated(t, func(_ *Program, pl *ExecutionPlan) {
			tt := pl.Values[0].(*Tensor)
			tt.Sizes, tt.DimOrder = []int32{1, 2}, []uint8{1, 1}
		}), ErrInvalidProgram, "not a permutation"},
		tc{"unknown scalar type", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Values[0].(*Tensor).ScalarType = 18 }), ErrInvalidProgram, "unknown scalar type 18"},
		tc{"storage offset", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Values[0].(*Tensor).StorageOffset = 4 }), ErrInvalidProgram, "storage_offset 4"},
		tc{"int list item not an Int", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Values[5] = IntList{Items: []int64{4, 0}} }), ErrInvalidProgram, "value 0 is Tensor, not Int"},
		tc{"tensor list item out of range", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Values[5] = TensorList{Items: []int32{40}} }), ErrInvalidProgram, "value 40 out of range"},
		tc{"unknown value union tag", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Values[2] = bogusValue{} }), ErrInvalidProgram, "unknown KernelTypes tag 99"},
		tc{"unknown instruction union tag", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Chains[0].Instructions[0] = bogusInstr{} }), ErrInvalidProgram, "unknown InstructionArguments tag 9"},
		tc{"value without type", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Values[2] = nil }), ErrInvalidProgram, "value 2: value has no type"},
		tc{"no chains", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Chains = nil }), ErrInvalidProgram, "no chains"},
		tc{"empty non_const_buffer_sizes", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.NonConstBufferSizes = nil }), ErrInvalidProgram, "non_const_buffer_sizes is empty"},
		tc{"empty operator name", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Operators[0].Name = "" }), ErrInvalidProgram, "operator 0 has an empty name"},
		tc{"empty backend id", mutated(t, func(_ *Program, pl *ExecutionPlan) { pl.Delegates[0].ID = "" }), ErrInvalidProgram, "empty backend id"},
		tc{"missing required values", planWithoutValues(), ErrInvalidProgram, "execution_plan[0].values: required field is missing"},
		tc{"duplicate method", mutated(t, func(p *Program, pl *ExecutionPlan) { p.ExecutionPlans = append(p.ExecutionPlans, pl) }), ErrInvalidProgram, `method name "forward" appears twice`},
		tc{"100,000 execution plans claimed", patchVectorLength(t, good, 100000), ErrInvalidProgram, "vector of 100000 elements"},
		tc{"100,000 execution plans sharing one table", sharedPlans(100000), ErrInvalidProgram, "decoded size exceeds"},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse(c.data)
			if err == nil {
				t.Fatalf("Parse succeeded with %d plans", len(f.Program.ExecutionPlans))
			}
			if !errors.Is(err, c.is) {
				t.Errorf("error %q is not %v", err, c.is)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
		})
	}
}

// patchVectorLength rewrites the length of the program's execution_plan vector.
func patchVectorLength(t *testing.T, file []byte, n uint32) []byte {
	t.Helper()
	fp := schema.GetRootAsProgram(file, 0)
	tab := fp.Table()
	o := flatbuffers.UOffsetT(tab.Offset(6)) // slot 1
	if o == 0 {
		t.Fatal("no execution_plan")
	}
	vec := tab.Vector(o) // first element; the length sits just before it
	return patch(file, int(vec)-4, u32(n))
}

func TestNotPrograms(t *testing.T) {
	ptd := append([]byte{0x10, 0, 0, 0}, []byte("FT01FH01")...)
	etdump := append([]byte{0x10, 0, 0, 0, 0x0c, 0, 0, 0}, []byte("ED00")...)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"bundled program", append([]byte{0x2c, 0, 0, 0}, []byte("BP08....")...), "bundled program"},
		{"ptd", ptd, ".ptd data file"},
		{"etdump", etdump, "ETDump"},
		{"text", []byte("# not a program at all"), `no "ET12" identifier`},
		{"wild bundled program", readFixture(t, filepath.Join(testutil.WildDir(t), "extension__module__test__resources__bundled_program.bpte")), "bundled program"},
		{"wild etdump", readFixture(t, filepath.Join(testutil.WildDir(t), "docs__source__tutorials_source__etdump.etdp")), "ETDump"},
	} {
		_, err := Parse(c.data)
		if !errors.Is(err, ErrNotProgram) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrNotProgram mentioning %q", c.name, err, c.want)
		}
	}
}
