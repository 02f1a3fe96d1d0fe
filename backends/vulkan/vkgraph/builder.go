package vkgraph

import (
	"bytes"
	"encoding/binary"
	"math"
)

// builder lays a flatbuffer out as flatc's C++ FlatBufferBuilder does when flatc compiles the
// official writer's JSON. The Go flatbuffers Builder differs from it in two ways that change
// bytes: it shares a vtable between tables whose object sizes differ (it compares only the
// field offsets), and it aligns before an empty vector. Both matter for equal-to-official
// blobs, so Encode uses this one.
//
// The buffer grows downward: buf holds the finished bytes back to front (buf[len-1] is the
// first byte of the result), so an offset is "bytes written so far", as in the C++ builder.
type builder struct {
	buf      []byte // reversed
	minAlign int
	vtables  []int // offsets (sizes at writing) of the vtables written so far
	fields   []fieldLoc
	maxVOff  int
}

type fieldLoc struct {
	off  int // size at writing
	slot int
}

// scalar is one table field's value in JSON field order, for table().
type scalar struct {
	slot  int
	size  int    // 1, 4 or 8 bytes (offsets: 4)
	bits  uint64 // little-endian value
	def   uint64 // the schema default (scalars equal to it are left out)
	isOff bool   // an offset to an object already written (bits = its offset)
}

func (b *builder) size() int { return len(b.buf) }

func (b *builder) pad(n int) {
	for range n {
		b.buf = append(b.buf, 0)
	}
}

func (b *builder) trackAlign(n int) { b.minAlign = max(b.minAlign, n) }

func paddingBytes(size, align int) int { return (-size) & (align - 1) }

func (b *builder) align(n int) {
	b.trackAlign(n)
	b.pad(paddingBytes(b.size(), n))
}

// preAlign aligns so that after n more bytes the buffer is aligned to align (nothing for n 0).
func (b *builder) preAlign(n, align int) {
	if n == 0 {
		return
	}
	b.trackAlign(align)
	b.pad(paddingBytes(b.size()+n, align))
}

// pushBytes prepends p (in its forward order).
func (b *builder) pushBytes(p []byte) {
	for i := len(p) - 1; i >= 0; i-- {
		b.buf = append(b.buf, p[i])
	}
}

// push prepends an n-byte little-endian scalar, aligned to n, and returns the offset after it.
func (b *builder) push(v uint64, n int) int {
	b.align(n)
	var tmp [8]byte
	binary.LittleEndian.PutUint64(tmp[:], v)
	b.pushBytes(tmp[:n])
	return b.size()
}

// referTo converts an object's offset into the uoffset stored at the next 4-byte position.
func (b *builder) referTo(off int) uint64 {
	b.align(4)
	return uint64(b.size() - off + 4)
}

func (b *builder) pushOffset(off int) int { return b.push(b.referTo(off), 4) }

func (b *builder) createString(s string) int {
	b.preAlign(len(s)+1, 4)
	b.pad(1)
	b.pushBytes([]byte(s))
	return b.push(uint64(len(s)), 4)
}

// vector writes n elements of elemSize bytes (elem(i) returns element i) and returns its
// offset.
func (b *builder) vector(n, elemSize int, elem func(i int) uint64) int {
	b.preAlign(n*elemSize, 4)
	b.preAlign(n*elemSize, elemSize)
	for i := n - 1; i >= 0; i-- {
		b.push(elem(i), elemSize)
	}
	return b.push(uint64(n), 4)
}

func (b *builder) offsetVector(offs []int) int {
	b.preAlign(4*len(offs), 4)
	for i := len(offs) - 1; i >= 0; i-- {
		b.pushOffset(offs[i])
	}
	return b.push(uint64(len(offs)), 4)
}

// table writes a table whose fields, in their JSON order, are fs: flatc writes them largest
// first and, among fields of one size, last first; a scalar equal to its default is left out.
func (b *builder) table(fs ...scalar) int {
	start := b.size()
	b.fields, b.maxVOff = b.fields[:0], 0
	for _, size := range []int{8, 4, 2, 1} {
		for i := len(fs) - 1; i >= 0; i-- {
			f := fs[i]
			if f.size != size || (!f.isOff && f.bits == f.def) {
				continue
			}
			v := f.bits
			if f.isOff {
				v = b.referTo(int(f.bits))
			}
			vo := 4 + 2*f.slot
			b.fields = append(b.fields, fieldLoc{off: b.push(v, size), slot: f.slot})
			b.maxVOff = max(b.maxVOff, vo)
		}
	}
	objLoc := b.push(0, 4) // the vtable's soffset, filled below
	vtSize := max(b.maxVOff+2, 4)
	vt := make([]byte, vtSize)
	le := binary.LittleEndian
	le.PutUint16(vt[0:], uint16(vtSize))
	le.PutUint16(vt[2:], uint16(objLoc-start))
	for _, f := range b.fields {
		le.PutUint16(vt[4+2*f.slot:], uint16(objLoc-f.off))
	}
	use := -1
	for _, at := range b.vtables {
		old := b.at(at, vtSize)
		if le.Uint16(b.at(at, 2)) == uint16(vtSize) && bytes.Equal(old, vt) {
			use = at
			break
		}
	}
	if use < 0 {
		b.pushBytes(vt)
		use = b.size()
		b.vtables = append(b.vtables, use)
	}
	// The soffset from the object to its vtable (the vtable sits below it: negative means after).
	so := int32(use - objLoc)
	var tmp [4]byte
	le.PutUint32(tmp[:], uint32(so))
	for i := range 4 {
		b.buf[objLoc-1-i] = tmp[i] // forward byte i of the object
	}
	return objLoc
}

// at returns n bytes in forward order starting at the object written when the size was off.
func (b *builder) at(off, n int) []byte {
	out := make([]byte, n)
	for i := range n {
		j := off - 1 - i // the reversed index of forward byte i
		if j < 0 {
			return nil
		}
		out[i] = b.buf[j]
	}
	return out
}

// finish writes the root offset after the file identifier and returns the buffer.
func (b *builder) finish(root int, ident string) []byte {
	b.preAlign(4+len(ident), b.minAlign)
	b.pushBytes([]byte(ident))
	b.pushOffset(root)
	out := make([]byte, len(b.buf))
	for i := range out {
		out[i] = b.buf[len(b.buf)-1-i]
	}
	return out
}

func f64bits(v float64) uint64 { return math.Float64bits(v) }
