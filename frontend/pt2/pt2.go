// Package pt2 reads the .pt2 archives that torch.export.save writes into an ir.Graph: the
// serialized ExportedProgram (graph, tensor metadata with symbolic sizes and their ranges, the
// graph signature) and the weights, which stay in the archive's bytes (entries are stored
// uncompressed, so a memory-mapped archive is read in place).
//
// An archive is untrusted input: entry sizes are bounded before they are read, every value a
// node uses must be defined earlier, weights must match their metadata, and pickled objects are
// refused. Errors name the entry, node or argument at fault.
package pt2

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/etgo/etgo/ir"
)

// ErrInvalid is wrapped by every error about a malformed or unsupported archive.
var ErrInvalid = errors.New("pt2: invalid archive")

// maxJSONBytes bounds the model JSON and config entries read into memory.
const maxJSONBytes = 256 << 20

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

// Open reads a .pt2 file (loaded in memory; the graph's constants alias it).
func Open(path string) (*Program, error) {
	b, err := os.ReadFile(path)
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
	a := &archive{data: data, files: map[string]*zip.File{}}
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
	raw, err := a.read("models/"+name+".json", maxJSONBytes)
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
}

// read returns an entry's bytes (at most limit).
func (a *archive) read(name string, limit int64) ([]byte, error) {
	f, ok := a.files[a.root+"/"+name]
	if !ok {
		return nil, invalid("missing entry %s", name)
	}
	if f.UncompressedSize64 > uint64(limit) {
		return nil, invalid("entry %s is %d bytes, over the limit of %d", name, f.UncompressedSize64, limit)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, invalid("entry %s: %v", name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, invalid("entry %s: %v", name, err)
	}
	return b, nil
}

// entryData returns a stored entry's bytes in place (no copy), or a decompressed copy.
func (a *archive) entryData(name string) ([]byte, error) {
	f, ok := a.files[a.root+"/"+name]
	if !ok {
		return nil, invalid("missing entry %s", name)
	}
	if f.Method == zip.Store {
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
	return a.read(name, maxWeightBytes)
}

// maxWeightBytes bounds a compressed entry's decompressed size (torch stores weights
// uncompressed; a compressed one is unusual and must not expand without bound).
const maxWeightBytes = 4 << 30

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
	raw, err := a.read(config, maxJSONBytes)
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
		data, err := a.entryData(dir + e.PathName)
		if err != nil {
			return err
		}
		n := int64(meta.DType.Size())
		for _, d := range meta.Sizes {
			n *= d.Size
			if n > int64(len(data)) {
				break
			}
		}
		if n > int64(len(data)) {
			return invalid("%s: %q is %s, which needs more than the %d bytes of %s", config, fqn, meta, len(data), e.PathName)
		}
		g.Constants[fqn] = &ir.Constant{Meta: *meta, Data: data[:n:n]}
	}
	return nil
}

// checkContiguous refuses weights stored as views (non-default strides or an offset): their
// bytes would not be the tensor's elements in order.
func checkContiguous(fqn string, meta *ir.TensorMeta, m *tensorMeta) error {
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
