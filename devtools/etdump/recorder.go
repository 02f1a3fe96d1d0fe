package etdump

import (
	"sync"
	"time"

	"github.com/etgo/etgo/executor"
)

// Recorder collects a Method's events into an ETDump (it is a executor.EventTracer): pass it to
// Program.LoadMethod with executor.WithEventTracer, run, then write Dump. Times are nanoseconds
// since the Recorder was made. It is safe for concurrent use; events of Methods running at the
// same time go to whichever block each began last, so trace one Method per Recorder to keep
// blocks whole.
type Recorder struct {
	mu   sync.Mutex
	base time.Time
	dump ETDump
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{base: time.Now()} }

// BeginBlock starts a new RunData.
func (r *Recorder) BeginBlock(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dump.Runs = append(r.dump.Runs, RunData{Name: name, BundledInputIndex: -1})
}

// Profile adds a profiling event to the current block (to a "Default" block if none began).
func (r *Recorder) Profile(e executor.ProfileEvent) {
	p := &ProfileEvent{Name: e.Name, ChainIndex: int32(e.Chain), InstructionID: int32(e.Instruction),
		DelegateDebugIDInt: int32(e.DelegateIDInt), DelegateDebugIDStr: e.DelegateID,
		StartTime: r.ticks(e.Start), EndTime: r.ticks(e.End)}
	if e.Name == "" { // a delegate's event carries its metadata, empty or not, as the official one does
		p.DelegateDebugMetadata = append([]byte{}, e.DelegateMetadata...)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.dump.Runs) == 0 {
		r.dump.Runs = append(r.dump.Runs, RunData{Name: "Default", BundledInputIndex: -1})
	}
	run := &r.dump.Runs[len(r.dump.Runs)-1]
	run.Events = append(run.Events, Event{Profile: p})
}

func (r *Recorder) ticks(t time.Time) uint64 {
	if d := t.Sub(r.base); d > 0 {
		return uint64(d)
	}
	return 0
}

// Dump returns a copy of what was recorded so far.
func (r *Recorder) Dump() *ETDump {
	r.mu.Lock()
	defer r.mu.Unlock()
	d := &ETDump{Version: r.dump.Version, Runs: make([]RunData, len(r.dump.Runs))}
	for i, run := range r.dump.Runs {
		run.Events = append([]Event(nil), run.Events...)
		d.Runs[i] = run
	}
	return d
}

var _ executor.EventTracer = (*Recorder)(nil)
