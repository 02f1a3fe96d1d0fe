package etdump

import (
	"errors"
	"fmt"
	"os"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/etgo/etgo/devtools/etdump/schema"
	"github.com/etgo/etgo/internal/fbverify"
	"github.com/etgo/etgo/internal/fileio"
)

// ErrInvalid is wrapped by every error about a malformed ETDump.
var ErrInvalid = errors.New("invalid ETDump")

// Identifier is the ETDump flatbuffer's file identifier.
const Identifier = "ED00"

// MaxFileSize bounds the files ReadFile reads (a profile of millions of events is tens of MB).
const MaxFileSize = 1 << 30

// ETDump is a whole file: one RunData per block of events.
type ETDump struct {
	Version uint32
	Runs    []RunData
}

// RunData is one block of events: "Default" (loading) or "Execute" (one execution).
type RunData struct {
	Name string
	// BundledInputIndex is the bundled input the run used, or -1.
	BundledInputIndex int32
	Allocators        []string
	Events            []Event
}

// Event is one event; exactly one of its fields is set.
type Event struct {
	Profile    *ProfileEvent
	Allocation *AllocationEvent
	Debug      *DebugEvent
}

// ProfileEvent is a timed span. Name is empty for a delegate's own events, which
// DelegateDebugIDStr (or DelegateDebugIDInt, -1 when unused) names instead; times are in the
// writer's ticks (etgo's: nanoseconds since the recording began).
type ProfileEvent struct {
	Name                  string
	ChainIndex            int32
	InstructionID         int32
	DelegateDebugIDInt    int32
	DelegateDebugIDStr    string
	DelegateDebugMetadata []byte // nil: none; a delegate's event has a (possibly empty) one
	StartTime, EndTime    uint64
}

// AllocationEvent is an allocation of AllocationSize bytes from the run's allocator AllocatorID.
type AllocationEvent struct {
	AllocatorID    int32
	AllocationSize uint64
}

// DebugEvent is a value logged while an instruction ran; Value is its kind ("Tensor", "Int", …),
// the value itself is not decoded.
type DebugEvent struct {
	Name               string
	ChainIndex         uint64
	InstructionID      int32
	DelegateDebugIDInt int32
	DelegateDebugIDStr string
	Value              string
}

// ReadFile reads and parses an ETDump file.
func ReadFile(path string) (*ETDump, error) {
	b, err := fileio.ReadRegular(path, MaxFileSize)
	if err != nil {
		return nil, err
	}
	return Parse(b)
}

// WriteFile writes d as an ETDump file.
func (d *ETDump) WriteFile(path string) error { return os.WriteFile(path, d.Encode(), 0o644) }

// Parse verifies and decodes an ETDump: a size-prefixed flatbuffer, as ExecuTorch writes it.
func Parse(b []byte) (*ETDump, error) {
	if len(b) < 12 {
		return nil, fmt.Errorf("%w: %d bytes is too short for a size-prefixed flatbuffer", ErrInvalid, len(b))
	}
	if string(b[8:12]) != Identifier { // the size prefix is the verifier's to check
		return nil, fmt.Errorf("%w: no %q identifier (not an ETDump)", ErrInvalid, Identifier)
	}
	if err := fbverify.VerifySizePrefixed(b, specETDump); err != nil {
		return nil, fmt.Errorf("%w: flatbuffer: %v", ErrInvalid, err)
	}
	root := schema.GetSizePrefixedRootAsETDump(b, 0)
	d := &ETDump{Version: root.Version()}
	var rd schema.RunData
	var ev schema.Event
	for i := 0; i < root.RunDataLength(); i++ {
		root.RunData(&rd, i)
		run := RunData{Name: string(rd.Name()), BundledInputIndex: rd.BundledInputIndex()}
		var a schema.Allocator
		for k := 0; k < rd.AllocatorsLength(); k++ {
			rd.Allocators(&a, k)
			run.Allocators = append(run.Allocators, string(a.Name()))
		}
		for k := 0; k < rd.EventsLength(); k++ {
			rd.Events(&ev, k)
			e, err := decodeEvent(&ev)
			if err != nil {
				return nil, fmt.Errorf("%w: run %d event %d: %v", ErrInvalid, i, k, err)
			}
			run.Events = append(run.Events, e)
		}
		d.Runs = append(d.Runs, run)
	}
	return d, nil
}

var valueTypes = [...]string{"Null", "Int", "Bool", "Float", "Double", "Tensor", "TensorList", "String"}

func decodeEvent(ev *schema.Event) (Event, error) {
	var e Event
	set := 0
	if p := ev.ProfileEvent(nil); p != nil {
		set++
		e.Profile = &ProfileEvent{Name: string(p.Name()), ChainIndex: p.ChainIndex(), InstructionID: p.InstructionId(),
			DelegateDebugIDInt: p.DelegateDebugIdInt(), DelegateDebugIDStr: string(p.DelegateDebugIdStr()),
			StartTime: p.StartTime(), EndTime: p.EndTime()}
		if m := p.DelegateDebugMetadataBytes(); m != nil {
			e.Profile.DelegateDebugMetadata = append([]byte{}, m...)
		}
	}
	if a := ev.AllocationEvent(nil); a != nil {
		set++
		e.Allocation = &AllocationEvent{AllocatorID: a.AllocatorId(), AllocationSize: a.AllocationSize()}
	}
	if dbg := ev.DebugEvent(nil); dbg != nil {
		set++
		e.Debug = &DebugEvent{Name: string(dbg.Name()), ChainIndex: dbg.ChainIndex(), InstructionID: dbg.InstructionId(),
			DelegateDebugIDInt: dbg.DelegateDebugIdInt(), DelegateDebugIDStr: string(dbg.DelegateDebugIdStr())}
		if v := dbg.DebugEntry(nil); v != nil {
			if t := int(v.Val()); t >= 0 && t < len(valueTypes) {
				e.Debug.Value = valueTypes[t]
			} else {
				return e, fmt.Errorf("debug value of unknown type %d", t)
			}
		}
	}
	if set != 1 {
		return e, fmt.Errorf("%d of its profile, allocation and debug fields are set; exactly one must be", set)
	}
	return e, nil
}

