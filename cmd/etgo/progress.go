package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal. A variable so a test can pretend a buffer is one.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// runsThrottle is the least time between two redraws of a runs bar: bench's runs can take
// microseconds, and drawing after each would put terminal writes between every two of them. A
// variable so a test can see every redraw.
var runsThrottle = 100 * time.Millisecond

// progress shows how far long work has come (lower's stages, bench's runs) on stderr. It is
// only ever drawn when stderr is a terminal and the command is not printing --json: a pipe, a
// log file or a test sees nothing of it, and its carriage returns never mix into JSON. A
// progress with no bar does nothing but print lines.
type progress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
	// desc is the current description, redrawn after a line is printed above the bar.
	desc     string
	finished bool
}

// newStages returns a progress for work in named stages of unknown length: a spinner with the
// stage and the elapsed time, redrawn by the library's own ticker while a stage runs (so a long
// partitioning still shows the command is alive).
func newStages(w io.Writer, asJSON bool) *progress {
	p := &progress{w: w}
	if asJSON || !isTerminal(w) {
		return p
	}
	p.bar = progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionClearOnFinish(),
	)
	return p
}

// newRuns returns a progress over max runs: a bar with the count, the rate and the time left.
// Redraws are throttled, so the terminal writes between bench's timed runs stay rare.
func newRuns(w io.Writer, asJSON bool, max int, desc string) *progress {
	p := &progress{w: w, desc: desc}
	if asJSON || !isTerminal(w) || max <= 0 {
		return p
	}
	p.bar = progressbar.NewOptions(max,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("runs"),
		progressbar.OptionThrottle(runsThrottle),
		progressbar.OptionClearOnFinish(),
	)
	return p
}

func (p *progress) describe(desc string) {
	p.desc = desc
	if p.bar != nil && !p.finished {
		p.bar.Describe(desc)
	}
}

func (p *progress) add(n int) {
	if p.bar != nil && !p.finished {
		_ = p.bar.Add(n)
	}
}

// printf prints a line that stays: above the bar while there is one (the library holds it until
// the bar's next redraw, which describe forces), else straight to the writer.
func (p *progress) printf(format string, args ...any) {
	if p.bar == nil || p.finished {
		fmt.Fprintf(p.w, format, args...)
		return
	}
	_, _ = progressbar.Bprintf(p.bar, format, args...)
	p.bar.Describe(p.desc)
}

// finish erases the bar (and stops a spinner's ticker); safe to call more than once, so a
// command defers it and also calls it before printing its result.
func (p *progress) finish() {
	if p.bar != nil && !p.finished {
		_ = p.bar.Finish()
	}
	p.finished = true
}
