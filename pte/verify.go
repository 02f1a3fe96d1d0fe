package pte

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// The flatbuffers Go runtime has no verifier and its accessors index the buffer without bounds
// checks, so every buffer is verified against a description of the schema (schemaspec.go)
// before any generated accessor touches it. After verify accepts a buffer, every table, vector
// and string that the schema declares lies inside it, every union tag is known, and decoding it
// allocates at most a small multiple of its size.

const (
	// maxDepth bounds table nesting; the deepest legitimate path in program.fbs is 6.
	maxDepth = 32
	// budgetFactor bounds the total size of everything verify visits, relative to the buffer.
	// Regions of a well-formed buffer are disjoint, so a legitimate file costs at most its
	// size; only shared substructures (one table referenced from many places) can cost more,
	// and they would make decoding allocate without bound.
	budgetFactor = 2
)

type fieldKind uint8

const (
	fScalar    fieldKind = iota // inline scalar of size bytes
	fString                     // offset to a string
	fTable                      // offset to a table
	fVecScalar                  // offset to a vector of size-byte scalars
	fVecString                  // offset to a vector of strings
	fVecTable                   // offset to a vector of tables
	fUnionType                  // u8 tag of the union in the next slot
	fUnion                      // offset to the union's member table
)

type fieldSpec struct {
	name  string
	kind  fieldKind
	size  int        // fScalar, fVecScalar: bytes per scalar
	table *tableSpec // fTable, fVecTable
	union *unionSpec // fUnion (its tag sits in the previous slot)
	// required fields must be present (ExecuTorch's runtime dereferences them unchecked).
	required bool
}

type tableSpec struct {
	name   string
	fields []fieldSpec // index is the slot
}

type unionSpec struct {
	name    string
	members []*tableSpec // tag i (1-based) is members[i-1]
}

// verifyError is a position-annotated verification failure.
type verifyError struct {
	path string
	msg  string
}

func (e *verifyError) Error() string { return e.path + ": " + e.msg }

// pathNode is a lazily formatted path such as Program.execution_plan[0].values[3].
type pathNode struct {
	parent *pathNode
	name   string
	index  int // -1 for none
}

func (p *pathNode) String() string {
	var parts []string
	for n := p; n != nil; n = n.parent {
		s := n.name
		if n.index >= 0 {
			s = fmt.Sprintf("%s[%d]", s, n.index)
		}
		parts = append(parts, s)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".")
}

type verifier struct {
	buf    []byte
	budget int64
}

func (v *verifier) fail(p *pathNode, format string, args ...any) error {
	return &verifyError{path: p.String(), msg: fmt.Sprintf(format, args...)}
}

func (v *verifier) u16(pos int64) uint16 { return binary.LittleEndian.Uint16(v.buf[pos:]) }
func (v *verifier) u32(pos int64) uint32 { return binary.LittleEndian.Uint32(v.buf[pos:]) }

// inBounds reports whether [pos, pos+n) lies inside the buffer.
func (v *verifier) inBounds(pos, n int64) bool {
	return pos >= 0 && n >= 0 && pos <= int64(len(v.buf)) && n <= int64(len(v.buf))-pos
}

func (v *verifier) spend(p *pathNode, n int64) error {
	v.budget -= n
	if v.budget < 0 {
		return v.fail(p, "decoded size exceeds %d× the buffer size (shared or overlapping substructures)", budgetFactor)
	}
	return nil
}

// verifyRoot checks a flatbuffer whose root offset sits at byte 0.
func verifyRoot(buf []byte, root *tableSpec) error {
	v := &verifier{buf: buf, budget: budgetFactor * int64(len(buf))}
	p := &pathNode{name: root.name, index: -1}
	if len(buf) < 8 {
		return v.fail(p, "buffer of %d bytes is too short for a flatbuffer", len(buf))
	}
	pos := int64(v.u32(0))
	return v.table(pos, root, p, 0)
}

// deref follows the uoffset stored at pos.
func (v *verifier) deref(pos int64, p *pathNode) (int64, error) {
	if !v.inBounds(pos, 4) {
		return 0, v.fail(p, "offset at %d is outside the buffer", pos)
	}
	target := pos + int64(v.u32(pos))
	if !v.inBounds(target, 4) {
		return 0, v.fail(p, "offset at %d points to %d, outside the %d-byte buffer", pos, target, len(v.buf))
	}
	return target, nil
}

