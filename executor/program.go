package executor

import (
	"fmt"

	"github.com/etgo/etgo/pte"
)

// DefaultMaxPlannedBytes bounds the planned memory one Method may allocate unless the caller
// sets Options.MaxPlannedBytes: a program file states its buffer sizes, and an untrusted file must
// not make a load allocate without bound.
const DefaultMaxPlannedBytes = 4 << 30

// Options configure a Program.
type Options struct {
	// Registry holds the kernels and backends methods may use. Required.
	Registry *Registry
	// MaxPlannedBytes bounds each Method's planned memory (default DefaultMaxPlannedBytes).
	MaxPlannedBytes int64
}

// Program is a loaded .pte: immutable, and safe to share between goroutines. Each caller makes
// its own Method from it.
type Program struct {
	file  *pte.File
	opts  Options
	owned bool
}

// NewProgram wraps a verified file. The file must stay open while the Program is used.
func NewProgram(f *pte.File, opts Options) (*Program, error) {
	if opts.Registry == nil {
		return nil, fmt.Errorf("runtime: Options.Registry is required")
	}
	if opts.MaxPlannedBytes <= 0 {
		opts.MaxPlannedBytes = DefaultMaxPlannedBytes
	}
	return &Program{file: f, opts: opts}, nil
}

// Open maps and verifies a .pte file and returns its Program; Close releases the file.
func Open(path string, opts Options) (*Program, error) {
	f, err := pte.Open(path)
	if err != nil {
		return nil, err
	}
	p, err := NewProgram(f, opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	p.owned = true
	return p, nil
}

// Close releases the file when Open opened it. Methods must not be used afterwards.
func (p *Program) Close() error {
	if p.owned {
		return p.file.Close()
	}
	return nil
}

// File returns the underlying verified file.
func (p *Program) File() *pte.File { return p.file }

// MethodNames lists the program's methods in file order.
func (p *Program) MethodNames() []string { return p.file.MethodNames() }
