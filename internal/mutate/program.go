package mutate

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/etgo/etgo/internal/fbverify"
	"github.com/etgo/etgo/pte"
)

// programFamilies mutate a whole .pte, portable or delegated: the program flatbuffer's fields
// (tensor metadata, instructions, the memory plan, segment tables), its offsets and vector
// lengths, the extended header, truncation and random bytes.
var programFamilies = []family{
	{"pte-tensor", 0.16, genPteTensor},
	{"pte-instr", 0.14, genPteInstr},
	{"pte-plan", 0.08, genPtePlan},
	{"pte-segment", 0.10, genPteSegment},
	{"pte-scalar", 0.10, genPteScalar},
	{"pte-vector-len", 0.09, genPteVectorLen},
	{"pte-offset", 0.08, genPteOffset},
	{"pte-string", 0.04, genPteString},
	{"pte-header", 0.07, genPteHeader},
	{"pte-truncate", 0.08, genPteTruncate},
	{"pte-random-bytes", 0.06, genPteRandomBytes},
}

// ProgramFamilies lists GenerateProgram's families.
func ProgramFamilies() []string { return names(programFamilies) }

func names(fs []family) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.name
	}
	return out
}

// GenerateProgram returns up to n mutants of any .pte (with or without delegates): edits of
// the program around whatever it runs.
func GenerateProgram(data []byte, name string, seed uint64, n int) ([]Mutant, error) {
	f, err := pte.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("mutate: %s: %w", name, err)
	}
	s, err := newProgramSeed(data, f, name, seed)
	if err != nil {
		return nil, err
	}
	for _, fam := range programFamilies {
		fam.gen(s, max(1, int(math.Round(fam.share*float64(n)))))
	}
	return s.unique(), nil
}

// flipProg is flip over the program's sites.
func (s *seedInfo) flipProg(kind string, quota int, keep func(*fbverify.Site) bool, cands func(x *fbverify.Site, cur uint64) []uint64) {
	var xs []*fbverify.Site
	for _, x := range s.prog {
		if keep(x) {
			xs = append(xs, x)
		}
	}
	if len(xs) == 0 {
		return
	}
	for try := 0; try < 4*quota && s.counts[kind] < quota; try++ {
		x := pick(s.r, xs)
		cur := s.u(x)
		var vs []uint64
		for _, v := range cands(x, cur) {
			if x.Width < 8 {
				v &= 1<<(8*x.Width) - 1
			}
			if v != cur {
				vs = append(vs, v)
			}
		}
		if len(vs) == 0 {
			continue
		}
		v := pick(s.r, vs)
		s.add(kind, fmt.Sprintf("%s: %d -> %d", strings.TrimPrefix(x.Path, "Program."), cur, v), 0, set(x, v))
	}
}

func scalarSite(x *fbverify.Site) bool { return x.IsScalar() && x.Width > 0 }

// wide are the values a size or index becomes: off by one, zero, the sign bit, all ones, and
// sizes a reader must not allocate blindly.
func wide(x *fbverify.Site, cur uint64) []uint64 {
	out := []uint64{0, cur + 1, cur - 1, 2 * cur, math.MaxUint64, 1 << (8*min(x.Width, 8) - 1)}
	if x.Width >= 4 {
		out = append(out, 1<<16, 1<<20, 1<<28, 0x7FFFFFFF)
	}
	if x.Width == 8 {
		out = append(out, 1<<32, 1<<40, 1<<62, math.MaxInt64)
	}
	return out
}

func genPteTensor(s *seedInfo, quota int) {
	s.flipProg("pte-tensor", quota, func(x *fbverify.Site) bool {
		return scalarSite(x) && strings.Contains(x.Path, "val<")
	}, func(x *fbverify.Site, cur uint64) []uint64 {
		switch x.Field.Name {
		case "scalar_type":
			return []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 13, 15, 22, 99, 255}
		case "val_type":
			return []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 200}
		case "dim_order":
			return []uint64{0, cur + 1, cur - 1, 9, 255}
		case "sizes":
			return []uint64{0, 1, cur + 1, cur - 1, 2 * cur, 1 << 16, 1 << 24, 0x7FFFFFFF, 0xFFFFFFFF}
		}
		return wide(x, cur)
	})
}

