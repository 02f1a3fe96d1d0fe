package fbverify

import (
	"encoding/binary"
	"fmt"
)

// Site is one present field of a buffer as Walk reports it: where its bytes are, so a tool can
// rewrite them in place (the mutation campaign flips ids, dims and tags this way).
type Site struct {
	// Path names the field, e.g. "XNNGraph.xvalues[3].xvalue_union<XNNTensorValue>.dims[1]".
	Path string
	// Table is the name of the table holding the field ("" for a vector element's own entry).
	Table string
	// Field is the schema field; for a vector's element it is the vector's field.
	Field *Field
	// Elem is the element's index for a vector element, -1 otherwise.
	Elem int
	// Pos is the absolute position of the field's inline bytes: a scalar, a union tag, or the
	// uoffset of a table, vector or string (for a vector element: the element itself).
	Pos int
	// Width is the size of those bytes: the scalar's width, 1 for a union tag, 4 for an offset.
	Width int
	// Target is where an offset points (a table, or a vector's or string's length prefix);
	// Len is a vector's element count or a string's length. Both are 0 for scalars.
	Target, Len int
	// Union is the member table a union value resolved to (nil otherwise).
	Union *Table
}

// IsScalar reports whether the site is a scalar (a table's field or a vector's element).
func (s *Site) IsScalar() bool {
	if s.Elem >= 0 {
		return s.Field.Kind == KVecScalar
	}
	return s.Field.Kind == KScalar || s.Field.Kind == KUnionType
}

// Walk verifies buf against root and then calls visit for every present field, depth first in
// slot order, vector elements after their vector. Scalars of a vector of scalars are reported
// one by one.
func Walk(buf []byte, root *Table, visit func(*Site)) error {
	if err := Verify(buf, root); err != nil {
		return err
	}
	w := &walker{buf: buf, visit: visit}
	w.table(int(binary.LittleEndian.Uint32(buf)), root, root.Name)
	return nil
}

type walker struct {
	buf   []byte
	visit func(*Site)
}

func (w *walker) u16(p int) int { return int(binary.LittleEndian.Uint16(w.buf[p:])) }
func (w *walker) u32(p int) int { return int(binary.LittleEndian.Uint32(w.buf[p:])) }

// table walks a verified table: every access below stays inside what Verify checked.
func (w *walker) table(pos int, spec *Table, path string) {
	vt := pos - int(int32(binary.LittleEndian.Uint32(w.buf[pos:])))
	vtSize := w.u16(vt)
	var tag byte
	for slot := range spec.Fields {
		f := &spec.Fields[slot]
		vo := 4 + 2*slot
		if vo+2 > vtSize {
			break
		}
		fo := w.u16(vt + vo)
		if fo == 0 {
			if f.Kind == KUnionType {
				tag = 0
			}
			continue
		}
		at := pos + fo
		s := &Site{Path: path + "." + f.Name, Table: spec.Name, Field: f, Elem: -1, Pos: at, Width: 4}
		switch f.Kind {
		case KScalar:
			s.Width = f.Size
			w.visit(s)
		case KUnionType:
			s.Width = 1
			tag = w.buf[at]
			w.visit(s)
		case KString:
			s.Target = at + w.u32(at)
			s.Len = w.u32(s.Target)
			w.visit(s)
		case KTable:
			s.Target = at + w.u32(at)
			w.visit(s)
			w.table(s.Target, f.Table, s.Path)
		case KUnionValue:
			if tag == 0 || int(tag) > len(f.Union.Members) {
				continue
			}
			m := f.Union.Members[tag-1]
			s.Target, s.Union = at+w.u32(at), m
			s.Path = fmt.Sprintf("%s.%s<%s>", path, f.Name, m.Name)
			w.visit(s)
			w.table(s.Target, m, s.Path)
		case KVecScalar, KVecString, KVecTable:
			s.Target = at + w.u32(at)
			s.Len = w.u32(s.Target)
			w.visit(s)
			for i := 0; i < s.Len; i++ {
				e := &Site{Path: fmt.Sprintf("%s[%d]", s.Path, i), Field: f, Elem: i, Width: 4}
				switch f.Kind {
				case KVecScalar:
					e.Width = f.Size
					e.Pos = s.Target + 4 + i*f.Size
					w.visit(e)
				case KVecString:
					e.Pos = s.Target + 4 + 4*i
					e.Target = e.Pos + w.u32(e.Pos)
					e.Len = w.u32(e.Target)
					w.visit(e)
				case KVecTable:
					e.Pos = s.Target + 4 + 4*i
					e.Target = e.Pos + w.u32(e.Pos)
					w.visit(e)
					w.table(e.Target, f.Table, e.Path)
				}
			}
		}
	}
}
