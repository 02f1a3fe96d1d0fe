package pte

import (
	"fmt"

	"github.com/etgo/etgo/internal/fbverify"
	"github.com/etgo/etgo/internal/fileio"
)

// File is a verified .pte file: its decoded Program, its extended header, and the bytes of its
// segments. Data accessors return slices of the file's bytes (memory-mapped by Open); nothing is
// copied. A File is immutable and safe for concurrent use; the slices it returns are valid until
// Close.
type File struct {
	Program *Program
	// Header is nil for files without an extended header (no segment data).
	Header *ExtendedHeader

	data     []byte
	segments [][]byte // Program.Segments resolved to bytes
	release  func() error
}

// Parse verifies and decodes a .pte held in memory. The File aliases data.
func Parse(data []byte) (*File, error) {
	if err := identify(data); err != nil {
		return nil, err
	}
	h, err := ParseExtendedHeader(data[:min(len(data), 64)], int64(len(data)))
	if err != nil {
		return nil, err
	}
	programSize := uint64(len(data))
	if h != nil {
		programSize = h.ProgramSize
	}
	fb := data[:programSize]
	if err := fbverify.Verify(fb, specProgram); err != nil {
		return nil, fmt.Errorf("%w: flatbuffer: %v", ErrInvalidProgram, err)
	}
	f := &File{Program: decodeProgram(fb), Header: h, data: data}
	if err := f.resolveSegments(); err != nil {
		return nil, err
	}
	if err := validate(f); err != nil {
		return nil, err
	}
	return f, nil
}