func genPteInstr(s *seedInfo, quota int) {
	nvals := uint64(len(s.file.Program.ExecutionPlans[0].Values))
	s.flipProg("pte-instr", quota, func(x *fbverify.Site) bool {
		return scalarSite(x) && strings.Contains(x.Path, "instructions[")
	}, func(x *fbverify.Site, cur uint64) []uint64 {
		if x.Field.Kind == fbverify.KUnionType {
			return []uint64{0, 1, 2, 3, 4, 5, 6, 9}
		}
		return []uint64{0, cur + 1, cur - 1, nvals, nvals - 1, nvals + 100, 0x7FFFFFFF, 0xFFFFFFFF}
	})
}

func genPtePlan(s *seedInfo, quota int) {
	nvals := uint64(len(s.file.Program.ExecutionPlans[0].Values))
	s.flipProg("pte-plan", quota, func(x *fbverify.Site) bool {
		if !scalarSite(x) || strings.Contains(x.Path, "instructions[") || strings.Contains(x.Path, "val<") {
			return false
		}
		return strings.HasPrefix(x.Path, "Program.execution_plan[")
	}, func(x *fbverify.Site, cur uint64) []uint64 {
		switch x.Field.Name {
		case "non_const_buffer_sizes":
			// A plan declaring 64 MB, 1 GB, 1 TB: the runtime must refuse or allocate lazily.
			return []uint64{0, cur + 1, cur / 2, 2 * cur, 64 << 20, 1 << 30, 1 << 40, 1 << 62, math.MaxUint64}
		case "inputs", "outputs":
			return []uint64{0, cur + 1, cur - 1, nvals, 0xFFFFFFFF}
		}
		return wide(x, cur)
	})
}

func genPteSegment(s *seedInfo, quota int) {
	size := uint64(len(s.data))
	s.flipProg("pte-segment", quota, func(x *fbverify.Site) bool {
		if !scalarSite(x) {
			return false
		}
		return strings.HasPrefix(x.Path, "Program.segments[") || strings.HasPrefix(x.Path, "Program.constant_segment") ||
			strings.HasPrefix(x.Path, "Program.named_data[") || strings.Contains(x.Path, ".processed.") ||
			strings.HasPrefix(x.Path, "Program.constant_buffer")
	}, func(x *fbverify.Site, cur uint64) []uint64 {
		out := []uint64{0, cur + 1, cur - 1, cur + 4096, cur / 2, size, size + 1, 1 << 31, 1 << 40, math.MaxUint64}
		if x.Field.Name == "location" {
			out = []uint64{0, 1, 2, 7}
		}
		return out
	})
}

func genPteScalar(s *seedInfo, quota int) {
	s.flipProg("pte-scalar", quota, scalarSite, wide)
}

func genPteVectorLen(s *seedInfo, quota int) {
	var xs []*fbverify.Site
	for _, x := range s.prog {
		if x.Elem < 0 && x.Target > 0 && (x.Field.Kind == fbverify.KVecScalar || x.Field.Kind == fbverify.KVecTable ||
			x.Field.Kind == fbverify.KVecString || x.Field.Kind == fbverify.KString) {
			xs = append(xs, x)
		}
	}
	for try := 0; try < 4*quota && s.counts["pte-vector-len"] < quota && len(xs) > 0; try++ {
		x := pick(s.r, xs)
		cands := []uint32{uint32(x.Len + 1), 0, uint32(x.Len * 2), 0x7FFFFFFF, 0xFFFFFFFF, 1 << 20}
		if x.Len > 0 {
			cands = append(cands, uint32(x.Len-1), uint32(x.Len-1))
		}
		v := pick(s.r, cands)
		if int(v) == x.Len {
			continue
		}
		s.add("pte-vector-len", fmt.Sprintf("%s: length %d -> %d", strings.TrimPrefix(x.Path, "Program."), x.Len, v), 0, Edit{Off: x.Target, Data: u32(v)})
	}
}

func genPteOffset(s *seedInfo, quota int) {
	var xs []*fbverify.Site
	for _, x := range s.prog {
		if x.Width == 4 && x.Target > 0 && !x.IsScalar() {
			xs = append(xs, x)
		}
	}
	size := len(s.data)
	for try := 0; try < 4*quota && s.counts["pte-offset"] < quota && len(xs) > 0; try++ {
		x := pick(s.r, xs)
		cur := uint32(x.Target - x.Pos)
		v := pick(s.r, []uint32{0, cur + 4, cur - 4, cur + 1, uint32(size - x.Pos), uint32(size), 0x7FFFFFFF, 0xFFFFFFFC})
		if v == cur {
			continue
		}
		s.add("pte-offset", fmt.Sprintf("%s: offset %d -> %d", strings.TrimPrefix(x.Path, "Program."), cur, v), 0, Edit{Off: x.Pos, Data: u32(v)})
	}
}

