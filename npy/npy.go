package npy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/x448/float16"

	"github.com/etgo/etgo/internal/fileio"
)

var (
	// ErrFormat is wrapped by every error that reports a malformed or unsupported .npy file.
	ErrFormat = errors.New("npy: bad file")
	// ErrTooLarge is wrapped when Read or Load meets a header declaring more than MaxReadBytes.
	ErrTooLarge = fileio.ErrTooLarge
	// ErrNotRegularFile is wrapped when Load is given a directory.
	ErrNotRegularFile = fileio.ErrNotRegular
)

// MaxReadBytes bounds the payload Read and Load accept: 2 GiB, far above any model input, so a
// stream (a FIFO, a device) that declares more is refused before it is read.
const MaxReadBytes = 2 << 30

const (
	magic = "\x93NUMPY"
	// maxHeaderLen bounds the header dictionary. numpy refuses headers over 10,000 bytes by
	// default; a tensor header is under 200.
	maxHeaderLen = 1 << 16
	// maxRank matches numpy's NPY_MAXDIMS (64 since numpy 2.0).
	maxRank = 64
	// headerAlign is the alignment numpy pads the whole preamble to, so data can be mapped.
	headerAlign = 64
)

// Array is an n-dimensional array in C order with packed little-endian elements.
type Array struct {
	DType DType
	Shape []int
	Data  []byte
}

// NumElements returns the product of the shape (1 for a scalar, 0 when a dimension is 0).
func (a *Array) NumElements() int {
	n := 1
	for _, d := range a.Shape {
		n *= d
	}
	return n
}

// New returns a zero-filled array.
func New(dt DType, shape []int) (*Array, error) {
	n, err := byteSize(dt, shape)
	if err != nil {
		return nil, err
	}
	return &Array{DType: dt, Shape: append([]int(nil), shape...), Data: make([]byte, n)}, nil
}

// FromValues builds an array of shape from v (copied), which must hold exactly the right count.
func FromValues[T Element](shape []int, v []T) (*Array, error) {
	a, err := New(DTypeOf[T](), shape)
	if err != nil {
		return nil, err
	}
	if len(v) != a.NumElements() {
		return nil, fmt.Errorf("npy: %d values for shape %v (%d elements)", len(v), shape, a.NumElements())
	}
	if _, err := binary.Encode(a.Data, binary.LittleEndian, v); err != nil {
		return nil, fmt.Errorf("npy: encode values: %w", err)
	}
	return a, nil
}

// Values returns a copy of the elements as Go values. T must match the array's DType exactly:
// use Float64s for a converting read.
func Values[T Element](a *Array) ([]T, error) {
	if want := DTypeOf[T](); a.DType != want {
		return nil, fmt.Errorf("npy: array holds %s, not %s", a.DType, want)
	}
	if len(a.Data) != a.NumElements()*a.DType.Size() {
		return nil, fmt.Errorf("npy: array has %d data bytes for shape %v of %s", len(a.Data), a.Shape, a.DType)
	}
	v := make([]T, a.NumElements())
	if _, err := binary.Decode(a.Data, binary.LittleEndian, v); err != nil {
		return nil, fmt.Errorf("npy: decode values: %w", err)
	}
	return v, nil
}

// byteSize returns the payload size of an array, refusing negative dimensions and any shape
// whose size does not fit in an int.
func byteSize(dt DType, shape []int) (int, error) {
	if !dt.valid() {
		return 0, fmt.Errorf("npy: invalid dtype %v", dt)
	}
	if len(shape) > maxRank {
		return 0, fmt.Errorf("npy: rank %d exceeds the maximum %d", len(shape), maxRank)
	}
	n := uint64(dt.Size())
	for i, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("npy: dimension %d is negative (%d)", i, d)
		}
		hi, lo := bits.Mul64(n, uint64(d))
		if hi != 0 || lo > math.MaxInt {
			return 0, fmt.Errorf("npy: shape %v is too large", shape)
		}
		n = lo
	}
	return int(n), nil
}

// header is the parsed preamble of a file.
type header struct {
	dtype     DType
	bigEndian bool
	shape     []int
	dataStart int // offset of the first data byte
	dataLen   int // exact payload length
}

func formatErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, args...))
}

