// Package fbverify verifies a flatbuffer against a description of its schema before any
// generated accessor touches it: the flatbuffers Go runtime has no verifier, and its accessors
// index the buffer without bounds checks.
//
// After Verify accepts a buffer, every table, vector and string the schema declares lies inside
// it, every union tag is known, every required field is present, and decoding it allocates at
// most BudgetFactor times its size. Errors carry the path of the offending field, e.g.
// "Program.execution_plan[0].values[3].val<Tensor>.sizes: ...".
package fbverify

import (
	"encoding/binary"
	"fmt"
	"strings"
)

const (
	// maxDepth bounds table nesting; the deepest legitimate path in program.fbs is 6.
	maxDepth = 32
	// BudgetFactor bounds the total size of everything verify visits, relative to the buffer.
	// Regions of a well-formed buffer are disjoint, so a legitimate file costs at most its
	// size; only shared substructures (one table referenced from many places) can cost more,
	// and they would make decoding allocate without bound.
	BudgetFactor = 2
)

// Kind is how a field is stored.
type Kind uint8

const (
	KScalar     Kind = iota // inline scalar of size bytes
	KString                 // offset to a string
	KTable                  // offset to a table
	KVecScalar              // offset to a vector of size-byte scalars
	KVecString              // offset to a vector of strings
	KVecTable               // offset to a vector of tables
	KUnionType              // u8 tag of the union in the next slot
	KUnionValue             // offset to the union's member table
)

// Field describes one slot of a table.
type Field struct {
	Name  string
	Kind  Kind
	Size  int    // KScalar, KVecScalar: bytes per scalar
	Table *Table // KTable, KVecTable
	Union *Union // KUnionValue (its tag sits in the previous slot)
	// Required fields must be present.
	Required bool
}

// Table describes a table's slots in order.
type Table struct {
	Name   string
	Fields []Field // index is the slot
}

// Union describes a union's members; a union field takes two slots (tag, then value).
type Union struct {
	Name    string
	Members []*Table // tag i (1-based) is Members[i-1]
}

// Scalar is an inline scalar of size bytes.
func Scalar(name string, size int) Field { return Field{Name: name, Kind: KScalar, Size: size} }

// Str is a string.
func Str(name string) Field { return Field{Name: name, Kind: KString} }

// Ref is a sub-table.
func Ref(name string, t *Table) Field { return Field{Name: name, Kind: KTable, Table: t} }

// VecScalar is a vector of size-byte scalars.
func VecScalar(name string, size int) Field { return Field{Name: name, Kind: KVecScalar, Size: size} }

// VecTable is a vector of tables.
func VecTable(name string, t *Table) Field { return Field{Name: name, Kind: KVecTable, Table: t} }

// UnionOf returns the two slots of a union field: its tag, then its value.
func UnionOf(name string, u *Union) []Field {
	return []Field{{Name: name + "_type", Kind: KUnionType, Size: 1}, {Name: name, Kind: KUnionValue, Union: u}}
}

// Req marks a field required.
func Req(f Field) Field {
	f.Required = true
	return f
}

// Fields flattens Field and []Field arguments into a slot list.
func Fields(parts ...any) []Field {
	var out []Field
	for _, p := range parts {
		switch p := p.(type) {
		case Field:
			out = append(out, p)
		case []Field:
			out = append(out, p...)
		}
	}
	return out
}

// NewTable describes a table from its slots (Field and []Field values, in slot order).
func NewTable(name string, slots ...any) *Table { return &Table{Name: name, Fields: Fields(slots...)} }

// NewUnion describes a union from its members in tag order.
func NewUnion(name string, members ...*Table) *Union { return &Union{Name: name, Members: members} }

// Error is a verification failure at a path in the buffer.
type Error struct {
	path string
	msg  string
}

