package executor

import (
	"fmt"
	"sort"
	"time"
)

// InstructionProfile is the time one instruction of a method took over the runs since profiling
// was enabled: a kernel call (Name is the operator) or a delegate call (Name is the backend id
// and the delegate's index). Moves, jumps and frees are not timed.
type InstructionProfile struct {
	Chain, Instruction int
	Kind               string // "kernel" or "delegate"
	Name               string
	Calls              int
	Total              time.Duration
}

// profiler accumulates per-instruction times; nil when profiling is off (the default), so an
// unprofiled run pays one nil check per instruction.
type profiler struct {
	entries map[[2]int]*InstructionProfile
	runs    int
	total   time.Duration
}

// EnableProfiling starts (on) or stops and discards (off) per-instruction timing of Execute, as
// ExecuTorch's event tracer does for its profiling builds. Timing adds two clock reads per
// kernel or delegate call.
func (m *Method) EnableProfiling(on bool) {
	if on {
		m.prof = &profiler{entries: map[[2]int]*InstructionProfile{}}
	} else {
		m.prof = nil
	}
}

// Profile returns the timed instructions, slowest first, and the number of runs and their total
// time (inputs copied in and outputs out included), or ok false when profiling is off.
func (m *Method) Profile() (instrs []InstructionProfile, runs int, total time.Duration, ok bool) {
	if m.prof == nil {
		return nil, 0, 0, false
	}
	for _, e := range m.prof.entries {
		instrs = append(instrs, *e)
	}
	sort.Slice(instrs, func(i, j int) bool {
		if instrs[i].Total != instrs[j].Total {
			return instrs[i].Total > instrs[j].Total
		}
		return instrs[i].Chain < instrs[j].Chain || (instrs[i].Chain == instrs[j].Chain && instrs[i].Instruction < instrs[j].Instruction)
	})
	return instrs, m.prof.runs, m.prof.total, true
}

func (p *profiler) record(m *Method, chain, pc int, in *instruction, d time.Duration) {
	key := [2]int{chain, pc}
	e, ok := p.entries[key]
	if !ok {
		e = &InstructionProfile{Chain: chain, Instruction: pc}
		switch in.kind {
		case kindKernel:
			e.Kind, e.Name = "kernel", in.kernel.Name
		case kindDelegate:
			e.Kind, e.Name = "delegate", fmt.Sprintf("%s (delegate %d)", m.delegate[in.delegate].id, in.delegate)
		}
		p.entries[key] = e
	}
	e.Calls++
	e.Total += d
}