// preambleLen checks the magic and version in the first 12 bytes of b and returns where the
// header dictionary starts and ends.
func preambleLen(b []byte) (pre, end int, err error) {
	if len(b) < len(magic)+2 || string(b[:len(magic)]) != magic {
		return 0, 0, formatErr("missing the \\x93NUMPY magic at offset 0")
	}
	major, minor := b[6], b[7]
	if major < 1 || major > 3 || minor != 0 {
		return 0, 0, formatErr("unsupported format version %d.%d", major, minor)
	}
	var hlen int
	switch major {
	case 1:
		if len(b) < 10 {
			return 0, 0, formatErr("truncated in the header length at offset 8")
		}
		hlen, pre = int(binary.LittleEndian.Uint16(b[8:])), 10
	default:
		if len(b) < 12 {
			return 0, 0, formatErr("truncated in the header length at offset 8")
		}
		l := binary.LittleEndian.Uint32(b[8:])
		if l > maxHeaderLen {
			return 0, 0, formatErr("header length %d exceeds the limit %d", l, maxHeaderLen)
		}
		hlen, pre = int(l), 12
	}
	return pre, pre + hlen, nil
}

// parsePreamble parses the magic, version and header dictionary at the start of b. It needs
// only the preamble, not the payload, so Read can call it before reading data.
func parsePreamble(b []byte) (header, error) {
	var h header
	pre, end, err := preambleLen(b)
	if err != nil {
		return h, err
	}
	if len(b) < end {
		return h, formatErr("header of %d bytes at offset %d runs past the end of the file (%d bytes)", end-pre, pre, len(b))
	}
	major := b[6]
	text := b[pre:end]
	if major < 3 {
		for i, c := range text {
			if c >= 0x80 {
				return h, formatErr("non-ASCII byte 0x%02x in the header at offset %d", c, pre+i)
			}
		}
	}
	d, err := parseDict(string(text))
	if err != nil {
		return h, formatErr("header %q: %v", strings.TrimSpace(string(text)), err)
	}
	h.dtype, h.bigEndian, err = parseDescr(d.descr)
	if err != nil {
		return h, formatErr("%v", err)
	}
	if d.fortran {
		return h, formatErr("fortran_order arrays are not supported; save with np.ascontiguousarray")
	}
	h.shape = d.shape
	h.dataLen, err = byteSize(h.dtype, h.shape)
	if err != nil {
		return h, fmt.Errorf("%w: %v", ErrFormat, strings.TrimPrefix(err.Error(), "npy: "))
	}
	h.dataStart = end
	return h, nil
}

// Decode parses a whole .npy file. The returned Array's Data aliases b for little-endian files.
func Decode(b []byte) (*Array, error) {
	h, err := parsePreamble(b)
	if err != nil {
		return nil, err
	}
	if got := len(b) - h.dataStart; got != h.dataLen {
		return nil, formatErr("payload is %d bytes at offset %d, but %s%v needs %d", got, h.dataStart, h.dtype, h.shape, h.dataLen)
	}
	a := &Array{DType: h.dtype, Shape: h.shape, Data: b[h.dataStart:]}
	if h.bigEndian {
		a.Data = swapped(a.Data, h.dtype.Size())
	}
	return a, nil
}

// Read parses a .npy stream. Memory grows with the bytes actually read, never with the sizes the
// header claims, so a lying header cannot force a large allocation; a header declaring a payload
// over MaxReadBytes is refused before any of it is read.
func Read(r io.Reader) (*Array, error) { return read(r, -1) }

// read is Read knowing, when size >= 0, that the stream is a regular file of size bytes: a payload
// the file cannot hold is refused before reading it, and one it can is read into a buffer
// allocated once.
func read(r io.Reader, size int64) (*Array, error) {
	b := make([]byte, 12, 128)
	if n, err := io.ReadFull(r, b); err != nil {
		return nil, formatErr("truncated preamble (%d bytes): %v", n, err)
	}
	_, end, err := preambleLen(b)
	if err != nil {
		return nil, err
	}
	if end > len(b) {
		b = slices.Grow(b, end-len(b))[:end]
		if _, err := io.ReadFull(r, b[12:]); err != nil {
			return nil, formatErr("header of %d bytes runs past the end of the input: %v", end, err)
		}
	} // (else a short version-1 header: b already holds the payload's first bytes)
	h, err := parsePreamble(b)
	if err != nil {
		return nil, err
	}
	if int64(h.dataLen) > MaxReadBytes {
		return nil, fmt.Errorf("%w: the header declares %s%v, a payload of %d bytes, over the limit of %d (npy.MaxReadBytes)", ErrTooLarge, h.dtype, h.shape, h.dataLen, int64(MaxReadBytes))
	}
	need := end + h.dataLen
	if size >= 0 && int64(need) > size {
		return nil, formatErr("payload is %d bytes at offset %d, but %s%v needs %d", size-int64(end), end, h.dtype, h.shape, h.dataLen)
	}
	if size >= 0 {
		b = slices.Grow(b, h.dataLen)
	}
	for len(b) < need {
		if len(b) == cap(b) {
			// Double, but never past what the header declares: a stream that ends early costs
			// at most twice what it sent.
			b = slices.Grow(b, min(need-len(b), max(len(b), 64<<10)))
		}
		n, err := r.Read(b[len(b):min(cap(b), need)])
		b = b[:len(b)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("npy: read payload: %w", err)
		}
	}
	if len(b) == need {
		// One byte past the payload tells a file with trailing bytes.
		var one [1]byte
		if n, _ := io.ReadFull(r, one[:]); n > 0 {
			b = append(b, one[0])
		}
	}
	if len(b) > need {
		return nil, formatErr("trailing bytes after the %d-byte payload of %s%v", h.dataLen, h.dtype, h.shape)
	}
	return Decode(b)
}