func (e *Error) Error() string { return e.path + ": " + e.msg }

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
	return &Error{path: p.String(), msg: fmt.Sprintf(format, args...)}
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
		return v.fail(p, "decoded size exceeds %d× the buffer size (shared or overlapping substructures)", BudgetFactor)
	}
	return nil
}

// Verify checks a flatbuffer whose root offset sits at byte 0 against the root table's schema.
func Verify(buf []byte, root *Table) error {
	v := &verifier{buf: buf, budget: BudgetFactor * int64(len(buf))}
	p := &pathNode{name: root.Name, index: -1}
	if len(buf) < 8 {
		return v.fail(p, "buffer of %d bytes is too short for a flatbuffer", len(buf))
	}
	pos := int64(v.u32(0))
	return v.table(pos, root, p, 0)
}

// VerifySizePrefixed checks a size-prefixed flatbuffer (a little-endian uint32 length, then the
// buffer, as flatbuffers' FinishSizePrefixed writes it and ExecuTorch's ETDump is stored): the
// length must fit, and alignment is checked relative to the start of buf, prefix included,
// which is how the builder aligned it.
func VerifySizePrefixed(buf []byte, root *Table) error {
	p := &pathNode{name: root.Name, index: -1}
	if len(buf) < 12 {
		return (&verifier{}).fail(p, "buffer of %d bytes is too short for a size-prefixed flatbuffer", len(buf))
	}
	n := int64(binary.LittleEndian.Uint32(buf))
	if n > int64(len(buf))-4 {
		return (&verifier{}).fail(p, "the size prefix says %d bytes, the buffer has %d after it", n, len(buf)-4)
	}
	// The prefix also bounds the buffer from below: what it sizes must hold a root offset and
	// an identifier, or reading the root offset would run past it.
	if n < 8 {
		return (&verifier{}).fail(p, "the size prefix says %d bytes, too few for a flatbuffer", n)
	}
	buf = buf[:4+n]
	v := &verifier{buf: buf, budget: BudgetFactor * int64(len(buf))}
	return v.table(4+int64(v.u32(4)), root, p, 0)
}

// deref follows the uoffset stored at pos.
func (v *verifier) deref(pos int64, p *pathNode) (int64, error) {
	if !v.inBounds(pos, 4) {
		return 0, v.fail(p, "offset at %d is outside the buffer", pos)
	}
	o := v.u32(pos)
	if o == 0 {
		// flatbuffers' own Verifier refuses an offset to itself ("may not point to itself"),
		// which a zeroed field would otherwise read as an empty vector or a table at the field.
		return 0, v.fail(p, "offset at %d is 0 (points to itself)", pos)
	}
	target := pos + int64(o)
	if !v.inBounds(target, 4) {
		return 0, v.fail(p, "offset at %d points to %d, outside the %d-byte buffer", pos, target, len(v.buf))
	}
	return target, nil
}

