//go:build unix

package pte

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps a file read-only, so that constants and delegate blobs are read in place.
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
	data, err := unix.Mmap(int(fd.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return readFile(path)
	}
	return data, func() error { return unix.Munmap(data) }, nil
}