// Load reads a .npy file through Read's bounds; errors name the path. A FIFO or device is read as
// the stream it is (so /dev/zero fails at its first bytes, the magic); a directory is refused,
// wrapping ErrNotRegularFile.
func Load(path string) (*Array, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s: %w: it is a directory", path, ErrNotRegularFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	a, err := read(f, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// Encode serialises the array as a .npy file.
func (a *Array) Encode() ([]byte, error) {
	n, err := byteSize(a.DType, a.Shape)
	if err != nil {
		return nil, err
	}
	if len(a.Data) != n {
		return nil, fmt.Errorf("npy: array has %d data bytes, but %s%v needs %d", len(a.Data), a.DType, a.Shape, n)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "{'descr': '%s', 'fortran_order': False, 'shape': (", a.DType.descr())
	for i, d := range a.Shape {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.Itoa(d))
	}
	if len(a.Shape) == 1 {
		sb.WriteByte(',')
	}
	sb.WriteString("), }")
	dict := sb.String()
	major, pre := byte(1), 10
	if len(dict)+1+pre > math.MaxUint16 {
		major, pre = 2, 12
	}
	// Pad with spaces and a final newline so that the preamble is a multiple of headerAlign.
	total := (pre + len(dict) + 1 + headerAlign - 1) / headerAlign * headerAlign
	hlen := total - pre
	out := make([]byte, 0, total+len(a.Data))
	out = append(out, magic...)
	out = append(out, major, 0)
	if major == 1 {
		out = binary.LittleEndian.AppendUint16(out, uint16(hlen))
	} else {
		out = binary.LittleEndian.AppendUint32(out, uint32(hlen))
	}
	out = append(out, dict...)
	for len(out) < total-1 {
		out = append(out, ' ')
	}
	out = append(out, '\n')
	return append(out, a.Data...), nil
}

// Save writes the array to path.
func Save(path string, a *Array) error {
	b, err := a.Encode()
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

func swapped(b []byte, size int) []byte {
	out := make([]byte, len(b))
	for i := 0; i+size <= len(b); i += size {
		for j := 0; j < size; j++ {
			out[i+j] = b[i+size-1-j]
		}
	}
	return out
}

// Float64s returns the elements of any dtype converted to float64 (booleans as 0 and 1), the
// common ground for comparing outputs of different dtypes. 64-bit integers beyond 2^53 lose
// precision; use Values for exact reads.
func (a *Array) Float64s() ([]float64, error) {
	n := a.NumElements()
	size := a.DType.Size()
	if size == 0 || len(a.Data) != n*size {
		return nil, fmt.Errorf("npy: array has %d data bytes for shape %v of %s", len(a.Data), a.Shape, a.DType)
	}
	le := binary.LittleEndian
	out := make([]float64, n)
	for i := range out {
		b := a.Data[i*size:]
		switch a.DType {
		case Bool, Uint8:
			out[i] = float64(b[0])
		case Int8:
			out[i] = float64(int8(b[0]))
		case Int16:
			out[i] = float64(int16(le.Uint16(b)))
		case Int32:
			out[i] = float64(int32(le.Uint32(b)))
		case Int64:
			out[i] = float64(int64(le.Uint64(b)))
		case Uint16:
			out[i] = float64(le.Uint16(b))
		case Uint32:
			out[i] = float64(le.Uint32(b))
		case Uint64:
			out[i] = float64(le.Uint64(b))
		case Float16:
			out[i] = float64(float16.Frombits(le.Uint16(b)).Float32())
		case Float32:
			out[i] = float64(math.Float32frombits(le.Uint32(b)))
		case Float64:
			out[i] = math.Float64frombits(le.Uint64(b))
		}
	}
	return out, nil
}
