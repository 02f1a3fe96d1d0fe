// Package mutate makes corrupt variants of XNNPACK-delegated .pte files for the mutation
// campaign of tools/reference/mutate_blobs.py: flatbuffer field flips in the delegate blob's
// XNNGraph (value ids, dims, node and value types, flags, constant indices and sizes,
// quantization parameters), dropped, duplicated and reordered nodes and values, header and
// segment truncation, random bytes, and a few edits of the surrounding program (delegate call
// arguments, tensor sizes, named data).
//
// Every mutant is a list of in-place byte edits against its seed file (plus, for truncation, a
// shorter length), so a corpus of interesting mutants stays a few hundred bytes each whatever
// the seed's size, and applying one needs no encoder: the bytes are the bytes the official
// runtime judged. Generation is deterministic for a seed file, a campaign seed and a count.
package mutate

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/etgo/etgo/backends/xnnpack/xnngraph"
	"github.com/etgo/etgo/internal/fbverify"
	"github.com/etgo/etgo/pte"
)

// Edit overwrites len(Data) bytes at Off; a splice instead replaces the Cut bytes at Off with
// Data (a JSON or .npy header edit changes the entry's length, a zip entry can grow).
type Edit struct {
	Off    int
	Data   []byte
	Splice bool
	Cut    int
}

type editJSON struct {
	Off    int    `json:"off"`
	Data   string `json:"data"` // hex
	Splice bool   `json:"splice,omitempty"`
	Cut    int    `json:"cut,omitempty"`
}

// MarshalJSON writes the data as hex, so a manifest reads as offsets and bytes.
func (e Edit) MarshalJSON() ([]byte, error) {
	return json.Marshal(editJSON{e.Off, hex.EncodeToString(e.Data), e.Splice, e.Cut})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (e *Edit) UnmarshalJSON(b []byte) error {
	var j editJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	d, err := hex.DecodeString(j.Data)
	if err != nil {
		return err
	}
	e.Off, e.Data, e.Splice, e.Cut = j.Off, d, j.Splice, j.Cut
	return nil
}

// Mutant is one corrupt variant of a seed file.
type Mutant struct {
	// ID is unique within a campaign: "<seed name>/<kind>/<n>".
	ID string `json:"id"`
	// Kind is the mutation family, e.g. "value-id" or "drop-node".
	Kind string `json:"kind"`
	// Desc says what changed, e.g. "node 3 (XNNConv2d) filter_id 5 -> 9".
	Desc  string `json:"desc"`
	Edits []Edit `json:"edits"`
	// Length, when > 0, truncates the file to this many bytes (after the edits).
	Length int `json:"length,omitempty"`
}

// ErrMutant is wrapped by errors about a mutant that does not fit its seed.
var ErrMutant = errors.New("mutant does not apply")

// Apply returns the mutant's bytes: a copy of seed with the edits made. Without splices the
// edits apply in order; with one, every offset is the seed's and the edits must not overlap:
// they apply from the last offset back, so none moves another.
func (m *Mutant) Apply(seed []byte) ([]byte, error) {
	for _, e := range m.Edits {
		if e.Splice {
			return m.applySplices(seed)
		}
	}
	out := bytes.Clone(seed)
	for _, e := range m.Edits {
		if e.Off < 0 || e.Off > len(out) || len(e.Data) > len(out)-e.Off {
			return nil, fmt.Errorf("%w: %s: edit at %d (+%d) outside the %d-byte seed", ErrMutant, m.ID, e.Off, len(e.Data), len(out))
		}
		copy(out[e.Off:], e.Data)
	}
	if m.Length > 0 {
		if m.Length > len(out) {
			return nil, fmt.Errorf("%w: %s: length %d exceeds the %d-byte seed", ErrMutant, m.ID, m.Length, len(out))
		}
		out = out[:m.Length]
	}
	return out, nil
}

func (m *Mutant) applySplices(seed []byte) ([]byte, error) {
	es := slices.Clone(m.Edits)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Off > es[j].Off })
	out := bytes.Clone(seed)
	end := len(seed) // edits are disjoint: each ends at or before the previous one's start
	for _, e := range es {
		n := len(e.Data)
		if e.Splice {
			n = e.Cut
		}
		if e.Off < 0 || n < 0 || e.Off > end || n > end-e.Off {
			return nil, fmt.Errorf("%w: %s: edit at %d (+%d) outside the seed or overlapping another", ErrMutant, m.ID, e.Off, n)
		}
		if e.Splice {
			out = slices.Concat(out[:e.Off], e.Data, out[e.Off+e.Cut:])
		} else {
			copy(out[e.Off:], e.Data)
		}
		end = e.Off
	}
	if m.Length > 0 {
		if m.Length > len(out) {
			return nil, fmt.Errorf("%w: %s: length %d exceeds the %d-byte mutant", ErrMutant, m.ID, m.Length, len(out))
		}
		out = out[:m.Length]
	}
	return out, nil
}