// Encode serialises d as ExecuTorch writes an ETDump: size-prefixed, identifier ED00. Optional
// strings left empty are omitted, as the official writer omits them (a delegate event has no
// name; the Inspector falls back to its delegate id only when the name is absent).
func (d *ETDump) Encode() []byte {
	b := flatbuffers.NewBuilder(1024)
	str := func(s string) flatbuffers.UOffsetT {
		if s == "" {
			return 0
		}
		return b.CreateString(s)
	}
	runs := make([]flatbuffers.UOffsetT, len(d.Runs))
	for i := range d.Runs {
		run := &d.Runs[i]
		events := make([]flatbuffers.UOffsetT, len(run.Events))
		for k, e := range run.Events {
			events[k] = encodeEvent(b, e, str)
		}
		allocs := make([]flatbuffers.UOffsetT, len(run.Allocators))
		for k, a := range run.Allocators {
			name := str(a)
			schema.AllocatorStart(b)
			if name != 0 {
				schema.AllocatorAddName(b, name)
			}
			allocs[k] = schema.AllocatorEnd(b)
		}
		name := str(run.Name)
		eventsVec := tables(b, schema.RunDataStartEventsVector, events)
		allocsVec := tables(b, schema.RunDataStartAllocatorsVector, allocs)
		schema.RunDataStart(b)
		if name != 0 {
			schema.RunDataAddName(b, name)
		}
		schema.RunDataAddBundledInputIndex(b, run.BundledInputIndex)
		schema.RunDataAddAllocators(b, allocsVec)
		schema.RunDataAddEvents(b, eventsVec)
		runs[i] = schema.RunDataEnd(b)
	}
	runsVec := tables(b, schema.ETDumpStartRunDataVector, runs)
	schema.ETDumpStart(b)
	schema.ETDumpAddVersion(b, d.Version)
	schema.ETDumpAddRunData(b, runsVec)
	b.FinishSizePrefixedWithFileIdentifier(schema.ETDumpEnd(b), []byte(Identifier))
	return b.FinishedBytes()
}

func encodeEvent(b *flatbuffers.Builder, e Event, str func(string) flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	var profile, alloc, debug flatbuffers.UOffsetT
	switch {
	case e.Profile != nil:
		p := e.Profile
		name, id := str(p.Name), str(p.DelegateDebugIDStr)
		var meta flatbuffers.UOffsetT
		if p.DelegateDebugMetadata != nil {
			meta = b.CreateByteVector(p.DelegateDebugMetadata)
		}
		schema.ProfileEventStart(b)
		if name != 0 {
			schema.ProfileEventAddName(b, name)
		}
		schema.ProfileEventAddChainIndex(b, p.ChainIndex)
		schema.ProfileEventAddInstructionId(b, p.InstructionID)
		schema.ProfileEventAddDelegateDebugIdInt(b, p.DelegateDebugIDInt)
		if id != 0 {
			schema.ProfileEventAddDelegateDebugIdStr(b, id)
		}
		if p.DelegateDebugMetadata != nil {
			schema.ProfileEventAddDelegateDebugMetadata(b, meta)
		}
		schema.ProfileEventAddStartTime(b, p.StartTime)
		schema.ProfileEventAddEndTime(b, p.EndTime)
		profile = schema.ProfileEventEnd(b)
	case e.Allocation != nil:
		schema.AllocationEventStart(b)
		schema.AllocationEventAddAllocatorId(b, e.Allocation.AllocatorID)
		schema.AllocationEventAddAllocationSize(b, e.Allocation.AllocationSize)
		alloc = schema.AllocationEventEnd(b)
	case e.Debug != nil:
		dbg := e.Debug
		name, id := str(dbg.Name), str(dbg.DelegateDebugIDStr)
		schema.DebugEventStart(b)
		if name != 0 {
			schema.DebugEventAddName(b, name)
		}
		schema.DebugEventAddChainIndex(b, dbg.ChainIndex)
		schema.DebugEventAddInstructionId(b, dbg.InstructionID)
		schema.DebugEventAddDelegateDebugIdInt(b, dbg.DelegateDebugIDInt)
		if id != 0 {
			schema.DebugEventAddDelegateDebugIdStr(b, id)
		}
		debug = schema.DebugEventEnd(b)
	}
	schema.EventStart(b)
	if profile != 0 {
		schema.EventAddProfileEvent(b, profile)
	}
	if alloc != 0 {
		schema.EventAddAllocationEvent(b, alloc)
	}
	if debug != 0 {
		schema.EventAddDebugEvent(b, debug)
	}
	return schema.EventEnd(b)
}

// tables writes a vector of table offsets.
func tables(b *flatbuffers.Builder, start func(*flatbuffers.Builder, int) flatbuffers.UOffsetT, offs []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	start(b, len(offs))
	for i := len(offs) - 1; i >= 0; i-- {
		b.PrependUOffsetT(offs[i])
	}
	return b.EndVector(len(offs))
}
