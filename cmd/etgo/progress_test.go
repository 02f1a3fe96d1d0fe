package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etgo/etgo/internal/testutil"
)

// TestProgress: bench's runs and lower's stages are drawn on stderr when it is a terminal, and
// never under --json or when it is not (a pipe, a file, a test's buffer).
func TestProgress(t *testing.T) {
	pte := testutil.Testdata(t, "zoo", "conv_relu", "xnnpack.pte")
	model := testutil.Testdata(t, "zoo", "conv_relu", "model.pt2")
	out := filepath.Join(t.TempDir(), "out.pte")
	bench := []string{"bench", pte, "--iterations", "20", "--warmup", "2"}
	lower := []string{"lower", model, "-o", out}
	stageLines := []string{"  read ", "  partition ", "  emit ", "  write "}

	// Not a terminal: no bar; lower's stage times are its report and stay.
	if code, _, stderr := etgo(bench...); code != 0 || stderr != "" {
		t.Errorf("bench, stderr not a terminal: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr := etgo(lower...)
	if code != 0 || strings.Contains(stderr, "\r") {
		t.Errorf("lower, stderr not a terminal: exit %d, stderr %q", code, stderr)
	}
	for _, s := range stageLines {
		if !strings.Contains(stderr, s) {
			t.Errorf("lower: stderr %q lacks the stage line %q", stderr, s)
		}
	}

	saved, throttle := isTerminal, runsThrottle
	defer func() { isTerminal, runsThrottle = saved, throttle }()
	isTerminal = func(io.Writer) bool { return true }
	runsThrottle = 0 // every run redraws, so each phase's description is seen

	code, _, stderr = etgo(bench...)
	for _, s := range []string{"\r", "warmup", "timed", "/22", "runs/s"} {
		if code != 0 || !strings.Contains(stderr, s) {
			t.Errorf("bench on a terminal: exit %d, stderr %q lacks %q", code, stderr, s)
		}
	}
	code, _, stderr = etgo(lower...)
	for _, s := range append([]string{"\r", "lower model.pt2: "}, stageLines...) {
		if code != 0 || !strings.Contains(stderr, s) {
			t.Errorf("lower on a terminal: exit %d, stderr %q lacks %q", code, stderr, s)
		}
	}
	for _, args := range [][]string{append(bench, "--json"), append(lower, "--json")} {
		if code, stdout, stderr := etgo(args...); code != 0 || stderr != "" || strings.Contains(stdout, "\r") {
			t.Errorf("%s --json on a terminal: exit %d, stderr %q", args[0], code, stderr)
		}
	}
}