func (v *verifier) table(pos int64, spec *Table, p *pathNode, depth int) error {
	if depth > maxDepth {
		return v.fail(p, "tables nested deeper than %d", maxDepth)
	}
	if !v.inBounds(pos, 4) || pos%4 != 0 {
		return v.fail(p, "table at %d is outside the buffer or misaligned", pos)
	}
	vt := pos - int64(int32(v.u32(pos)))
	if !v.inBounds(vt, 2) || vt%2 != 0 {
		return v.fail(p, "vtable at %d (table at %d) is outside the buffer or misaligned", vt, pos)
	}
	// As flatbuffers' verifier: the vtable (of an even size) inside the buffer; the table's
	// recorded inline size is not checked, every field present is (a vtable shorter than a
	// slot means the field is absent).
	vtSize := int64(v.u16(vt))
	if vtSize%2 != 0 || !v.inBounds(vt, vtSize) {
		return v.fail(p, "vtable at %d has bad size %d", vt, vtSize)
	}
	if err := v.spend(p, 4); err != nil {
		return err
	}
	var unionTag byte
	for slot, f := range spec.Fields {
		vo := int64(4 + 2*slot)
		fo := int64(0)
		if vo+2 <= vtSize {
			fo = int64(v.u16(vt + vo))
		}
		fp := &pathNode{parent: p, name: f.Name, index: -1}
		if fo == 0 {
			if f.Required {
				return v.fail(fp, "required field is missing")
			}
			if f.Kind == KUnionType {
				unionTag = 0
			}
			continue
		}
		width := int64(4)
		if f.Kind == KScalar {
			width = int64(f.Size)
		} else if f.Kind == KUnionType {
			width = 1
		}
		// Like flatbuffers' own verifier, require the field inside the buffer, not inside the
		// table's recorded inline size: official files have 8-byte fields that extend past it.
		if fo < 4 || !v.inBounds(pos+fo, width) {
			return v.fail(fp, "field at table offset %d (width %d) is outside the buffer", fo, width)
		}
		at := pos + fo
		// Like flatbuffers' verifier, a field must be aligned to its width (scalars) or to
		// an offset's 4 bytes, relative to the buffer's start.
		if at%width != 0 {
			return v.fail(fp, "field at %d is not aligned to %d bytes", at, width)
		}
		switch f.Kind {
		case KScalar:
		case KUnionType:
			unionTag = v.buf[at]
		case KString:
			if err := v.str(at, fp); err != nil {
				return err
			}
		case KTable:
			t, err := v.deref(at, fp)
			if err != nil {
				return err
			}
			if err := v.table(t, f.Table, fp, depth+1); err != nil {
				return err
			}
		case KUnionValue:
			if unionTag == 0 {
				continue // NONE: the value is never read
			}
			if int(unionTag) > len(f.Union.Members) {
				return v.fail(fp, "unknown %s tag %d (known: 1..%d)", f.Union.Name, unionTag, len(f.Union.Members))
			}
			m := f.Union.Members[unionTag-1]
			t, err := v.deref(at, fp)
			if err != nil {
				return err
			}
			fp.name = fmt.Sprintf("%s<%s>", f.Name, m.Name)
			if err := v.table(t, m, fp, depth+1); err != nil {
				return err
			}
		case KVecScalar, KVecString, KVecTable:
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
	if s%4 != 0 {
		return v.fail(p, "string at %d is not aligned to 4 bytes", s)
	}
	n := int64(v.u32(s))
	// n+1: the terminating NUL must be inside the buffer too, and be a NUL.
	if !v.inBounds(s+4, n+1) {
		return v.fail(p, "string of %d bytes at %d runs past the end of the buffer", n, s)
	}
	if v.buf[s+4+n] != 0 {
		return v.fail(p, "string of %d bytes at %d is not NUL-terminated", n, s)
	}
	return v.spend(p, n+1)
}

func (v *verifier) vector(at int64, f Field, p *pathNode, depth int) error {
	vec, err := v.deref(at, p)
	if err != nil {
		return err
	}
	if vec%4 != 0 {
		return v.fail(p, "vector at %d is not aligned to 4 bytes", vec)
	}
	n := int64(v.u32(vec))
	elem := int64(4)
	if f.Kind == KVecScalar {
		elem = int64(f.Size)
	}
	// n < 2^32 and elem <= 8, so n*elem cannot overflow int64.
	if !v.inBounds(vec+4, n*elem) {
		return v.fail(p, "vector of %d elements at %d runs past the end of the buffer", n, vec)
	}
	if err := v.spend(p, 4+n*elem); err != nil {
		return err
	}
	for i := int64(0); i < n && f.Kind != KVecScalar; i++ {
		ep := &pathNode{parent: p.parent, name: p.name, index: int(i)}
		at := vec + 4 + i*4
		if f.Kind == KVecString {
			if err := v.str(at, ep); err != nil {
				return err
			}
			continue
		}
		t, err := v.deref(at, ep)
		if err != nil {
			return err
		}
		if err := v.table(t, f.Table, ep, depth+1); err != nil {
			return err
		}
	}
	return nil
}
