package pt2

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/etgo/etgo/internal/fileio"
	"github.com/etgo/etgo/ir"
)

// ErrInvalid is wrapped by every error about a malformed or unsupported archive.
var ErrInvalid = errors.New("pt2: invalid archive")

// Budgets (doc.go explains them).
const (
	// MaxArchiveBytes bounds the file Open reads into memory.
	MaxArchiveBytes = 8 << 30
	// MaxJSONBytes bounds each JSON entry (the model, the weights and constants configs).
	MaxJSONBytes = 64 << 20
	// MaxInflation bounds the bytes inflated from compressed entries, all together, as a
	// multiple of the archive's size.
	MaxInflation = 64
)

// ErrNotRegularFile is wrapped when Open is given a directory, device, FIFO or socket.
var ErrNotRegularFile = fileio.ErrNotRegular

// ErrTooLarge is wrapped when Open is given a file over MaxArchiveBytes.
var ErrTooLarge = fileio.ErrTooLarge

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// Program is a loaded archive: the graph of one exported model.
type Program struct {
	// Name is the model's name in the archive (torch.export.save writes "model").
	Name          string
	Graph         *ir.Graph
	SchemaVersion [2]int
	TorchVersion  string
}

// Open reads a .pt2 file (loaded in memory; the graph's constants alias it). Only a regular file
// of at most MaxArchiveBytes is read; anything else is refused before it is opened.
func Open(path string) (*Program, error) {
	b, err := fileio.ReadRegular(path, MaxArchiveBytes)
	if err != nil {
		return nil, err
	}
	p, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Parse reads an archive held in memory. Weights alias data.
func Parse(data []byte) (*Program, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, invalid("not a zip archive: %v", err)
	}
	a := &archive{data: data, files: map[string]*zip.File{}, inflate: MaxInflation * uint64(len(data))}
	for _, f := range zr.File {
		a.files[f.Name] = f
	}
	// The archive's entries sit under one root folder (the file's stem); find it by the
	// archive_format entry.
	var roots []string
	for name := range a.files {
		if path.Base(name) == "archive_format" {
			roots = append(roots, path.Dir(name))
		}
	}
	sort.Strings(roots)
	if len(roots) == 0 {
		return nil, invalid("no archive_format entry: not a torch.export archive")
	}
	a.root = roots[0]
	format, err := a.read("archive_format", 64)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(string(format)) != "pt2" {
		return nil, invalid("archive_format is %q, not pt2", format)
	}
	if bo, err := a.read("byteorder", 64); err == nil && strings.TrimSpace(string(bo)) != "little" {
		return nil, invalid("byteorder %q is not supported (little-endian only)", bo)
	}
	var models []string
	for name := range a.files {
		if dir, file := path.Split(name); dir == a.root+"/models/" && strings.HasSuffix(file, ".json") {
			models = append(models, strings.TrimSuffix(file, ".json"))
		}
	}
	sort.Strings(models)
	if len(models) == 0 {
		return nil, invalid("no models/<name>.json entry")
	}
	name := models[0]
	if len(models) > 1 && contains(models, "model") {
		name = "model"
	}
	raw, err := a.read("models/"+name+".json", MaxJSONBytes)
	if err != nil {
		return nil, err
	}
	var ep exportedProgram
	if err := json.Unmarshal(raw, &ep); err != nil {
		return nil, invalid("models/%s.json: %v", name, err)
	}
	g, err := buildGraph(&ep)
	if err != nil {
		return nil, fmt.Errorf("models/%s.json: %w", name, err)
	}
	if err := a.loadConstants(g, "data/weights/"+name+"_weights_config.json", "data/weights/"); err != nil {
		return nil, err
	}
	if err := a.loadConstants(g, "data/constants/"+name+"_constants_config.json", "data/constants/"); err != nil {
		return nil, err
	}
	for _, in := range g.Inputs {
		if in.Kind == ir.Parameter || in.Kind == ir.Buffer || in.Kind == ir.TensorConstant {
			if _, ok := g.Constants[in.Target]; !ok {
				return nil, invalid("%s %q has no data in the archive", kindName(in.Kind), in.Target)
			}
		}
	}
	return &Program{Name: name, Graph: g, SchemaVersion: [2]int{ep.SchemaVersion.Major, ep.SchemaVersion.Minor}, TorchVersion: ep.TorchVersion}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func kindName(k ir.InputKind) string {
	switch k {
	case ir.Parameter:
		return "parameter"
	case ir.Buffer:
		return "buffer"
	case ir.TensorConstant:
		return "tensor constant"
	}
	return "input"
}

type archive struct {
	data  []byte
	root  string
	files map[string]*zip.File
	// inflate is what compressed entries may still inflate to, all together (MaxInflation times
	// the archive): torch stores every entry, so only a hand-made archive compresses, and a
	// deflate stream can claim a thousand times its size.
	inflate uint64
}

// entry returns the named entry under the archive's root.
func (a *archive) entry(name string) (*zip.File, error) {
	f, ok := a.files[a.root+"/"+name]
	if !ok {
		return nil, invalid("missing entry %s", name)
	}
	return f, nil
}

// stored returns a stored entry's bytes in place (no copy), checked against the archive.
func (a *archive) stored(name string, f *zip.File) ([]byte, error) {
	off, err := f.DataOffset()
	if err != nil {
		return nil, invalid("entry %s: %v", name, err)
	}
	n := f.UncompressedSize64
	if off < 0 || uint64(off) > uint64(len(a.data)) || n > uint64(len(a.data))-uint64(off) {
		return nil, invalid("entry %s (%d bytes at %d) runs past the archive", name, n, off)
	}
	return a.data[off : uint64(off)+n : uint64(off)+n], nil
}

// read returns a whole entry's bytes (at most limit): in place when stored, inflated when not.
func (a *archive) read(name string, limit uint64) ([]byte, error) {
	f, err := a.entry(name)
	if err != nil {
		return nil, err
	}
	if f.UncompressedSize64 > limit {
		return nil, invalid("entry %s is %d bytes, over the limit of %d", name, f.UncompressedSize64, limit)
	}
	if f.Method == zip.Store {
		return a.stored(name, f)
	}
	return a.inflateEntry(name, f)
}

// entryData returns a weight entry's first n bytes, n being the tensor's size from the weights
// config: the contract. A stored entry may hold more (torch writes a view's whole storage) and is
// read in place. A compressed one must declare exactly n bytes and is refused before inflating
// anything otherwise: the bytes of an 864-byte weight whose entry inflates to a gigabyte are
// either garbage or a bomb.
func (a *archive) entryData(name string, n uint64) ([]byte, error) {
	f, err := a.entry(name)
	if err != nil {
		return nil, err
	}
	if f.UncompressedSize64 < n {
		return nil, invalid("entry %s holds %d bytes, the tensor needs %d", name, f.UncompressedSize64, n)
	}
	if f.Method == zip.Store {
		b, err := a.stored(name, f)
		if err != nil {
			return nil, err
		}
		return b[:n:n], nil
	}
	if f.UncompressedSize64 != n {
		return nil, invalid("entry %s inflates to %d bytes, the tensor needs %d (a compressed weight must be exactly its tensor)", name, f.UncompressedSize64, n)
	}
	return a.inflateEntry(name, f)
}

// inflateEntry decompresses a whole entry, its declared size charged to the archive's inflation
// budget before anything is allocated, and reads one byte further, so that an entry inflating
// past its declared size (archive/zip stops it there) or failing its checksum is refused.
func (a *archive) inflateEntry(name string, f *zip.File) ([]byte, error) {
	n := f.UncompressedSize64
	if n > a.inflate {
		return nil, invalid("entry %s: inflating its %d bytes (from %d compressed) is over the budget for compressed entries (%d× the archive's %d bytes; %d left)",
			name, n, f.CompressedSize64, MaxInflation, len(a.data), a.inflate)
	}
	a.inflate -= n
	rc, err := f.Open()
	if err != nil {
		return nil, invalid("entry %s: %v", name, err)
	}
	defer rc.Close()
	b := make([]byte, n)
	if _, err := io.ReadFull(rc, b); err != nil {
		return nil, invalid("entry %s: inflating its %d bytes: %v", name, n, err)
	}
	var one [1]byte
	switch k, err := rc.Read(one[:]); {
	case k > 0 || errors.Is(err, zip.ErrFormat):
		return nil, invalid("entry %s inflates past the %d bytes its header declares", name, n)
	case err != nil && err != io.EOF:
		return nil, invalid("entry %s: %v", name, err)
	}
	return b, nil
}

var symbolName = regexp.MustCompile(`^Symbol\('([A-Za-z_][A-Za-z0-9_]*)'`)

// weightsConfig is data/weights/<model>_weights_config.json (and the constants one).
type weightsConfig struct {
	Config map[string]struct {
		PathName   string     `json:"path_name"`
		UsePickle  bool       `json:"use_pickle"`
		TensorMeta tensorMeta `json:"tensor_meta"`
	} `json:"config"`
}

// loadConstants reads a weights or constants config and binds each tensor's bytes (in place).
// A missing config means the archive has none of that kind.
func (a *archive) loadConstants(g *ir.Graph, config, dir string) error {
	if _, ok := a.files[a.root+"/"+config]; !ok {
		return nil
	}
	raw, err := a.read(config, MaxJSONBytes)
	if err != nil {
		return err
	}
	var wc weightsConfig
	if err := json.Unmarshal(raw, &wc); err != nil {
		return invalid("%s: %v", config, err)
	}
	for fqn, e := range wc.Config {
		if e.UsePickle {
			return invalid("%s: %q is pickled, which etgo does not read", config, fqn)
		}
		meta, err := convertMeta(fqn, &e.TensorMeta)
		if err != nil {
			return err
		}
		if !meta.IsStatic() {
			return invalid("%s: %q has symbolic sizes", config, fqn)
		}
		if err := checkContiguous(fqn, meta, &e.TensorMeta); err != nil {
			return err
		}
		if path.Base(e.PathName) != e.PathName || e.PathName == "" {
			return invalid("%s: %q names data file %q outside %s", config, fqn, e.PathName, dir)
		}
		n, ok := byteSize(meta)
		if !ok {
			return invalid("%s: %q is %s, more bytes than an archive can hold", config, fqn, meta)
		}
		data, err := a.entryData(dir+e.PathName, n)
		if err != nil {
			return fmt.Errorf("%s: %q: %w", config, fqn, err)
		}
		g.Constants[fqn] = &ir.Constant{Meta: *meta, Data: data}
	}
	return nil
}

// byteSize is a static tensor's size in bytes; false when it overflows (no archive holds it).
func byteSize(meta *ir.TensorMeta) (uint64, bool) {
	n := uint64(meta.DType.Size())
	for _, d := range meta.Sizes {
		hi, lo := bits.Mul64(n, uint64(d.Size))
		if hi != 0 || lo > 1<<62 {
			return 0, false
		}
		n = lo
	}
	return n, true
}

// checkContiguous refuses weights stored as views (non-default strides or an offset): their
// bytes would not be the tensor's elements in order.
func checkContiguous(fqn string, meta *ir.TensorMeta, m *tensorMeta) error {
	if meta.Layout != ir.Strided {
		// A sparse weight's data is not one dense buffer.
		return invalid("%q has layout %s; only strided weights are supported", fqn, meta.Layout)
	}
	if m.StorageOffset.AsInt != nil && *m.StorageOffset.AsInt != 0 {
		return invalid("%q has storage offset %d; only contiguous weights are supported", fqn, *m.StorageOffset.AsInt)
	}
	if len(m.Strides) != len(meta.Sizes) {
		return invalid("%q has %d strides for %d dims", fqn, len(m.Strides), len(meta.Sizes))
	}
	step := int64(1)
	for i := len(meta.Sizes) - 1; i >= 0; i-- {
		s := m.Strides[i].AsInt
		if meta.Sizes[i].Size > 1 && (s == nil || *s != step) {
			return invalid("%q is not contiguous (strides); only contiguous weights are supported", fqn)
		}
		step *= max(meta.Sizes[i].Size, 1)
	}
	return nil
}
