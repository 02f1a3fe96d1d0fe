//go:build unix

package pte

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/etgo/etgo/internal/fileio"
)

// mapFile maps a file privately, so that constants and delegate blobs are read in place. The
// mapping is copy-on-write rather than read-only: a program whose kernels write into a constant
// (only a malformed one does) then changes private pages, never the file, and cannot crash the
// process with a write fault.
//
// Only regular files are taken: a device or FIFO has no size to map, and reading one whole
// (/dev/zero) never ends.
func mapFile(path string) ([]byte, func() error, error) {
	fd, st, err := fileio.OpenRegular(path)
	if err != nil {
		return nil, nil, err
	}
	defer fd.Close()
	size := st.Size()
	if size == 0 {
		return []byte{}, func() error { return nil }, nil // nothing to map; Parse names the problem
	}
	if size != int64(int(size)) {
		return nil, nil, fmt.Errorf("%s: %w: %d bytes do not fit in this process's address space", path, ErrTooLarge, size)
	}
	data, err := unix.Mmap(int(fd.Fd()), 0, int(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE)
	if err != nil {
		return readFile(path) // a file system that cannot map: read it, within MaxReadBytes
	}
	return data, func() error { return unix.Munmap(data) }, nil
}
