package pte

import (
	"errors"

	"github.com/etgo/etgo/internal/fileio"
)

var (
	// ErrInvalidProgram is wrapped by every error about a malformed program: bad flatbuffer,
	// index out of range, segment outside the file, impossible tensor.
	ErrInvalidProgram = errors.New("invalid program")
	// ErrNotProgram means the bytes are not an ExecuTorch program; the message names what they
	// are when it can tell (bundled program, ETDump, .ptd).
	ErrNotProgram = errors.New("not an ExecuTorch program")
	// ErrIncompatibleVersion means an ExecuTorch program of another format version.
	ErrIncompatibleVersion = errors.New("incompatible program version")
	// ErrNotFound means a method, segment or named-data key the caller asked for is absent.
	ErrNotFound = errors.New("not found")
	// ErrExternalData means tensor data lives outside the .pte, in a .ptd file.
	ErrExternalData = errors.New("data is in an external .ptd file")
	// ErrNotRegularFile means Open was given a directory, device, FIFO or socket: a .pte is read
	// from a regular file, whose size is known before anything is read.
	ErrNotRegularFile = fileio.ErrNotRegular
	// ErrTooLarge means a file over MaxReadBytes where it has to be read rather than mapped, or
	// over the address space.
	ErrTooLarge = fileio.ErrTooLarge
)
