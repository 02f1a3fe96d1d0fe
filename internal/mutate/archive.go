package mutate

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"strings"
	"sync"
)

// archiveFamilies mutate a torch.export .pt2 archive: its zip structure (sizes, compression
// method, CRC, entry offsets and names, duplicated entries, truncation, inflation bombs) and
// the JSON of its serialized program (types, numbers, missing members, deep nesting, node and
// argument references, operator targets, dtypes and shapes of weights).
var archiveFamilies = []family{
	{"zip-size", 0.09, genZipSize},
	{"zip-method", 0.05, genZipMethod},
	{"zip-crc", 0.04, genZipCRC},
	{"zip-offset", 0.06, genZipOffset},
	{"zip-name", 0.04, genZipName},
	{"zip-dup", 0.04, genZipDup},
	{"zip-truncate", 0.07, genZipTruncate},
	{"zip-bomb", 0.02, genZipBomb},
	{"json-type", 0.09, genJSONType},
	{"json-number", 0.09, genJSONNumber},
	{"json-missing", 0.09, genJSONMissing},
	{"json-nest", 0.03, genJSONNest},
	{"json-ref", 0.09, genJSONRef},
	{"json-target", 0.04, genJSONTarget},
	{"json-meta", 0.10, genJSONMeta},
	{"json-cut", 0.03, genJSONCut},
}

// ArchiveFamilies lists GenerateArchive's families.
func ArchiveFamilies() []string { return names(archiveFamilies) }

// zent is one zip entry: its central directory record and local header.
type zent struct {
	name         string
	cd           int // offset of the central directory record
	local        int // offset of the local header
	data         int // offset of the entry's data
	method       uint16
	crc          uint32
	csize, usize int
	// desc is the offset of the data descriptor after the data (-1 if none) and descWide
	// whether its sizes are 8 bytes.
	desc     int
	descWide bool
}

type zipInfo struct {
	ents       []*zent
	eocd       int // end of central directory record
	eocd64     int // zip64 end record (-1 if none)
	locator    int // zip64 locator (-1 if none)
	cdOff      int
	cdEnd      int
	jsonEntIdx []int // entries holding JSON
}

func parseZip(b []byte) (*zipInfo, error) {
	le := binary.LittleEndian
	z := &zipInfo{eocd: bytes.LastIndex(b, []byte("PK\x05\x06")), eocd64: -1, locator: -1}
	if z.eocd < 0 || z.eocd+22 > len(b) {
		return nil, fmt.Errorf("no end of central directory")
	}
	n := int(le.Uint16(b[z.eocd+10:]))
	z.cdOff = int(le.Uint32(b[z.eocd+16:]))
	if l := z.eocd - 20; l >= 0 && string(b[l:l+4]) == "PK\x06\x07" {
		z.locator = l
		z.eocd64 = int(le.Uint64(b[l+8:]))
		if z.eocd64 < 0 || z.eocd64+56 > len(b) || string(b[z.eocd64:z.eocd64+4]) != "PK\x06\x06" {
			return nil, fmt.Errorf("bad zip64 end record")
		}
		n = int(le.Uint64(b[z.eocd64+32:]))
		z.cdOff = int(le.Uint64(b[z.eocd64+48:]))
	}
	p := z.cdOff
	for i := 0; i < n; i++ {
		if p+46 > len(b) || string(b[p:p+4]) != "PK\x01\x02" {
			return nil, fmt.Errorf("bad central directory record %d", i)
		}
		nl, el, cl := int(le.Uint16(b[p+28:])), int(le.Uint16(b[p+30:])), int(le.Uint16(b[p+32:]))
		e := &zent{name: string(b[p+46 : p+46+nl]), cd: p, local: int(le.Uint32(b[p+42:])), method: le.Uint16(b[p+10:]),
			crc: le.Uint32(b[p+16:]), csize: int(le.Uint32(b[p+20:])), usize: int(le.Uint32(b[p+24:])), desc: -1}
		if e.local+30 > len(b) || string(b[e.local:e.local+4]) != "PK\x03\x04" {
			return nil, fmt.Errorf("entry %s: bad local header", e.name)
		}
		e.data = e.local + 30 + int(le.Uint16(b[e.local+26:])) + int(le.Uint16(b[e.local+28:]))
		if d := e.data + e.csize; le.Uint16(b[e.local+6:])&8 != 0 && d+16 <= len(b) && string(b[d:d+4]) == "PK\x07\x08" {
			e.desc = d
			e.descWide = d+24 <= len(b) && string(b[d+16:d+18]) != "PK" && string(b[d+24:d+26]) == "PK"
		}
		z.ents = append(z.ents, e)
		if strings.HasSuffix(e.name, ".json") {
			z.jsonEntIdx = append(z.jsonEntIdx, i)
		}
		p += 46 + nl + el + cl
	}
	z.cdEnd = p
	return z, nil
}

