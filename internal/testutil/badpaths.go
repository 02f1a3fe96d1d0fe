package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// BadPath is a path no file reader should read whole: a directory, a FIFO, a device.
type BadPath struct {
	Name string
	Path string
	// Kind is what the refusal should call it ("a directory", "a FIFO", ...).
	Kind string
}

// BadPaths returns the non-regular paths each reader's tests refuse: a fresh directory, a FIFO
// with no writer (a reader that opens it before checking would block) and, where they exist,
// /dev/zero (endless bytes) and /dev/null (a device that looks empty).
func BadPaths(tb testing.TB) []BadPath {
	tb.Helper()
	dir := tb.TempDir()
	out := []BadPath{{"directory", dir, "a directory"}}
	if fifo := filepath.Join(dir, "fifo"); mkfifo(fifo) == nil {
		out = append(out, BadPath{"fifo", fifo, "a FIFO"})
	}
	for _, dev := range []string{"/dev/zero", "/dev/null"} {
		if st, err := os.Stat(dev); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			out = append(out, BadPath{filepath.Base(dev), dev, "a character device"})
		}
	}
	return out
}

// Mkfifo makes a FIFO at path, skipping the test where the OS has none.
func Mkfifo(tb testing.TB, path string) {
	tb.Helper()
	if err := mkfifo(path); err != nil {
		tb.Skipf("no FIFOs here: %v", err)
	}
}