// blob is one XNNPACK delegate blob inside the seed.
type blob struct {
	index  int // delegate index in the plan
	off    int // absolute offset of the blob in the file
	size   int
	fbOff  int // absolute offset of the XNNGraph flatbuffer
	fbSize int
	graph  *xnngraph.Graph
	sites  []*fbverify.Site // positions absolute in the file
	// segSize is the Program.segments[k].size site of the blob's segment (nil when inline).
	segSize *fbverify.Site
}

// seedInfo is what the families draw from.
type seedInfo struct {
	data   []byte
	file   *pte.File
	prog   []*fbverify.Site // the program flatbuffer's fields
	blobs  []*blob
	r      *rand.Rand
	name   string
	counts map[string]int
	out    []Mutant
	zip    *zipInfo // a .pt2 seed's archive
}

// Generate returns up to n mutants of the .pte in data, named after name, drawn with the
// campaign seed. Every family that applies to the file gets a share.
func Generate(data []byte, name string, seed uint64, n int) ([]Mutant, error) {
	f, err := pte.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("mutate: %s: %w", name, err)
	}
	s, err := newProgramSeed(data, f, name, seed)
	if err != nil {
		return nil, err
	}
	if err := s.findBlobs(); err != nil {
		return nil, fmt.Errorf("mutate: %s: %w", name, err)
	}
	if len(s.blobs) == 0 {
		return nil, fmt.Errorf("mutate: %s has no XNNPACK delegate", name)
	}
	for _, fam := range families {
		fam.gen(s, max(1, int(math.Round(fam.share*float64(n)))))
	}
	return s.unique(), nil
}

// newSeed is a seedInfo without a file: what the .pt2 and .npy generators draw from.
func newSeed(data []byte, name string, seed uint64) *seedInfo {
	h := fnv.New64a()
	h.Write([]byte(name))
	return &seedInfo{data: data, name: name, counts: map[string]int{}, r: rand.New(rand.NewPCG(seed, h.Sum64()))}
}

// newProgramSeed is a seedInfo of a parsed .pte with its program's sites.
func newProgramSeed(data []byte, f *pte.File, name string, seed uint64) (*seedInfo, error) {
	s := newSeed(data, name, seed)
	s.file = f
	progSize := len(data)
	if f.Header != nil {
		progSize = int(f.Header.ProgramSize)
	}
	if err := fbverify.Walk(data[:progSize], pte.SchemaSpec(), func(x *fbverify.Site) { c := *x; s.prog = append(s.prog, &c) }); err != nil {
		return nil, fmt.Errorf("mutate: %s: program: %w", name, err)
	}
	return s, nil
}

// unique drops exact duplicates (two families can land on the same bytes), keeping the order.
func (s *seedInfo) unique() []Mutant {
	seen := map[string]bool{}
	var out []Mutant
	for _, m := range s.out {
		k := fmt.Sprint(m.Edits, m.Length)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, m)
	}
	return out
}