func u16(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }
func u64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

// GenerateArchive returns up to n mutants of a .pt2 archive.
func GenerateArchive(data []byte, name string, seed uint64, n int) ([]Mutant, error) {
	z, err := parseZip(data)
	if err != nil {
		return nil, fmt.Errorf("mutate: %s: %w", name, err)
	}
	s := newSeed(data, name, seed)
	s.zip = z
	for _, fam := range archiveFamilies {
		fam.gen(s, max(1, int(math.Round(fam.share*float64(n)))))
	}
	return s.unique(), nil
}

func (s *seedInfo) entry(name string) *zent {
	for _, e := range s.zip.ents {
		if strings.HasSuffix(e.name, name) {
			return e
		}
	}
	return nil
}

// content is an entry's bytes (inflated when compressed).
func (s *seedInfo) content(e *zent) []byte {
	raw := s.data[e.data : e.data+e.csize]
	if e.method == 0 {
		return raw
	}
	out, err := readAllFlate(raw)
	if err != nil {
		return nil
	}
	return out
}

func readAllFlate(b []byte) ([]byte, error) {
	r := flate.NewReader(bytes.NewReader(b))
	defer r.Close()
	var out bytes.Buffer
	_, err := out.ReadFrom(r)
	return out.Bytes(), err
}

