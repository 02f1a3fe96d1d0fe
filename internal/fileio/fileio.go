// Package fileio opens the files etgo's readers take from the command line without letting a
// path make them read without bound: a directory, device, FIFO or socket is refused before it
// is opened (so a FIFO with no writer cannot block the caller either), and a regular file is read
// only when its size is within the caller's budget.
//
// The sentinels are re-exported by the packages that use them (pte, pt2 and npy), so callers
// test errors.Is(err, pte.ErrNotRegularFile) without importing an internal package.
package fileio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

var (
	// ErrNotRegular: the path names a directory, device, FIFO or socket, not a file whose size
	// is known before reading.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the input declares (or its file is) more bytes than the reader's budget.
	ErrTooLarge = errors.New("over the read budget")
)

// Kind names a file mode for errors ("a directory", "a FIFO", ...).
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsRegular():
		return "a regular file"
	}
	return "an irregular file"
}

// OpenRegular opens path for reading if it is a regular file. It stats the path before opening
// it, so a FIFO is refused rather than waited on, and checks the opened file again, so a path
// swapped in between is refused too.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: %w: it is %s", path, ErrNotRegular, Kind(st.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if st, err = f.Stat(); err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w: it is %s", path, ErrNotRegular, Kind(st.Mode()))
	}
	return f, st, nil
}

// ReadRegular reads a whole regular file of at most limit bytes. Memory is its size, allocated
// once; a file that grows while it is read is refused rather than followed.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, st, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := st.Size()
	if size > limit {
		return nil, fmt.Errorf("%s: %w: the file is %d bytes, over the limit of %d", path, ErrTooLarge, size, limit)
	}
	if size != int64(int(size)) {
		return nil, fmt.Errorf("%s: %w: %d bytes do not fit in memory", path, ErrTooLarge, size)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("%s: %w (the file shrank while it was read?)", path, err)
	}
	var one [1]byte
	if n, _ := f.Read(one[:]); n != 0 {
		return nil, fmt.Errorf("%s: %w: the file grew past its %d bytes while it was read", path, ErrTooLarge, size)
	}
	return b, nil
}
