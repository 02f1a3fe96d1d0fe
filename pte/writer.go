package pte

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
)

// Contents is a program as a writer sees it: the tables, plus the bytes that the file lays out
// into segments. It is what an emitter produces and what File.Contents recovers from a file.
type Contents struct {
	// Program holds the tables. The writer recomputes, on a copy, every layout field: Segments,
	// ConstantSegment, ConstantBuffer, MutableDataSegments, NamedData, BackendDelegateData and
	// each delegate's Processed reference.
	Program *Program
	// Constants[k] is the data of the constant tensors with DataBufferIdx k; Constants[0] is the
	// reserved empty entry.
	Constants [][]byte
	// MutableData[k] is the initial data of the mutable planned tensors with DataBufferIdx k
	// (entry 0 reserved); nil when the program has none.
	MutableData [][]byte
	// DelegateData holds the delegate blobs; each BackendDelegate's Processed must be INLINE with
	// an index into it.
	DelegateData [][]byte
	// NamedData is the key → bytes store handed to delegates (XNNPACK weights).
	NamedData []NamedBlob
}

// NamedBlob is one named-data entry; Alignment (0 means 1) is the alignment its segment needs.
type NamedBlob struct {
	Key       string
	Data      []byte
	Alignment int
}

// WriteOptions are the serializer settings of ExecuTorch's ExecutorchBackendConfig.
type WriteOptions struct {
	// SegmentAlignment aligns every segment (default 128); a power of two.
	SegmentAlignment int
	// ConstantAlignment pads each constant in the constant segment (default 16); a power of two.
	ConstantAlignment int
	// DelegateAlignment is the force_align of inline delegate and constant data (default 16).
	DelegateAlignment int
	// InlineDelegates keeps delegate blobs inside the flatbuffer instead of moving them into
	// segments (the default, like to_executorch, moves them).
	InlineDelegates bool
}

// DefaultWriteOptions are to_executorch's defaults.
var DefaultWriteOptions = WriteOptions{SegmentAlignment: 128, ConstantAlignment: 16, DelegateAlignment: 16}

func (o WriteOptions) check() (WriteOptions, error) {
	d := DefaultWriteOptions
	if o.SegmentAlignment == 0 {
		o.SegmentAlignment = d.SegmentAlignment
	}
	if o.ConstantAlignment == 0 {
		o.ConstantAlignment = d.ConstantAlignment
	}
	if o.DelegateAlignment == 0 {
		o.DelegateAlignment = d.DelegateAlignment
	}
	for _, a := range []int{o.SegmentAlignment, o.ConstantAlignment, o.DelegateAlignment} {
		if a < 1 || a&(a-1) != 0 {
			return o, fmt.Errorf("pte: alignment %d is not a power of two", a)
		}
	}
	return o, nil
}

func alignUp(n, a uint64) uint64 { return (n + a - 1) / a * a }