func genPteString(s *seedInfo, quota int) {
	var xs []*fbverify.Site
	for _, x := range s.prog {
		if x.Field.Kind == fbverify.KString && x.Len > 0 {
			xs = append(xs, x)
		}
	}
	for try := 0; try < 4*quota && s.counts["pte-string"] < quota && len(xs) > 0; try++ {
		x := pick(s.r, xs)
		at := x.Target + 4 + s.r.IntN(x.Len)
		nc := pick(s.r, []byte{0, 0xFF, 0xC3, '.', 'x', ':'})
		if s.data[at] == nc {
			continue
		}
		s.add("pte-string", fmt.Sprintf("%s: byte %d %q -> %q", strings.TrimPrefix(x.Path, "Program."), at-x.Target-4, s.data[at], nc), 0, Edit{Off: at, Data: []byte{nc}})
	}
}

func genPteHeader(s *seedInfo, quota int) {
	type field struct {
		name  string
		at, w int
	}
	fields := []field{{"file_identifier", 4, 1}, {"root_offset", 0, 4}}
	if s.file.Header != nil {
		fields = append(fields, field{"eh_magic", 8, 1}, field{"eh_length", 12, 4}, field{"program_size", 16, 8},
			field{"segment_base_offset", 24, 8}, field{"segment_data_size", 32, 8})
	}
	size := uint64(len(s.data))
	for try := 0; try < 4*quota && s.counts["pte-header"] < quota; try++ {
		f := pick(s.r, fields)
		x := &fbverify.Site{Pos: f.at, Width: f.w, Field: &fbverify.Field{Name: f.name}}
		cur := s.u(x)
		cands := []uint64{0, cur + 1, cur - 1, cur + 8, cur - 8, cur / 2, size, size + 1, 1 << 31, 1 << 40, math.MaxUint64}
		switch f.name {
		case "file_identifier", "eh_magic":
			cands = []uint64{'F', 'x', 0, cur + 1}
		case "eh_length":
			cands = []uint64{0, 8, 23, 24, 31, 33, 64, 1 << 20, 0xFFFFFFFF}
		}
		v := pick(s.r, cands)
		if f.w < 8 {
			v &= 1<<(8*f.w) - 1
		}
		if v == cur {
			continue
		}
		s.add("pte-header", fmt.Sprintf("header %s %d -> %d", f.name, cur, v), 0, set(x, v))
	}
}

func genPteTruncate(s *seedInfo, quota int) {
	size := len(s.data)
	cuts := []int{1, 4, 8, 12, 16, 24, 40, size - 1, size / 2}
	if h := s.file.Header; h != nil {
		cuts = append(cuts, int(h.ProgramSize)-1, int(h.ProgramSize), int(h.SegmentBaseOffset), int(h.SegmentBaseOffset)+1)
		for _, seg := range s.file.Program.Segments {
			end := int(h.SegmentBaseOffset + seg.Offset + seg.Size)
			cuts = append(cuts, int(h.SegmentBaseOffset+seg.Offset)+1, end-1)
		}
	}
	for try := 0; try < 4*quota && s.counts["pte-truncate"] < quota; try++ {
		n := 1 + s.r.IntN(size-1)
		if s.r.IntN(2) == 0 {
			n = pick(s.r, cuts)
		}
		if n <= 0 || n >= size {
			continue
		}
		s.add("pte-truncate", fmt.Sprintf("file cut to %d of %d bytes", n, size), n)
	}
}

func genPteRandomBytes(s *seedInfo, quota int) {
	progSize := len(s.data)
	if s.file.Header != nil {
		progSize = int(s.file.Header.ProgramSize)
	}
	for k := 0; k < quota; k++ {
		n := 1 + s.r.IntN(8)
		var edits []Edit
		var at []string
		for i := 0; i < n; i++ {
			off := s.r.IntN(progSize)
			edits = append(edits, Edit{Off: off, Data: []byte{byte(s.r.IntN(256))}})
			at = append(at, fmt.Sprint(off))
		}
		s.add("pte-random-bytes", fmt.Sprintf("%d random bytes in the program at %s", n, strings.Join(at, ",")), 0, edits...)
	}
}

var _ = binary.LittleEndian
