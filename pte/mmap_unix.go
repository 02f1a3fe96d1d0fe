//go:build unix

package pte

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps a file privately, so that constants and delegate blobs are read in place. The
// mapping is copy-on-write rather than read-only: a program whose kernels write into a constant
// (only a malformed one does) then changes private pages, never the file, and cannot crash the
// process with a write fault.
func mapFile(path string) ([]byte, func() error, error) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer fd.Close()
	st, err := fd.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := st.Size()
	if size == 0 || !st.Mode().IsRegular() {
		return readFile(path) // nothing to map, or a pipe or device
	}
	if size != int64(int(size)) {
		return nil, nil, fmt.Errorf("%s: %d bytes does not fit in memory", path, size)
	}
	data, err := unix.Mmap(int(fd.Fd()), 0, int(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE)
	if err != nil {
		return readFile(path)
	}
	return data, func() error { return unix.Munmap(data) }, nil
}