func (v *verifier) table(pos int64, spec *tableSpec, p *pathNode, depth int) error {
	if depth > maxDepth {
		return v.fail(p, "tables nested deeper than %d", maxDepth)
	}
	if !v.inBounds(pos, 4) || pos%4 != 0 {
		return v.fail(p, "table at %d is outside the buffer or misaligned", pos)
	}
	vt := pos - int64(int32(v.u32(pos)))
	if !v.inBounds(vt, 4) || vt%2 != 0 {
		return v.fail(p, "vtable at %d (table at %d) is outside the buffer or misaligned", vt, pos)
	}
	vtSize, tSize := int64(v.u16(vt)), int64(v.u16(vt+2))
	if vtSize < 4 || vtSize%2 != 0 || !v.inBounds(vt, vtSize) {
		return v.fail(p, "vtable at %d has bad size %d", vt, vtSize)
	}
	if tSize < 4 || !v.inBounds(pos, tSize) {
		return v.fail(p, "table at %d has bad inline size %d", pos, tSize)
	}
	if err := v.spend(p, tSize); err != nil {
		return err
	}
	var unionTag byte
	for slot, f := range spec.fields {
		vo := int64(4 + 2*slot)
		fo := int64(0)
		if vo+2 <= vtSize {
			fo = int64(v.u16(vt + vo))
		}
		fp := &pathNode{parent: p, name: f.name, index: -1}
		if fo == 0 {
			if f.required {
				return v.fail(fp, "required field is missing")
			}
			if f.kind == fUnionType {
				unionTag = 0
			}
			continue
		}
		width := int64(4)
		if f.kind == fScalar {
			width = int64(f.size)
		} else if f.kind == fUnionType {
			width = 1
		}
		// Like flatbuffers' own verifier, require the field inside the buffer, not inside the
		// table's recorded inline size: official files have 8-byte fields that extend past it.
		if fo < 4 || !v.inBounds(pos+fo, width) {
			return v.fail(fp, "field at table offset %d (width %d) is outside the buffer", fo, width)
		}
		at := pos + fo
		switch f.kind {
		case fScalar:
		case fUnionType:
			unionTag = v.buf[at]
		case fString:
			if err := v.str(at, fp); err != nil {
				return err
			}
		case fTable:
			t, err := v.deref(at, fp)
			if err != nil {
				return err
			}
			if err := v.table(t, f.table, fp, depth+1); err != nil {
				return err
			}
		case fUnion:
			if unionTag == 0 {
				continue // NONE: the value is never read
			}
			if int(unionTag) > len(f.union.members) {
				return v.fail(fp, "unknown %s tag %d (known: 1..%d)", f.union.name, unionTag, len(f.union.members))
			}
			m := f.union.members[unionTag-1]
			t, err := v.deref(at, fp)
			if err != nil {
				return err
			}
			fp.name = fmt.Sprintf("%s<%s>", f.name, m.name)
			if err := v.table(t, m, fp, depth+1); err != nil {
				return err
			}
		case fVecScalar, fVecString, fVecTable:
			if err := v.vector(at, f, fp, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

func (v *verifier) str(at int64, p *pathNode) error {
	s, err := v.deref(at, p)
	if err != nil {
		return err
	}
	n := int64(v.u32(s))
	// n+1: the terminating NUL must be inside the buffer too.
	if !v.inBounds(s+4, n+1) {
		return v.fail(p, "string of %d bytes at %d runs past the end of the buffer", n, s)
	}
	return v.spend(p, n+1)
}

func (v *verifier) vector(at int64, f fieldSpec, p *pathNode, depth int) error {
	vec, err := v.deref(at, p)
	if err != nil {
		return err
	}
	n := int64(v.u32(vec))
	elem := int64(4)
	if f.kind == fVecScalar {
		elem = int64(f.size)
	}
	// n < 2^32 and elem <= 8, so n*elem cannot overflow int64.
	if !v.inBounds(vec+4, n*elem) {
		return v.fail(p, "vector of %d elements at %d runs past the end of the buffer", n, vec)
	}
	if err := v.spend(p, 4+n*elem); err != nil {
		return err
	}
	for i := int64(0); i < n && f.kind != fVecScalar; i++ {
		ep := &pathNode{parent: p.parent, name: p.name, index: int(i)}
		at := vec + 4 + i*4
		if f.kind == fVecString {
			if err := v.str(at, ep); err != nil {
				return err
			}
			continue
		}
		t, err := v.deref(at, ep)
		if err != nil {
			return err
		}
		if err := v.table(t, f.table, ep, depth+1); err != nil {
			return err
		}
	}
	return nil
}
