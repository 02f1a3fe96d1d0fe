package pte

import (
	"encoding/binary"
	"fmt"
)

const (
	// FileIdentifier is the flatbuffer identifier of every program, at bytes 4..8.
	FileIdentifier = "ET12"
	// ExtendedHeaderMagic starts the extended header at byte 8.
	ExtendedHeaderMagic = "eh00"
	// extendedHeaderOffset is where the extended header starts: right after the identifier.
	extendedHeaderOffset = 8
	// minExtendedHeaderLen is the oldest header (no segment_data_size); the current one is 32.
	minExtendedHeaderLen = 24
	extendedHeaderLen    = 32
)

// ExtendedHeader is the "eh00" header that follows the flatbuffer identifier in files whose
// segments hold data.
type ExtendedHeader struct {
	// Length is the header's own length field: 24 (old files) or 32.
	Length uint32
	// ProgramSize is the size of the flatbuffer region from byte 0, this header included.
	ProgramSize uint64
	// SegmentBaseOffset is the file offset of the first segment (0 when there are none).
	SegmentBaseOffset uint64
	// SegmentDataSize is the size of all segment data (0 when absent, in 24-byte headers).
	SegmentDataSize uint64
}

// ParseExtendedHeader reads the extended header of a .pte file's first bytes. It returns
// (nil, nil) when the file has none (the magic is absent), and an error when the magic is present
// but the header is malformed or inconsistent with fileSize.
func ParseExtendedHeader(head []byte, fileSize int64) (*ExtendedHeader, error) {
	if len(head) < extendedHeaderOffset+8 || string(head[extendedHeaderOffset:extendedHeaderOffset+4]) != ExtendedHeaderMagic {
		return nil, nil
	}
	le := binary.LittleEndian
	h := &ExtendedHeader{Length: le.Uint32(head[12:])}
	if h.Length < minExtendedHeaderLen {
		return nil, fmt.Errorf("%w: extended header length %d is below the minimum %d", ErrInvalidProgram, h.Length, minExtendedHeaderLen)
	}
	end := uint64(extendedHeaderOffset) + uint64(h.Length)
	if end > uint64(len(head)) || int64(end) > fileSize {
		return nil, fmt.Errorf("%w: extended header of %d bytes at offset %d runs past the end of the file (%d bytes)", ErrInvalidProgram, h.Length, extendedHeaderOffset, fileSize)
	}
	h.ProgramSize = le.Uint64(head[16:])
	h.SegmentBaseOffset = le.Uint64(head[24:])
	if h.Length >= extendedHeaderLen {
		h.SegmentDataSize = le.Uint64(head[32:])
	}
	size := uint64(fileSize)
	switch {
	case h.ProgramSize < end:
		return nil, fmt.Errorf("%w: extended header program_size %d is smaller than the header's end (%d)", ErrInvalidProgram, h.ProgramSize, end)
	case h.ProgramSize > size:
		return nil, fmt.Errorf("%w: extended header program_size %d runs past the end of the file (%d bytes)", ErrInvalidProgram, h.ProgramSize, size)
	case h.SegmentBaseOffset != 0 && h.SegmentBaseOffset < h.ProgramSize:
		return nil, fmt.Errorf("%w: extended header segment_base_offset %d overlaps the program (program_size %d)", ErrInvalidProgram, h.SegmentBaseOffset, h.ProgramSize)
	case h.SegmentBaseOffset > size:
		return nil, fmt.Errorf("%w: extended header segment_base_offset %d runs past the end of the file (%d bytes)", ErrInvalidProgram, h.SegmentBaseOffset, size)
	case h.SegmentDataSize > size-h.SegmentBaseOffset:
		return nil, fmt.Errorf("%w: extended header says segments end at %d+%d, past the end of the file (%d bytes)", ErrInvalidProgram, h.SegmentBaseOffset, h.SegmentDataSize, size)
	case h.SegmentBaseOffset == 0 && h.SegmentDataSize != 0:
		return nil, fmt.Errorf("%w: extended header has segment_data_size %d but no segment_base_offset", ErrInvalidProgram, h.SegmentDataSize)
	}
	return h, nil
}

// encode returns the header's 32 bytes (Length is written as 32).
func (h *ExtendedHeader) encode() []byte {
	b := make([]byte, extendedHeaderLen)
	copy(b, ExtendedHeaderMagic)
	le := binary.LittleEndian
	le.PutUint32(b[4:], extendedHeaderLen)
	le.PutUint64(b[8:], h.ProgramSize)
	le.PutUint64(b[16:], h.SegmentBaseOffset)
	le.PutUint64(b[24:], h.SegmentDataSize)
	return b
}

// identify names what a buffer that is not an ET12 program is, or returns nil for a program.
func identify(b []byte) error {
	if len(b) < 8 {
		return fmt.Errorf("%w: %d bytes is too short for a program (needs at least 8)", ErrNotProgram, len(b))
	}
	id := string(b[4:8])
	switch {
	case id == FileIdentifier:
		return nil
	case id == "BP08" || (len(id) == 4 && id[:2] == "BP"):
		return fmt.Errorf("%w: this is a bundled program (identifier %q), which wraps a program with test inputs; extract the program first", ErrNotProgram, id)
	case id == "FT01":
		return fmt.Errorf("%w: this is a .ptd data file (FlatTensor, identifier %q), which holds external weights for a program", ErrNotProgram, id)
	case len(b) >= 12 && string(b[8:12]) == "ED00":
		return fmt.Errorf("%w: this is an ETDump (size-prefixed, identifier \"ED00\"), a runtime profile, not a program", ErrNotProgram)
	case id[:2] == "ET":
		return fmt.Errorf("%w: identifier %q is a different ExecuTorch program version; etgo reads %q", ErrIncompatibleVersion, id, FileIdentifier)
	}
	return fmt.Errorf("%w: no %q identifier at bytes 4..8 (found % x)", ErrNotProgram, FileIdentifier, b[4:8])
}