// findBlobs locates every XnnpackBackend delegate blob of the first plan in the file.
func (s *seedInfo) findBlobs() error {
	plan := s.file.Program.ExecutionPlans[0]
	for i := range plan.Delegates {
		d := &plan.Delegates[i]
		if d.ID != xnngraph.BackendID {
			continue
		}
		b, err := s.file.DelegateData(d)
		if err != nil || len(b) == 0 {
			return fmt.Errorf("delegate %d: %v", i, err)
		}
		// The blob aliases the file's bytes (pte.Parse does not copy): its offset is the
		// distance between the two; checked by pointer below.
		off := int(uintptr(unsafe.Pointer(&b[0])) - uintptr(unsafe.Pointer(&s.data[0])))
		if off < 0 || off+len(b) > len(s.data) || &s.data[off] != &b[0] {
			return fmt.Errorf("delegate %d: blob is not inside the file's bytes", i)
		}
		g, err := xnngraph.ParseBlob(b)
		if err != nil {
			return fmt.Errorf("delegate %d: %w", i, err)
		}
		bl := &blob{index: i, off: off, size: len(b), graph: g, fbOff: off, fbSize: len(b)}
		if len(b) >= 30 && string(b[4:8]) == "XH00" {
			bl.fbOff = off + int(binary.LittleEndian.Uint32(b[10:]))
			bl.fbSize = int(binary.LittleEndian.Uint32(b[14:]))
		}
		fb := s.data[bl.fbOff : bl.fbOff+bl.fbSize]
		if err := fbverify.Walk(fb, xnngraph.SchemaSpec(), func(x *fbverify.Site) {
			c := *x
			c.Pos += bl.fbOff
			if c.Target != 0 {
				c.Target += bl.fbOff
			}
			bl.sites = append(bl.sites, &c)
		}); err != nil {
			return fmt.Errorf("delegate %d: %w", i, err)
		}
		if d.Processed.Location == 1 { // SEGMENT
			want := fmt.Sprintf("Program.segments[%d].size", d.Processed.Index)
			for _, x := range s.prog {
				if x.Path == want {
					bl.segSize = x
				}
			}
		}
		s.blobs = append(s.blobs, bl)
	}
	return nil
}

// add records a mutant of the current family.
func (s *seedInfo) add(kind, desc string, length int, edits ...Edit) {
	s.counts[kind]++
	s.out = append(s.out, Mutant{ID: fmt.Sprintf("%s/%s/%d", s.name, kind, s.counts[kind]), Kind: kind, Desc: desc, Edits: edits, Length: length})
}

func (s *seedInfo) pickBlob() *blob { return s.blobs[s.r.IntN(len(s.blobs))] }

// u returns the unsigned value of a scalar site.
func (s *seedInfo) u(x *fbverify.Site) uint64 {
	switch x.Width {
	case 1:
		return uint64(s.data[x.Pos])
	case 2:
		return uint64(binary.LittleEndian.Uint16(s.data[x.Pos:]))
	case 4:
		return uint64(binary.LittleEndian.Uint32(s.data[x.Pos:]))
	}
	return binary.LittleEndian.Uint64(s.data[x.Pos:])
}

// set is the edit writing v into a scalar site.
func set(x *fbverify.Site, v uint64) Edit {
	b := make([]byte, x.Width)
	switch x.Width {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
	return Edit{Off: x.Pos, Data: b}
}

func u32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// sites returns the blob's sites matching keep.
func (b *blob) find(keep func(*fbverify.Site) bool) []*fbverify.Site {
	var out []*fbverify.Site
	for _, x := range b.sites {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

// nodeOf returns the index of the node a site belongs to (-1 if none), from its path.
func nodeOf(path string) int {
	const p = "XNNGraph.xnodes["
	if !strings.HasPrefix(path, p) {
		return -1
	}
	var k int
	fmt.Sscanf(path[len(p):], "%d", &k)
	return k
}

// valueOf is nodeOf for values.
func valueOf(path string) int {
	const p = "XNNGraph.xvalues["
	if !strings.HasPrefix(path, p) {
		return -1
	}
	var k int
	fmt.Sscanf(path[len(p):], "%d", &k)
	return k
}

// where names a site for a description: "node 3 (XNNConv2d) filter_id" or "value 5 dims[1]".
func (b *blob) where(x *fbverify.Site) string {
	prefix := fmt.Sprintf("delegate %d ", b.index)
	if k := nodeOf(x.Path); k >= 0 && k < len(b.graph.Nodes) {
		return prefix + fmt.Sprintf("node %d (%s) %s", k, b.graph.Nodes[k].OpName(), field(x))
	}
	if k := valueOf(x.Path); k >= 0 && k < len(b.graph.Values) {
		return prefix + fmt.Sprintf("value %d %s", b.graph.Values[k].ID, field(x))
	}
	return prefix + strings.TrimPrefix(x.Path, "XNNGraph.")
}

// field is a site's last path element ("dims[1]", "filter_id").
func field(x *fbverify.Site) string {
	p := x.Path
	if i := strings.LastIndex(p, "."); i >= 0 {
		p = p[i+1:]
	}
	return p
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// valueIDs is every value id of a blob's graph, sorted.
func (b *blob) valueIDs() []uint32 {
	ids := make([]uint32, 0, len(b.graph.Values))
	for _, v := range b.graph.Values {
		ids = append(ids, v.ID)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

func f32bits(f float32) uint64 { return uint64(math.Float32bits(f)) }