// Open memory-maps (or, where the OS cannot, reads within MaxReadBytes) a .pte file and verifies
// it. Only regular files are opened: a directory, device or FIFO is refused with an error wrapping
// ErrNotRegularFile, before it is opened. Errors name the path. Close releases the mapping.
func Open(path string) (*File, error) {
	data, release, err := mapFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Parse(data)
	if err != nil {
		release()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.release = release
	return f, nil
}

// Close releases the file's memory. Slices returned by the File are invalid afterwards.
func (f *File) Close() error {
	if f.release == nil {
		return nil
	}
	r := f.release
	f.release = nil
	return r()
}

// Bytes returns the whole file.
func (f *File) Bytes() []byte { return f.data }

func (f *File) resolveSegments() error {
	segs := f.Program.Segments
	f.segments = make([][]byte, len(segs))
	var base uint64
	if f.Header != nil {
		base = f.Header.SegmentBaseOffset
	}
	size := uint64(len(f.data))
	for i, s := range segs {
		if s.Size == 0 {
			f.segments[i] = []byte{}
			continue
		}
		if base == 0 {
			return fmt.Errorf("%w: segment %d holds %d bytes, but the file has no extended header locating segments", ErrInvalidProgram, i, s.Size)
		}
		// Written so that no sum can overflow: every term is checked against size first.
		if s.Offset > size || s.Size > size || base+s.Offset > size-s.Size {
			return fmt.Errorf("%w: segment %d (offset %d, size %d from base %d) runs past the end of the file (%d bytes)", ErrInvalidProgram, i, s.Offset, s.Size, base, size)
		}
		start := base + s.Offset
		f.segments[i] = f.data[start : start+s.Size : start+s.Size]
	}
	return nil
}

// Segment returns the bytes of segment i.
func (f *File) Segment(i int) ([]byte, error) {
	if i < 0 || i >= len(f.segments) {
		return nil, fmt.Errorf("%w: segment %d (the file has %d)", ErrNotFound, i, len(f.segments))
	}
	return f.segments[i], nil
}

// MethodNames lists the execution plans in file order.
func (f *File) MethodNames() []string {
	names := make([]string, len(f.Program.ExecutionPlans))
	for i, p := range f.Program.ExecutionPlans {
		names[i] = p.Name
	}
	return names
}

// Method returns the execution plan with the given name.
func (f *File) Method(name string) (*ExecutionPlan, error) {
	for _, p := range f.Program.ExecutionPlans {
		if p.Name == name {
			return p, nil
		}
	}
	return nil, fmt.Errorf("%w: method %q (the program has %q)", ErrNotFound, name, f.MethodNames())
}

// DelegateData returns the blob of a delegate, inline or in a segment.
func (f *File) DelegateData(d *BackendDelegate) ([]byte, error) {
	if d.Processed == nil {
		return nil, fmt.Errorf("%w: delegate %q has no processed data", ErrInvalidProgram, d.ID)
	}
	i := int(d.Processed.Index)
	switch d.Processed.Location {
	case locationInline:
		if i >= len(f.Program.BackendDelegateData) {
			return nil, fmt.Errorf("%w: delegate %q: inline data %d (the program has %d)", ErrInvalidProgram, d.ID, i, len(f.Program.BackendDelegateData))
		}
		return f.Program.BackendDelegateData[i].Data, nil
	case locationSegment:
		return f.Segment(i)
	}
	return nil, fmt.Errorf("%w: delegate %q: unknown data location %d", ErrInvalidProgram, d.ID, d.Processed.Location)
}

// NamedData returns the segment that a named-data key maps to.
func (f *File) NamedData(key string) ([]byte, error) {
	for _, nd := range f.Program.NamedData {
		if nd.Key == key {
			return f.Segment(int(nd.SegmentIndex))
		}
	}
	return nil, fmt.Errorf("%w: named data %q", ErrNotFound, key)
}

// TensorData returns the serialized bytes of a tensor: a constant (constant segment or the
// deprecated inline constant buffer) or the initial value of a mutable planned tensor. It
// returns nil for tensors without serialized data (activations, inputs), and an error wrapping
// ErrExternalData, naming the tensor, for data kept in a .ptd file.
func (f *File) TensorData(t *Tensor) ([]byte, error) {
	if t.ExtraTensorInfo != nil && t.ExtraTensorInfo.Location == locationExternal {
		return nil, fmt.Errorf("%w: tensor %q", ErrExternalData, t.ExtraTensorInfo.FullyQualifiedName)
	}
	if t.DataBufferIdx == 0 {
		return nil, nil
	}
	n, err := t.NBytes()
	if err != nil {
		return nil, err
	}
	idx := int(t.DataBufferIdx)
	p := f.Program
	if t.AllocationInfo != nil {
		if len(p.MutableDataSegments) == 0 {
			return nil, fmt.Errorf("%w: mutable tensor data %d, but the program has no mutable data segments", ErrInvalidProgram, idx)
		}
		return f.subsegment(p.MutableDataSegments[0], idx, n, "mutable data")
	}
	if p.ConstantSegment != nil && len(p.ConstantSegment.Offsets) > 1 {
		return f.subsegment(*p.ConstantSegment, idx, n, "constant")
	}
	if idx >= len(p.ConstantBuffer) {
		return nil, fmt.Errorf("%w: constant %d, but the program has %d inline constant buffers", ErrInvalidProgram, idx, len(p.ConstantBuffer))
	}
	b := p.ConstantBuffer[idx].Storage
	if uint64(len(b)) < n {
		return nil, fmt.Errorf("%w: inline constant %d has %d bytes, the tensor needs %d", ErrInvalidProgram, idx, len(b), n)
	}
	return b[:n:n], nil
}

func (f *File) subsegment(s SubsegmentOffsets, idx int, n uint64, what string) ([]byte, error) {
	if idx >= len(s.Offsets) {
		return nil, fmt.Errorf("%w: %s %d, but the segment lists %d", ErrInvalidProgram, what, idx, len(s.Offsets))
	}
	seg, err := f.Segment(int(s.SegmentIndex))
	if err != nil {
		return nil, fmt.Errorf("%w: %s segment: %v", ErrInvalidProgram, what, err)
	}
	off := s.Offsets[idx]
	if off > uint64(len(seg)) || n > uint64(len(seg))-off {
		return nil, fmt.Errorf("%w: %s %d (%d bytes at %d) runs past its segment's %d bytes", ErrInvalidProgram, what, idx, n, off, len(seg))
	}
	return seg[off : off+n : off+n], nil
}

// ExternalTensors lists the fully qualified names of tensors whose data lives in a .ptd file,
// per method, in value order.
func (f *File) ExternalTensors() map[string][]string {
	out := map[string][]string{}
	for _, n := range f.Program.Needs() {
		if n.Kind == NeedData {
			out[n.Method] = append(out[n.Method], n.Name)
		}
	}
	return out
}

// readFile is the portable fallback of mapFile: a regular file read whole, within MaxReadBytes.
func readFile(path string) ([]byte, func() error, error) {
	b, err := fileio.ReadRegular(path, MaxReadBytes)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return nil }, nil
}