func lcm(a, b int) int {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// segment is one segment's data and the alignment it needs beyond the segment alignment.
type segment struct {
	data      []byte
	alignment int
}

// Write serializes c into a .pte, with ExecuTorch's layout: the constants concatenated into one
// constant segment (each padded to ConstantAlignment), the mutable data segment, the delegate
// blobs (deduplicated by content), the named data; each segment aligned; and the extended header
// only when segments hold bytes.
func Write(c *Contents, opts WriteOptions) ([]byte, error) {
	opts, err := opts.check()
	if err != nil {
		return nil, err
	}
	if c.Program == nil {
		return nil, fmt.Errorf("pte: nothing to write (no program)")
	}
	p := *c.Program
	p.ExecutionPlans = make([]*ExecutionPlan, len(c.Program.ExecutionPlans))
	p.ConstantBuffer = []Buffer{}
	p.Segments = []DataSegment{}
	p.MutableDataSegments, p.NamedData = nil, nil
	var segs []segment

	// Constants: one segment, always, as the emitter always has the placeholder entry.
	constants := c.Constants
	if len(constants) == 0 {
		constants = [][]byte{{}}
	}
	data, offsets := concat(constants, opts.ConstantAlignment)
	p.ConstantSegment = &SubsegmentOffsets{SegmentIndex: uint32(len(segs)), Offsets: offsets}
	segs = append(segs, segment{data: data})

	if len(c.MutableData) > 0 {
		data, offsets := concat(c.MutableData, 1) // copied at load, so packed
		if len(data) > 0 {
			p.MutableDataSegments = []SubsegmentOffsets{{SegmentIndex: uint32(len(segs)), Offsets: offsets}}
			segs = append(segs, segment{data: data})
		}
	}

	// Delegates: blobs move into segments (deduplicated by content); empty ones stay inline.
	p.BackendDelegateData = []InlineData{}
	bySegment := newDedup()
	for i, plan := range c.Program.ExecutionPlans {
		cp := *plan
		cp.Delegates = make([]BackendDelegate, len(plan.Delegates))
		for j, d := range plan.Delegates {
			if d.Processed == nil || d.Processed.Location != locationInline || int(d.Processed.Index) >= len(c.DelegateData) {
				return nil, fmt.Errorf("pte: plan %q delegate %d %q: processed data must be INLINE with an index into Contents.DelegateData (%d blobs)", plan.Name, j, d.ID, len(c.DelegateData))
			}
			blob := c.DelegateData[d.Processed.Index]
			ref := &DataReference{Location: locationInline}
			if len(blob) > 0 && !opts.InlineDelegates {
				k, ok := bySegment.find(blob, segs)
				if !ok {
					k = len(segs)
					bySegment.add(blob, k)
					segs = append(segs, segment{data: blob})
				}
				ref = &DataReference{Location: locationSegment, Index: uint32(k)}
			} else {
				ref.Index = uint32(len(p.BackendDelegateData))
				p.BackendDelegateData = append(p.BackendDelegateData, InlineData{Data: blob})
			}
			d.Processed = ref
			cp.Delegates[j] = d
		}
		p.ExecutionPlans[i] = &cp
	}

	if c.NamedData != nil {
		p.NamedData = make([]NamedData, len(c.NamedData))
		byData := newDedup()
		for i, nd := range c.NamedData {
			k, ok := byData.find(nd.Data, segs)
			if !ok {
				k = len(segs)
				byData.add(nd.Data, k)
				segs = append(segs, segment{data: nd.Data, alignment: max(nd.Alignment, 1)})
			}
			p.NamedData[i] = NamedData{Key: nd.Key, SegmentIndex: uint32(k)}
		}
	}

	// Lay the segments out, each aligned to lcm(segment alignment, its own).
	var bodyLen uint64
	for _, s := range segs {
		a := uint64(lcm(opts.SegmentAlignment, max(s.alignment, 1)))
		off := alignUp(bodyLen, a)
		p.Segments = append(p.Segments, DataSegment{Offset: off, Size: uint64(len(s.data))})
		bodyLen = off + uint64(len(s.data))
	}

	fb := encodeProgram(&p, opts.ConstantAlignment, opts.DelegateAlignment)
	if bodyLen == 0 {
		return fb, nil
	}
	// Insert the extended header after the identifier, padded to the flatbuffer's largest
	// alignment so that every offset after it keeps its alignment.
	hdrLen := alignUp(extendedHeaderLen, uint64(max(opts.DelegateAlignment, opts.ConstantAlignment)))
	programSize := hdrLen + uint64(len(fb))
	h := ExtendedHeader{
		Length:            extendedHeaderLen,
		ProgramSize:       programSize,
		SegmentBaseOffset: alignUp(programSize, uint64(opts.SegmentAlignment)),
		SegmentDataSize:   bodyLen,
	}
	// One allocation of the file's size, each segment copied once into place (a ViT-B/16's
	// 346 MB went through a growing buffer and a second copy before).
	out := make([]byte, h.SegmentBaseOffset+h.SegmentDataSize)
	binary.LittleEndian.PutUint32(out, binary.LittleEndian.Uint32(fb)+uint32(hdrLen))
	copy(out[4:8], fb[4:8])
	copy(out[8:], h.encode())
	copy(out[8+hdrLen:], fb[8:]) // the header and its padding sit between the identifier and the rest
	for i, s := range segs {
		copy(out[h.SegmentBaseOffset+p.Segments[i].Offset:], s.data)
	}
	return out, nil
}

// dedup finds a byte string among those already added without copying any of them into map
// keys: by a fast hash, then byte for byte.
type dedup struct {
	seed maphash.Seed
	by   map[uint64][]int
}

func newDedup() *dedup { return &dedup{seed: maphash.MakeSeed(), by: map[uint64][]int{}} }

func (d *dedup) find(b []byte, segs []segment) (int, bool) {
	for _, k := range d.by[maphash.Bytes(d.seed, b)] {
		if bytes.Equal(segs[k].data, b) {
			return k, true
		}
	}
	return 0, false
}

func (d *dedup) add(b []byte, k int) {
	h := maphash.Bytes(d.seed, b)
	d.by[h] = append(d.by[h], k)
}

// concat joins entries, padding each but the last to align, and returns each entry's offset.
func concat(entries [][]byte, align int) ([]byte, []uint64) {
	var out []byte
	offsets := make([]uint64, len(entries))
	for i, e := range entries {
		offsets[i] = uint64(len(out))
		out = append(out, e...)
		if i < len(entries)-1 {
			out = append(out, make([]byte, alignUp(uint64(len(e)), uint64(align))-uint64(len(e)))...)
		}
	}
	return out, offsets
}

// Contents recovers what Write needs from a file: the tables and every piece of data, as
// slices of the file (nothing is copied). Constant and mutable entries span from their offset
// to the next entry's (padding included), which Write reproduces exactly.
func (f *File) Contents() (*Contents, error) {
	p := f.Program
	c := &Contents{}
	var err error
	switch {
	case p.ConstantSegment != nil && len(p.ConstantSegment.Offsets) > 0:
		seg, serr := f.Segment(int(p.ConstantSegment.SegmentIndex))
		if serr != nil {
			return nil, fmt.Errorf("%w: constant segment: %v", ErrInvalidProgram, serr)
		}
		if c.Constants, err = spans(seg, p.ConstantSegment.Offsets); err != nil {
			return nil, fmt.Errorf("constant segment: %w", err)
		}
	default:
		for _, b := range p.ConstantBuffer {
			c.Constants = append(c.Constants, b.Storage)
		}
	}
	if len(p.MutableDataSegments) > 0 {
		m := p.MutableDataSegments[0]
		seg, serr := f.Segment(int(m.SegmentIndex))
		if serr != nil {
			return nil, fmt.Errorf("%w: mutable data segment: %v", ErrInvalidProgram, serr)
		}
		if c.MutableData, err = spans(seg, m.Offsets); err != nil {
			return nil, fmt.Errorf("mutable data segment: %w", err)
		}
	}
	// Delegate blobs become inline references; a blob shared by several delegates stays shared.
	cp := *p
	cp.ExecutionPlans = make([]*ExecutionPlan, len(p.ExecutionPlans))
	seen := map[DataReference]uint32{}
	for i, plan := range p.ExecutionPlans {
		pc := *plan
		pc.Delegates = make([]BackendDelegate, len(plan.Delegates))
		for j, d := range plan.Delegates {
			blob, err := f.DelegateData(&d)
			if err != nil {
				return nil, err
			}
			k, ok := seen[*d.Processed]
			if !ok {
				k = uint32(len(c.DelegateData))
				seen[*d.Processed] = k
				c.DelegateData = append(c.DelegateData, blob)
			}
			d.Processed = &DataReference{Location: locationInline, Index: k}
			pc.Delegates[j] = d
		}
		cp.ExecutionPlans[i] = &pc
	}
	c.Program = &cp
	if p.NamedData != nil {
		c.NamedData = make([]NamedBlob, len(p.NamedData))
		for i, nd := range p.NamedData {
			seg, err := f.Segment(int(nd.SegmentIndex))
			if err != nil {
				return nil, fmt.Errorf("%w: named data %q: %v", ErrInvalidProgram, nd.Key, err)
			}
			c.NamedData[i] = NamedBlob{Key: nd.Key, Data: seg}
		}
	}
	return c, nil
}

// spans cuts seg at offsets: entry k runs to entry k+1's offset, the last to the segment's end.
// validate guarantees every offset lies inside seg; the writer's layout needs them increasing.
func spans(seg []byte, offsets []uint64) ([][]byte, error) {
	out := make([][]byte, len(offsets))
	for k, off := range offsets {
		end := uint64(len(seg))
		if k+1 < len(offsets) {
			end = offsets[k+1]
		}
		if end < off {
			return nil, fmt.Errorf("%w: offset %d (%d) is after offset %d (%d); entries must be in order to be rewritten", ErrInvalidProgram, k, off, k+1, end)
		}
		out[k] = seg[off:end:end]
	}
	return out, nil
}