func deflate(b []byte) []byte {
	var out bytes.Buffer
	w, _ := flate.NewWriter(&out, flate.BestCompression)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// replace is the edits giving entry e the content seed[from:to] -> lit (offsets in the
// entry's content): the data spliced (re-deflated whole when compressed), the CRC and sizes
// in the local header, the data descriptor and the central directory, and every offset past
// the entry moved. method and usize, when >= 0, override what is declared.
func (s *seedInfo) replace(e *zent, from, to int, lit []byte, method int, usize int) []Edit {
	old := s.content(e)
	content := append(append(append([]byte(nil), old[:from]...), lit...), old[to:]...)
	var edits []Edit
	csize := len(content)
	m := e.method
	if method >= 0 {
		m = uint16(method)
	}
	if m == 0 && e.method == 0 {
		edits = append(edits, Edit{Off: e.data + from, Cut: to - from, Data: lit, Splice: true})
	} else {
		var raw []byte
		if m == 0 {
			raw = content
		} else {
			raw = deflate(content)
		}
		csize = len(raw)
		edits = append(edits, Edit{Off: e.data, Cut: e.csize, Data: raw, Splice: true})
	}
	us := len(content)
	if usize >= 0 {
		us = usize
	}
	return append(edits, s.declare(e, m, crc32.ChecksumIEEE(content), csize, us, csize-e.csize)...)
}

// declare is the edits declaring entry e's method, CRC and sizes everywhere they are written,
// with every offset after the entry's data moved by delta.
func (s *seedInfo) declare(e *zent, method uint16, crc uint32, csize, usize, delta int) []Edit {
	le := binary.LittleEndian
	var edits []Edit
	edits = append(edits, Edit{Off: e.local + 8, Data: u16(method)}, Edit{Off: e.cd + 10, Data: u16(method)})
	if le.Uint32(s.data[e.local+14:]) != 0 || le.Uint32(s.data[e.local+18:]) != 0 {
		edits = append(edits, Edit{Off: e.local + 14, Data: slicesConcat(u32(crc), u32(uint32(csize)), u32(uint32(usize)))})
	}
	if e.desc >= 0 {
		if e.descWide {
			edits = append(edits, Edit{Off: e.desc + 4, Data: slicesConcat(u32(crc), u64(uint64(csize)), u64(uint64(usize)))})
		} else {
			edits = append(edits, Edit{Off: e.desc + 4, Data: slicesConcat(u32(crc), u32(uint32(csize)), u32(uint32(usize)))})
		}
	}
	edits = append(edits, Edit{Off: e.cd + 16, Data: slicesConcat(u32(crc), u32(uint32(csize)), u32(uint32(usize)))})
	if delta != 0 {
		edits = append(edits, s.shift(e.data, delta)...)
	}
	return edits
}

// shift moves every offset pointing past pos by delta.
func (s *seedInfo) shift(pos, delta int) []Edit {
	z := s.zip
	var edits []Edit
	for _, o := range z.ents {
		if o.local > pos {
			edits = append(edits, Edit{Off: o.cd + 42, Data: u32(uint32(o.local + delta))})
		}
	}
	if z.cdOff > pos {
		edits = append(edits, Edit{Off: z.eocd + 16, Data: u32(uint32(z.cdOff + delta))})
		if z.eocd64 >= 0 {
			edits = append(edits, Edit{Off: z.eocd64 + 48, Data: u64(uint64(z.cdOff + delta))})
			edits = append(edits, Edit{Off: z.locator + 8, Data: u64(uint64(z.eocd64 + delta))})
		}
	}
	return edits
}

func slicesConcat(bs ...[]byte) []byte { return bytes.Join(bs, nil) }

func (s *seedInfo) pickEntry() *zent { return pick(s.r, s.zip.ents) }

func genZipSize(s *seedInfo, quota int) {
	for try := 0; try < 4*quota && s.counts["zip-size"] < quota; try++ {
		e := s.pickEntry()
		where := pick(s.r, []string{"central csize", "central usize", "central both", "everywhere"})
		cur := e.usize
		v := pick(s.r, []int{0, cur + 1, cur - 1, cur / 2, 2*cur + 1, cur + 4096, 0x7FFFFFFF, allOnes32, 1 << 30, len(s.data)})
		if v == cur || v < 0 {
			continue
		}
		var edits []Edit
		switch where {
		case "central csize":
			edits = []Edit{{Off: e.cd + 20, Data: u32(uint32(v))}}
		case "central usize":
			edits = []Edit{{Off: e.cd + 24, Data: u32(uint32(v))}}
		case "central both":
			edits = []Edit{{Off: e.cd + 20, Data: slicesConcat(u32(uint32(v)), u32(uint32(v)))}}
		default:
			if e.method != 0 {
				edits = s.declare(e, e.method, e.crc, e.csize, v, 0)
			} else {
				edits = s.declare(e, 0, e.crc, v, v, 0)
			}
		}
		s.add("zip-size", fmt.Sprintf("%s: %s %d -> %d", e.name, where, cur, v), 0, edits...)
	}
}

func genZipMethod(s *seedInfo, quota int) {
	for try := 0; try < 4*quota && s.counts["zip-method"] < quota; try++ {
		e := s.pickEntry()
		v := pick(s.r, []uint16{0, 8, 8, 12, 14, 93, 99, 1})
		if v == e.method {
			continue
		}
		edits := []Edit{{Off: e.cd + 10, Data: u16(v)}}
		what := "central"
		if s.r.IntN(2) == 0 {
			edits = append(edits, Edit{Off: e.local + 8, Data: u16(v)})
			what = "both headers"
		}
		s.add("zip-method", fmt.Sprintf("%s: method %d -> %d (%s)", e.name, e.method, v, what), 0, edits...)
	}
}

func genZipCRC(s *seedInfo, quota int) {
	for k := 0; k < quota; k++ {
		e := s.pickEntry()
		v := e.crc ^ (1 << s.r.IntN(32))
		edits := []Edit{{Off: e.cd + 16, Data: u32(v)}}
		if e.desc >= 0 && s.r.IntN(2) == 0 {
			edits = append(edits, Edit{Off: e.desc + 4, Data: u32(v)})
		}
		s.add("zip-crc", fmt.Sprintf("%s: crc %08x -> %08x", e.name, e.crc, v), 0, edits...)
	}
}

func genZipOffset(s *seedInfo, quota int) {
	z := s.zip
	for try := 0; try < 4*quota && s.counts["zip-offset"] < quota; try++ {
		switch s.r.IntN(3) {
		case 0, 1:
			e := s.pickEntry()
			o := s.pickEntry()
			v := pick(s.r, []int{o.local, e.local + 1, e.local - 1, e.data, len(s.data), 0x7FFFFFFF, allOnes32, z.cdOff})
			if v == e.local || v < 0 {
				continue
			}
			s.add("zip-offset", fmt.Sprintf("%s: local header offset %d -> %d", e.name, e.local, v), 0, Edit{Off: e.cd + 42, Data: u32(uint32(v))})
		default:
			n := len(z.ents)
			f := pick(s.r, []string{"cd offset", "entries", "cd size"})
			var ed Edit
			var cur, v int
			switch f {
			case "cd offset":
				cur = z.cdOff
				v = pick(s.r, []int{cur + 1, cur - 1, 0, len(s.data), 0x7FFFFFFF})
				if z.eocd64 >= 0 {
					ed = Edit{Off: z.eocd64 + 48, Data: u64(uint64(v))}
				} else {
					ed = Edit{Off: z.eocd + 16, Data: u32(uint32(v))}
				}
			case "entries":
				cur = n
				v = pick(s.r, []int{n + 1, n - 1, 0, 0xFFFF, 1 << 30})
				if z.eocd64 >= 0 {
					ed = Edit{Off: z.eocd64 + 24, Data: slicesConcat(u64(uint64(v)), u64(uint64(v)))}
				} else {
					v &= 0xFFFF
					ed = Edit{Off: z.eocd + 8, Data: slicesConcat(u16(uint16(v)), u16(uint16(v)))}
				}
			default:
				cur = z.cdEnd - z.cdOff
				v = pick(s.r, []int{cur + 1, cur - 1, 0, 1 << 30})
				if z.eocd64 >= 0 {
					ed = Edit{Off: z.eocd64 + 40, Data: u64(uint64(v))}
				} else {
					ed = Edit{Off: z.eocd + 12, Data: u32(uint32(v))}
				}
			}
			if v == cur {
				continue
			}
			s.add("zip-offset", fmt.Sprintf("end record %s %d -> %d", f, cur, v), 0, ed)
		}
	}
}

func genZipName(s *seedInfo, quota int) {
	for try := 0; try < 4*quota && s.counts["zip-name"] < quota; try++ {
		e := s.pickEntry()
		if s.r.IntN(2) == 0 {
			// Another entry's name of the same length: the archive names one entry twice.
			var same []*zent
			for _, o := range s.zip.ents {
				if o != e && len(o.name) == len(e.name) {
					same = append(same, o)
				}
			}
			if len(same) > 0 {
				o := pick(s.r, same)
				edits := []Edit{{Off: e.cd + 46, Data: []byte(o.name)}}
				if s.r.IntN(2) == 0 {
					edits = append(edits, Edit{Off: e.local + 30, Data: []byte(o.name)})
				}
				s.add("zip-name", fmt.Sprintf("%s renamed %s", e.name, o.name), 0, edits...)
				continue
			}
		}
		i := s.r.IntN(len(e.name))
		c := pick(s.r, []byte{0, '/', '.', 'X', 0xFF, '\\'})
		if e.name[i] == c {
			continue
		}
		edits := []Edit{{Off: e.cd + 46 + i, Data: []byte{c}}}
		if s.r.IntN(2) == 0 {
			edits = append(edits, Edit{Off: e.local + 30 + i, Data: []byte{c}})
		}
		s.add("zip-name", fmt.Sprintf("%s: name byte %d %q -> %q", e.name, i, e.name[i], c), 0, edits...)
	}
}

// genZipDup adds a second central directory record for an entry: the same name twice, with
// the same data or another entry's.
func genZipDup(s *seedInfo, quota int) {
	z := s.zip
	le := binary.LittleEndian
	for try := 0; try < 4*quota && s.counts["zip-dup"] < quota; try++ {
		e := s.pickEntry()
		if s.r.IntN(2) == 0 {
			if j := s.entry("models/model.json"); j != nil {
				e = j
			}
		}
		end := e.cd + 46 + int(le.Uint16(s.data[e.cd+28:])) + int(le.Uint16(s.data[e.cd+30:])) + int(le.Uint16(s.data[e.cd+32:]))
		rec := bytes.Clone(s.data[e.cd:end])
		what := "same data"
		if s.r.IntN(2) == 0 {
			o := s.pickEntry()
			if o != e {
				copy(rec[10:12], s.data[o.cd+10:o.cd+12])
				copy(rec[16:28], s.data[o.cd+16:o.cd+28])
				copy(rec[42:46], s.data[o.cd+42:o.cd+46])
				what = "the data of " + o.name
			}
		}
		n := len(z.ents) + 1
		size := z.cdEnd - z.cdOff + len(rec)
		edits := []Edit{{Off: end, Data: rec, Splice: true}}
		if z.eocd64 >= 0 {
			edits = append(edits, Edit{Off: z.eocd64 + 24, Data: slicesConcat(u64(uint64(n)), u64(uint64(n)), u64(uint64(size)))},
				Edit{Off: z.locator + 8, Data: u64(uint64(z.eocd64 + len(rec)))})
		} else {
			edits = append(edits, Edit{Off: z.eocd + 8, Data: slicesConcat(u16(uint16(n)), u16(uint16(n)), u32(uint32(size)))})
		}
		s.add("zip-dup", fmt.Sprintf("%s listed twice (%s)", e.name, what), 0, edits...)
	}
}

func genZipTruncate(s *seedInfo, quota int) {
	z := s.zip
	for try := 0; try < 4*quota && s.counts["zip-truncate"] < quota; try++ {
		switch s.r.IntN(3) {
		case 0:
			e := s.pickEntry()
			cuts := []int{e.local + 1, e.data, e.data + e.csize/2, z.cdOff + 1, z.eocd + 1, len(s.data) - 1, z.cdEnd}
			n := pick(s.r, cuts)
			if n <= 0 || n >= len(s.data) {
				continue
			}
			s.add("zip-truncate", fmt.Sprintf("file cut to %d of %d bytes (%s at %d)", n, len(s.data), e.name, e.local), n)
		case 1:
			n := 1 + s.r.IntN(len(s.data)-1)
			s.add("zip-truncate", fmt.Sprintf("file cut to %d of %d bytes", n, len(s.data)), n)
		default:
			// An entry whose data is cut short, declared consistently (sizes and CRC fixed).
			e := s.pickEntry()
			if e.usize == 0 {
				continue
			}
			k := pick(s.r, []int{0, e.usize / 2, e.usize - 1, 1})
			s.add("zip-truncate", fmt.Sprintf("%s: content cut to %d of %d bytes, declared so", e.name, k, e.usize), 0, s.replace(e, k, e.usize, nil, -1, -1)...)
		}
	}
}

var (
	bombOnce sync.Once
	bombs    map[string][]byte
)

// bombSize is what a bomb inflates to: twice the RSS budget's 64 MB floor.
const bombSize = 128 << 20

func bombData() map[string][]byte {
	bombOnce.Do(func() {
		bombs = map[string][]byte{
			"zeros":   deflate(make([]byte, bombSize)),
			"bracket": deflate(bytes.Repeat([]byte("["), bombSize)),
		}
	})
	return bombs
}

// genZipBomb replaces an entry by a deflate stream that inflates to 128 MB: declared
// honestly, or declared the entry's old size.
func genZipBomb(s *seedInfo, quota int) {
	for try := 0; try < 4*quota && s.counts["zip-bomb"] < quota; try++ {
		e := s.pickEntry()
		if s.r.IntN(2) == 0 {
			if j := s.entry("models/model.json"); j != nil {
				e = j
			}
		}
		kind := "zeros"
		if strings.HasSuffix(e.name, ".json") && s.r.IntN(2) == 0 {
			kind = "bracket"
		}
		raw := bombData()[kind]
		usize, what := bombSize, "declared"
		if s.r.IntN(2) == 0 {
			usize, what = e.usize, "declared the old size"
		}
		edits := []Edit{{Off: e.data, Cut: e.csize, Data: raw, Splice: true}}
		edits = append(edits, s.declare(e, 8, 0, len(raw), usize, len(raw)-e.csize)...)
		s.add("zip-bomb", fmt.Sprintf("%s: a %d-byte deflate stream of %s inflating to %d bytes, %s", e.name, len(raw), kind, bombSize, what), 0, edits...)
	}
}

// jsonPick is a JSON entry of the archive (the model's graph most often) with its nodes.
func (s *seedInfo) jsonPick() (*zent, []byte, []*jnode) {
	var e *zent
	if s.r.IntN(4) != 0 {
		e = s.entry("models/model.json")
	}
	if e == nil && len(s.zip.jsonEntIdx) > 0 {
		e = s.zip.ents[pick(s.r, s.zip.jsonEntIdx)]
	}
	if e == nil {
		return nil, nil, nil
	}
	doc := s.content(e)
	_, all, err := parseSpans(doc)
	if err != nil {
		return nil, nil, nil
	}
	return e, doc, all
}

func short(b []byte) string {
	if len(b) > 40 {
		return string(b[:37]) + "..."
	}
	return string(b)
}

// path names a node by its keys and indices, e.g. graph_module.graph.nodes[3].target.
func (n *jnode) path() string {
	var parts []string
	for x := n; x.parent != nil; x = x.parent {
		if x.parent.kind == '{' {
			parts = append(parts, x.key)
		} else {
			i := 0
			for x.parent.kids[i] != x {
				i++
			}
			parts = append(parts, fmt.Sprintf("[%d]", i))
		}
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		if b.Len() > 0 && !strings.HasPrefix(parts[i], "[") {
			b.WriteByte('.')
		}
		b.WriteString(parts[i])
	}
	return b.String()
}

// jsonEdit adds a mutant replacing doc[from:to] of entry e with lit.
func (s *seedInfo) jsonEdit(kind string, e *zent, doc []byte, from, to int, lit []byte, what string) {
	s.add(kind, fmt.Sprintf("%s: %s: %s -> %s", e.name, what, short(doc[from:to]), short(lit)), 0, s.replace(e, from, to, lit, -1, -1)...)
}

func (s *seedInfo) jsonFamily(kind string, quota int, keep func(doc []byte, n *jnode) bool, repl func(doc []byte, n *jnode, all []*jnode) []byte) {
	for try := 0; try < 6*quota && s.counts[kind] < quota; try++ {
		e, doc, all := s.jsonPick()
		if e == nil {
			return
		}
		var xs []*jnode
		for _, n := range all {
			if keep(doc, n) {
				xs = append(xs, n)
			}
		}
		if len(xs) == 0 {
			continue
		}
		n := pick(s.r, xs)
		lit := repl(doc, n, all)
		if lit == nil || bytes.Equal(lit, doc[n.start:n.end]) {
			continue
		}
		s.jsonEdit(kind, e, doc, n.start, n.end, lit, n.path())
	}
}

func genJSONType(s *seedInfo, quota int) {
	s.jsonFamily("json-type", quota, func(doc []byte, n *jnode) bool { return n.parent != nil }, func(doc []byte, n *jnode, _ []*jnode) []byte {
		var cands []string
		for _, c := range []string{`"x"`, `0`, `-1`, `[]`, `{}`, `null`, `true`, `1.5`, `[null]`, `{"as_int": 1}`} {
			if c[0] != doc[n.start] {
				cands = append(cands, c)
			}
		}
		return []byte(pick(s.r, cands))
	})
}

func genJSONNumber(s *seedInfo, quota int) {
	s.jsonFamily("json-number", quota, func(doc []byte, n *jnode) bool { return n.kind == 'n' }, func(doc []byte, n *jnode, _ []*jnode) []byte {
		return []byte(pick(s.r, []string{"-1", "0", "1", "1e308", "1e400", "-1e400", "1e-400", "9223372036854775807", "9223372036854775808",
			"-9223372036854775809", "4294967296", "2147483648", "-2147483649", "1.5", "0.0", "-0", "18446744073709551616", "1e18", "1099511627776"}))
	})
}

func genJSONMissing(s *seedInfo, quota int) {
	for try := 0; try < 6*quota && s.counts["json-missing"] < quota; try++ {
		e, _, all := s.jsonPick()
		if e == nil {
			return
		}
		var xs []*jnode
		for _, n := range all {
			if n.parent != nil && (n.parent.kind == '{' || s.r.IntN(4) == 0) {
				xs = append(xs, n)
			}
		}
		if len(xs) == 0 {
			continue
		}
		n := pick(s.r, xs)
		from, to := n.memberSpan()
		s.add("json-missing", fmt.Sprintf("%s: %s removed", e.name, n.path()), 0, s.replace(e, from, to, nil, -1, -1)...)
	}
}

func genJSONNest(s *seedInfo, quota int) {
	s.jsonFamily("json-nest", quota, func(doc []byte, n *jnode) bool { return n.parent != nil && (n.kind == '[' || n.kind == '{') },
		func(doc []byte, n *jnode, _ []*jnode) []byte {
			d := pick(s.r, []int{100, 1000, 10001, 100000})
			if s.r.IntN(2) == 0 {
				return slicesConcat(bytes.Repeat([]byte("["), d), bytes.Repeat([]byte("]"), d))
			}
			return slicesConcat(bytes.Repeat([]byte(`{"a":`), d), []byte("1"), bytes.Repeat([]byte("}"), d))
		})
}

// genJSONRef points a tensor reference ({"name": X} under as_tensor/as_tensors, an input or
// output spec) at another value, an undefined one, or the empty name.
func genJSONRef(s *seedInfo, quota int) {
	isRef := func(doc []byte, n *jnode) bool {
		if n.kind != '"' || n.key != "name" || n.parent == nil || n.parent.parent == nil {
			return false
		}
		k := n.parent.key
		return k == "as_tensor" || k == "arg" || strings.HasPrefix(n.parent.parent.key, "as_tensors") || n.parent.parent.key == "as_tensors"
	}
	s.jsonFamily("json-ref", quota, isRef, func(doc []byte, n *jnode, all []*jnode) []byte {
		var names []*jnode
		for _, o := range all {
			if isRef(doc, o) {
				names = append(names, o)
			}
		}
		switch s.r.IntN(4) {
		case 0:
			return []byte(`"zz_undefined"`)
		case 1:
			return []byte(`""`)
		}
		o := pick(s.r, names)
		return doc[o.start:o.end]
	})
}

func genJSONTarget(s *seedInfo, quota int) {
	isTarget := func(doc []byte, n *jnode) bool { return n.kind == '"' && n.key == "target" }
	s.jsonFamily("json-target", quota, isTarget, func(doc []byte, n *jnode, all []*jnode) []byte {
		var ts []*jnode
		for _, o := range all {
			if isTarget(doc, o) {
				ts = append(ts, o)
			}
		}
		switch s.r.IntN(3) {
		case 0:
			return []byte(pick(s.r, []string{`"torch.ops.aten.nonexistent.default"`, `""`, `"builtins.getattr"`, `"torch.ops.higher_order.cond"`,
				`"torch.ops.aten.add"`, `"torch.ops.aten.add.Tensor.extra"`, `"operator.getitem"`, `"torch.ops.aten.nonzero.default"`}))
		}
		o := pick(s.r, ts)
		return doc[o.start:o.end]
	})
}

// genJSONMeta edits tensor metadata: the dtype, a size, a stride or the storage offset of a
// graph value or a weight.
func genJSONMeta(s *seedInfo, quota int) {
	s.jsonFamily("json-meta", quota, func(doc []byte, n *jnode) bool {
		if n.kind != 'n' {
			return false
		}
		if n.key == "dtype" || n.key == "layout" {
			return true
		}
		p := n.parent
		return n.key == "as_int" && p != nil && p.parent != nil && (p.parent.key == "sizes" || p.parent.key == "strides" || p.key == "storage_offset")
	}, func(doc []byte, n *jnode, _ []*jnode) []byte {
		if n.key == "dtype" || n.key == "layout" {
			return []byte(fmt.Sprint(pick(s.r, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 22, 27, 99, -1})))
		}
		return []byte(pick(s.r, []string{"0", "-1", "2", "3", "1000", "65536", "2147483647", "4294967296", "1099511627776", "4611686018427387904", "-9223372036854775808"}))
	})
}

// genJSONCut ends the JSON early (the entry declared consistently), as an archive written by
// an interrupted process would.
func genJSONCut(s *seedInfo, quota int) {
	for try := 0; try < 4*quota && s.counts["json-cut"] < quota; try++ {
		e, doc, _ := s.jsonPick()
		if e == nil || len(doc) < 2 {
			return
		}
		k := 1 + s.r.IntN(len(doc)-1)
		s.add("json-cut", fmt.Sprintf("%s: JSON cut to %d of %d bytes", e.name, k, len(doc)), 0, s.replace(e, k, len(doc), nil, -1, -1)...)
	}
}

// allOnes32 is the largest 32-bit zip field value, as an int: on a 32-bit platform it wraps
// negative and the generators skip it (a variable, since the constant overflows int there).
var allOnes32 = func() int { v := ^uint32(0); return int(v) }()
