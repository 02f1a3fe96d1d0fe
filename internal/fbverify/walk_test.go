package fbverify

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"
)

var testSpec = NewTable("T", Scalar("a", 4), Str("s"), VecScalar("v", 2), Scalar("b", 8))

// testBuffer is T{a: 7, s: "hey", v: [1, 2, 3], b: 9}.
func testBuffer() []byte {
	b := flatbuffers.NewBuilder(64)
	s := b.CreateString("hey")
	b.StartVector(2, 3, 2)
	for _, x := range []uint16{3, 2, 1} {
		b.PrependUint16(x)
	}
	v := b.EndVector(3)
	b.StartObject(4)
	b.PrependUint32Slot(0, 7, 0)
	b.PrependUOffsetTSlot(1, s, 0)
	b.PrependUOffsetTSlot(2, v, 0)
	b.PrependUint64Slot(3, 9, 0)
	b.Finish(b.EndObject())
	return b.FinishedBytes()
}

func TestWalk(t *testing.T) {
	buf := testBuffer()
	var got []string
	vals := map[string]uint64{}
	if err := Walk(buf, testSpec, func(s *Site) {
		got = append(got, s.Path)
		switch {
		case s.IsScalar() && s.Width == 2:
			vals[s.Path] = uint64(binary.LittleEndian.Uint16(buf[s.Pos:]))
		case s.IsScalar() && s.Width == 4:
			vals[s.Path] = uint64(binary.LittleEndian.Uint32(buf[s.Pos:]))
		case s.IsScalar() && s.Width == 8:
			vals[s.Path] = binary.LittleEndian.Uint64(buf[s.Pos:])
		case s.Field.Kind == KString:
			vals[s.Path] = uint64(s.Len)
		}
	}); err != nil {
		t.Fatal(err)
	}
	want := "T.a T.s T.v T.v[0] T.v[1] T.v[2] T.b"
	if strings.Join(got, " ") != want {
		t.Errorf("sites %v, want %s", got, want)
	}
	for path, v := range map[string]uint64{"T.a": 7, "T.s": 3, "T.v[2]": 3, "T.b": 9} {
		if vals[path] != v {
			t.Errorf("%s = %d, want %d", path, vals[path], v)
		}
	}
}

// TestVerifyLikeFlatbuffers checks the rules flatbuffers' own verifier applies and the official
// runtime therefore enforces: a string ends in a NUL, fields are aligned to their width.
func TestVerifyLikeFlatbuffers(t *testing.T) {
	var str, b *Site
	buf := testBuffer()
	if err := Walk(buf, testSpec, func(s *Site) {
		switch s.Path {
		case "T.s":
			str = s
		case "T.b":
			b = s
		}
	}); err != nil {
		t.Fatal(err)
	}
	unterminated := bytes.Clone(buf)
	unterminated[str.Target+4+str.Len] = 'x'
	if err := Verify(unterminated, testSpec); err == nil || !strings.Contains(err.Error(), "NUL") {
		t.Errorf("unterminated string: %v", err)
	}
	// Point the u64 field's vtable entry 4 bytes off its aligned place.
	misaligned := bytes.Clone(buf)
	root := int(binary.LittleEndian.Uint32(misaligned))
	vt := root - int(int32(binary.LittleEndian.Uint32(misaligned[root:])))
	slot := vt + 4 + 2*3
	binary.LittleEndian.PutUint16(misaligned[slot:], uint16(b.Pos-root+4))
	if err := Verify(misaligned, testSpec); err == nil || !strings.Contains(err.Error(), "aligned") {
		t.Errorf("misaligned u64: %v", err)
	}
}
