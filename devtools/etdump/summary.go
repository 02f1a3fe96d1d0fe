package etdump

import (
	"fmt"
	"io"
	"sort"
)

// EventStats is one event name's timings across an ETDump's blocks.
type EventStats struct {
	Block string `json:"block"`
	// Name is the event's name, or for a delegate's event "[" + its delegate id + "]".
	Name    string  `json:"name"`
	Count   int     `json:"count"`
	TotalMS float64 `json:"total_ms"`
	MeanMS  float64 `json:"mean_ms"`
}

// Stats groups the profiling events by block name and event name, in first-seen order, with
// times converted from nanosecond ticks (etgo's and the official runtime's on Linux).
func (d *ETDump) Stats() []EventStats {
	var out []EventStats
	at := map[[2]string]int{}
	for _, run := range d.Runs {
		for _, e := range run.Events {
			p := e.Profile
			if p == nil {
				continue
			}
			name := p.Name
			if name == "" {
				name = "[" + p.DelegateDebugIDStr + "]"
			}
			k := [2]string{run.Name, name}
			i, ok := at[k]
			if !ok {
				i = len(out)
				at[k] = i
				out = append(out, EventStats{Block: run.Name, Name: name})
			}
			out[i].Count++
			if p.EndTime >= p.StartTime {
				out[i].TotalMS += float64(p.EndTime-p.StartTime) / 1e6
			}
		}
	}
	for i := range out {
		out[i].MeanMS = out[i].TotalMS / float64(out[i].Count)
	}
	return out
}

// WriteSummary prints the blocks and, per block and event, the count and times.
func (d *ETDump) WriteSummary(w io.Writer) {
	blocks := map[string]int{}
	var names []string
	events := 0
	for _, run := range d.Runs {
		if blocks[run.Name] == 0 {
			names = append(names, run.Name)
		}
		blocks[run.Name]++
		events += len(run.Events)
	}
	fmt.Fprintf(w, "ETDump version %d: %d block(s), %d event(s)\n", d.Version, len(d.Runs), events)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %d block(s)\n", n, blocks[n])
	}
	stats := d.Stats()
	sort.SliceStable(stats, func(i, j int) bool { return stats[i].Block < stats[j].Block })
	fmt.Fprintf(w, "\n  %-10s %-48s %7s %12s %12s\n", "block", "event", "count", "total ms", "mean ms")
	for _, s := range stats {
		fmt.Fprintf(w, "  %-10s %-48s %7d %12.4f %12.4f\n", s.Block, s.Name, s.Count, s.TotalMS, s.MeanMS)
	}
}
