package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/internal/testutil"
	"github.com/etgo/etgo/pte"
)

// TestEnumerate: the portable-only program first (the reference), each partitioner alone and
// both orders, with and without the transform passes where the list recommends some, at each
// thread count.
func TestEnumerate(t *testing.T) {
	cands, err := enumerate([]string{"vulkan", "xnnpack"}, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cands {
		got = append(got, c.name())
	}
	want := []string{
		"none passes=recommended threads=1", "none passes=recommended threads=2",
		// Vulkan recommends no transform pass: passes=none would be the same lowering.
		"vulkan passes=recommended threads=1", "vulkan passes=recommended threads=2",
		"xnnpack passes=recommended threads=1", "xnnpack passes=recommended threads=2",
		"xnnpack passes=none threads=1", "xnnpack passes=none threads=2",
		"vulkan,xnnpack passes=recommended threads=1", "vulkan,xnnpack passes=recommended threads=2",
		"vulkan,xnnpack passes=none threads=1", "vulkan,xnnpack passes=none threads=2",
		"xnnpack,vulkan passes=recommended threads=1", "xnnpack,vulkan passes=recommended threads=2",
		"xnnpack,vulkan passes=none threads=1", "xnnpack,vulkan passes=none threads=2",
	}
	if !slices.Equal(got, want) {
		t.Errorf("candidates\n got %q\nwant %q", got, want)
	}
}

// fakeClock times every run of a candidate at the wall time its table gives (default 5 ms), so
// the choice is known without timing anything.
func fakeClock(walls map[string]time.Duration, calls map[string]int) func(tuneCandidate, func() error) (tuneSample, error) {
	return func(c tuneCandidate, run func() error) (tuneSample, error) {
		calls[c.name()]++
		err := run()
		w, ok := walls[c.name()]
		if !ok {
			w = 5 * time.Millisecond
		}
		return tuneSample{wall: w, cpu: w / 2}, err
	}
}

// TestTuneFakeClock: on mlp, with a clock that makes one XNNPACK candidate fastest and every
// Vulkan one slow (as lavapipe is), that XNNPACK one is chosen and written. With a Vulkan device
// the Vulkan candidates are measured like the others (their outputs match the portable
// reference); without one they are listed as not measurable, naming Vulkan, and never timed.
// Each measured candidate ran rounds × iterations times.
func TestTuneFakeClock(t *testing.T) {
	model := testutil.Testdata(t, "zoo", "mlp", "model.pt2")
	walls := map[string]time.Duration{
		"xnnpack passes=none threads=2": time.Millisecond,
	}
	for _, c := range []string{"vulkan", "vulkan,xnnpack", "xnnpack,vulkan"} {
		for _, p := range []string{"recommended", "none"} {
			for _, th := range []string{"1", "2"} {
				walls[c+" passes="+p+" threads="+th] = 50 * time.Millisecond
			}
		}
	}
	noDevice := vulkanUnavailable(t)
	calls := map[string]int{}
	res, err := tune(context.Background(), tuneOptions{model: model, names: []string{"vulkan", "xnnpack"}, threads: []int{1, 2},
		rounds: 2, iterations: 3, warmup: 1, tolerance: 1e-3, timeRun: fakeClock(walls, calls)}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if res.Chosen != "xnnpack passes=none threads=2" || res.Reference != "none passes=recommended threads=1" {
		t.Errorf("chosen %q, reference %q", res.Chosen, res.Reference)
	}
	if len(res.Candidates) != 16 {
		t.Fatalf("%d candidates, want 16", len(res.Candidates))
	}
	for _, c := range res.Candidates {
		vulkan := slices.Contains(c.Partitioners, "vulkan") && noDevice != nil
		switch {
		case vulkan && (c.Status != tuneNotMeasurable || !strings.Contains(c.Reason, "Vulkan")):
			t.Errorf("%s: %s (%s), want not measurable for want of Vulkan", c.Candidate, c.Status, c.Reason)
		case vulkan && (calls[c.Candidate] != 0 || c.Runs != 0):
			t.Errorf("%s was timed", c.Candidate)
		case vulkan && c.Coverage == nil:
			t.Errorf("%s: no coverage (its plan is known even if it cannot be compiled)", c.Candidate)
		case !vulkan && (c.Status != tuneMeasured || c.Runs != 6 || calls[c.Candidate] != 6):
			t.Errorf("%s: %s (%s), %d runs, %d clock calls; want measured, 6", c.Candidate, c.Status, c.Reason, c.Runs, calls[c.Candidate])
		case !vulkan && (c.MaxAbsDiff == nil || *c.MaxAbsDiff > 1e-4):
			t.Errorf("%s: max |diff| %v to the reference", c.Candidate, c.MaxAbsDiff)
		}
	}
	// The write-out: the chosen program (its delegates XNNPACK's), the why-report, the table.
	dir := t.TempDir()
	out, why := filepath.Join(dir, "best.pte"), filepath.Join(dir, "best.why.txt")
	var stdout bytes.Buffer
	a := &app{stdout: &stdout, stderr: io.Discard}
	if err := a.finishTune(res, out, why, false); err != nil {
		t.Fatal(err)
	}
	f, err := pte.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.RequiredBackends(); !slices.Equal(got, []string{"XnnpackBackend"}) {
		t.Errorf("the written program needs %v", got)
	}
	report, err := os.ReadFile(why)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Chosen: xnnpack passes=none threads=2, the lowest median wall time over 2 alternating rounds of 3 runs: 1.000 ms",
		"Its plan:\n  by backend ", "XnnpackBackend             1       3/3     100%", "Runner-up: ", "Run it as measured: etgo run " + out + " --threads 2",
		"Outputs were checked against none passes=recommended threads=1's",
	} {
		if !strings.Contains(string(report), want) {
			t.Errorf("the why-report lacks %q:\n%s", want, report)
		}
	}
	table := stdout.String()
	measured := 6
	if noDevice == nil {
		measured = 16
	}
	if got := strings.Count(table, " measured "); got != measured {
		t.Errorf("%d measured rows, want %d:\n%s", got, measured, table)
	}
	if !strings.Contains(table, "*xnnpack passes=none threads=2 ") || strings.Count(table, "*") != 1 {
		t.Errorf("the chosen row is not marked once:\n%s", table)
	}
}

// TestTuneMismatchNotChosen: a candidate whose outputs differ from the reference's by more than
// the tolerance is not chosen (a negative tolerance makes every difference too large), however
// fast; the reference itself is then the choice.
func TestTuneMismatchNotChosen(t *testing.T) {
	calls := map[string]int{}
	res, err := tune(context.Background(), tuneOptions{model: testutil.Testdata(t, "zoo", "mlp", "model.pt2"), names: []string{"xnnpack"},
		threads: []int{1}, rounds: 1, iterations: 1, tolerance: -1,
		timeRun: fakeClock(map[string]time.Duration{"xnnpack passes=recommended threads=1": time.Nanosecond}, calls)}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if res.Chosen != "none passes=recommended threads=1" {
		t.Errorf("chosen %q", res.Chosen)
	}
	for _, c := range res.Candidates[1:] {
		if c.Status != tuneMismatch || !strings.Contains(c.Reason, "outputs differ from none passes=recommended threads=1's") {
			t.Errorf("%s: %s (%s), want a mismatch", c.Candidate, c.Status, c.Reason)
		}
	}
}

// TestTuneCommand runs etgo tune end to end (real clock, one round: nothing is asserted of the
// times) and checks the JSON document's structure, the files written, and the usage errors.
func TestTuneCommand(t *testing.T) {
	model := testutil.Testdata(t, "zoo", "mlp", "model.pt2")
	dir := t.TempDir()
	out := filepath.Join(dir, "best.pte")
	var stdout, stderr bytes.Buffer
	args := []string{"tune", model, "-o", out, "--rounds", "1", "--iterations", "2", "--warmup", "0", "--threads", "1", "--json"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, &stderr)
	}
	var doc struct {
		SchemaVersion int    `json:"schema_version"`
		Chosen        string `json:"chosen"`
		Output        string `json:"output"`
		Why           string `json:"why"`
		Candidates    []struct {
			Candidate string  `json:"candidate"`
			Status    string  `json:"status"`
			Runs      int     `json:"runs"`
			MedianMS  float64 `json:"median_ms"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, &stdout)
	}
	if doc.SchemaVersion != tuneSchema || doc.Chosen == "" || doc.Output != out || doc.Why != filepath.Join(dir, "best.why.txt") || len(doc.Candidates) != 8 {
		t.Errorf("document %+v", doc)
	}
	for _, c := range doc.Candidates {
		if (c.Status == tuneMeasured) != (c.Runs == 2) {
			t.Errorf("%s: %s with %d runs", c.Candidate, c.Status, c.Runs)
		}
	}
	for _, p := range []string{out, doc.Why} {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
	for _, bad := range [][]string{
		{"tune", model},
		{"tune", model, "-o", out, "--by", "user"},
		{"tune", model, "-o", out, "--threads", "0"},
		{"tune", model, "-o", out, "--rounds", "0"},
		{"tune", model, "-o", model},
	} {
		if code := run(bad, io.Discard, io.Discard); code != 2 {
			t.Errorf("etgo %s: exit %d, want 2", strings.Join(bad, " "), code)
		}
	}
}

// TestTuneByCPU: --by cpu chooses by the median run's CPU time, whatever the wall clock says.
func TestTuneByCPU(t *testing.T) {
	// The fake clock's CPU time is half its wall time; this one reports more wall time but less CPU.
	timeRun := func(c tuneCandidate, run func() error) (tuneSample, error) {
		err := run()
		if c.name() == "xnnpack passes=recommended threads=2" {
			return tuneSample{wall: 9 * time.Millisecond, cpu: time.Millisecond}, err
		}
		return tuneSample{wall: 4 * time.Millisecond, cpu: 2 * time.Millisecond}, err
	}
	for _, tc := range []struct{ by, want string }{{"cpu", "xnnpack passes=recommended threads=2"}, {"wall", "none passes=recommended threads=1"}} {
		res, err := tune(context.Background(), tuneOptions{model: testutil.Testdata(t, "zoo", "mlp", "model.pt2"), names: []string{"xnnpack"},
			threads: []int{1, 2}, rounds: 1, iterations: 2, tolerance: 1e-3, by: tc.by, timeRun: timeRun}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if res.Chosen != tc.want || res.By != tc.by {
			t.Errorf("--by %s: chose %q (by %q), want %q", tc.by, res.Chosen, res.By, tc.want)
		}
	}
}

// vulkanUnavailable says why this binary's run time cannot run a Vulkan delegate (no backend
// registered, under -tags novulkan, or no device), nil when it can.
func vulkanUnavailable(t *testing.T) error {
	reg, err := newRegistry(1)
	if err != nil {
		t.Fatal(err)
	}
	b, ok := reg.Backend("VulkanBackend")
	if !ok {
		return errors.New("no VulkanBackend registered")
	}
	if !b.IsAvailable() {
		if e, ok := b.(executor.AvailabilityExplainer); ok && e.Unavailable() != nil {
			return e.Unavailable()
		}
		return errors.New("VulkanBackend unavailable")
	}
	return nil
}
