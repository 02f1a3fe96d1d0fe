package mutate

import (
	"encoding/binary"
	"fmt"
	"math"
	"regexp"
	"strings"
)

// npyFamilies mutate a .npy file: the header dictionary (shape, descr, fortran_order, its
// keys and syntax), the header length, the version and magic, and the data's length.
var npyFamilies = []family{
	{"npy-shape", 0.25, genNpyShape},
	{"npy-descr", 0.18, genNpyDescr},
	{"npy-fortran", 0.06, genNpyFortran},
	{"npy-dict", 0.12, genNpyDict},
	{"npy-header-len", 0.10, genNpyHeaderLen},
	{"npy-version", 0.06, genNpyVersion},
	{"npy-truncate", 0.13, genNpyTruncate},
	{"npy-data", 0.10, genNpyData},
}

// NpyFamilies lists GenerateNpy's families.
func NpyFamilies() []string { return names(npyFamilies) }

type npyHead struct {
	lenAt, lenW int // the header length field
	dict        int // where the dictionary text starts
	end         int // where the data starts
}

func parseNpyHead(b []byte) (npyHead, error) {
	if len(b) < 10 || string(b[:6]) != "\x93NUMPY" {
		return npyHead{}, fmt.Errorf("not a .npy file")
	}
	h := npyHead{lenAt: 8, lenW: 2}
	n := int(binary.LittleEndian.Uint16(b[8:]))
	if b[6] >= 2 {
		if len(b) < 12 {
			return h, fmt.Errorf("short header")
		}
		h.lenW, n = 4, int(binary.LittleEndian.Uint32(b[8:]))
	}
	h.dict = h.lenAt + h.lenW
	h.end = h.dict + n
	if h.end > len(b) {
		return h, fmt.Errorf("header past the end")
	}
	return h, nil
}

// GenerateNpy returns up to n mutants of a .npy file.
func GenerateNpy(data []byte, name string, seed uint64, n int) ([]Mutant, error) {
	h, err := parseNpyHead(data)
	if err != nil {
		return nil, fmt.Errorf("mutate: %s: %w", name, err)
	}
	s := newSeed(data, name, seed)
	for _, fam := range npyFamilies {
		q := max(1, int(math.Round(fam.share*float64(n))))
		fam.gen(s, q)
	}
	_ = h
	return s.unique(), nil
}

func (s *seedInfo) npyHead() npyHead { h, _ := parseNpyHead(s.data); return h }

// dictEdit adds a mutant replacing dictionary text: the header keeps its length when the new
// text fits (padded with spaces before the newline), and declares the longer length when not,
// so the edit reaches the dictionary parser rather than the framing.
func (s *seedInfo) dictEdit(kind string, from, to int, lit string, what string) {
	h := s.npyHead()
	dict := string(s.data[h.dict:h.end])
	nd := dict[:from] + lit + dict[to:]
	body := strings.TrimRight(nd, " \n")
	var edits []Edit
	if len(body)+1 <= len(dict) {
		nd = body + strings.Repeat(" ", len(dict)-len(body)-1) + "\n"
		edits = []Edit{{Off: h.dict, Data: []byte(nd)}}
	} else {
		nd = body + "\n"
		edits = []Edit{{Off: h.dict, Cut: len(dict), Data: []byte(nd), Splice: true}}
		if h.lenW == 2 {
			edits = append(edits, Edit{Off: h.lenAt, Data: u16(uint16(len(nd)))})
		} else {
			edits = append(edits, Edit{Off: h.lenAt, Data: u32(uint32(len(nd)))})
		}
	}
	s.add(kind, what, 0, edits...)
}

var (
	reShape   = regexp.MustCompile(`'shape':\s*\(([^)]*)\)`)
	reDescr   = regexp.MustCompile(`'descr':\s*'([^']*)'`)
	reFortran = regexp.MustCompile(`'fortran_order':\s*(True|False)`)
)

func (s *seedInfo) dictMatch(re *regexp.Regexp) (string, []int) {
	h := s.npyHead()
	dict := string(s.data[h.dict:h.end])
	return dict, re.FindStringSubmatchIndex(dict)
}

func genNpyShape(s *seedInfo, quota int) {
	dict, m := s.dictMatch(reShape)
	if m == nil {
		return
	}
	cur := dict[m[2]:m[3]]
	dims := strings.Split(strings.TrimSuffix(strings.ReplaceAll(cur, " ", ""), ","), ",")
	if cur == "" {
		dims = nil
	}
	for try := 0; try < 4*quota && s.counts["npy-shape"] < quota; try++ {
		var lit string
		switch s.r.IntN(6) {
		case 0: // a huge shape
			lit = pick(s.r, []string{"1099511627776,", "4294967296, 4294967296", "9223372036854775807,", "9223372036854775808,",
				"65536, 65536, 65536", "2147483648,", "3037000500, 3037000500", "1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1"})
		case 1: // negative, non-integer, malformed
			lit = pick(s.r, []string{"-1,", "-1, 3", "1.5,", "'a',", "3,,", ", 3", "(3,)", "3 3", "0x10,", "3L,", "True,", "None,", "1e3,"})
		case 2: // one dimension more or less, or none
			switch {
			case len(dims) > 0 && s.r.IntN(2) == 0:
				lit = strings.Join(dims[1:], ", ")
				if len(dims) == 2 {
					lit += ","
				}
			default:
				lit = strings.Join(append([]string{"2"}, dims...), ", ")
				if len(dims) == 0 {
					lit += ","
				}
			}
		case 3:
			lit = pick(s.r, []string{"", "0,", "1,", "0, 0"})
		default: // one dimension changed
			if len(dims) == 0 {
				continue
			}
			i := s.r.IntN(len(dims))
			d := append([]string(nil), dims...)
			d[i] = pick(s.r, []string{"0", "1", "2", "1000", "100000000", "4611686018427387904", "-2"})
			lit = strings.Join(d, ", ")
			if len(d) == 1 {
				lit += ","
			}
		}
		if strings.ReplaceAll(lit, " ", "") == strings.ReplaceAll(cur, " ", "") {
			continue
		}
		s.dictEdit("npy-shape", m[2], m[3], lit, fmt.Sprintf("shape (%s) -> (%s)", cur, lit))
	}
}

func genNpyDescr(s *seedInfo, quota int) {
	dict, m := s.dictMatch(reDescr)
	if m == nil {
		return
	}
	cur := dict[m[2]:m[3]]
	for try := 0; try < 4*quota && s.counts["npy-descr"] < quota; try++ {
		v := pick(s.r, []string{"<f4", "<f8", ">f4", "<f2", "|b1", "|i1", "|u1", "<i2", "<i4", "<i8", ">i8", "<u4", "<u8", "<c8", "<c16", "|O",
			"|V16", "<U8", "|S4", "<M8[s]", "<m8", "xyz", "", "<f0", "<f3", "<f16", "<i1024", "=f4", "f4", "<F4", "<f99999999999999999999"})
		if v == cur {
			continue
		}
		s.dictEdit("npy-descr", m[2], m[3], v, fmt.Sprintf("descr %q -> %q", cur, v))
	}
}

func genNpyFortran(s *seedInfo, quota int) {
	dict, m := s.dictMatch(reFortran)
	if m == nil {
		return
	}
	cur := dict[m[2]:m[3]]
	for try := 0; try < 4*quota && s.counts["npy-fortran"] < quota; try++ {
		v := pick(s.r, []string{"True", "False", "1", "0", "'yes'", "None", "true", "Tru"})
		if v == cur {
			continue
		}
		s.dictEdit("npy-fortran", m[2], m[3], v, fmt.Sprintf("fortran_order %s -> %s", cur, v))
	}
}

func genNpyDict(s *seedInfo, quota int) {
	h := s.npyHead()
	dict := string(s.data[h.dict:h.end])
	body := strings.TrimRight(dict, " \n")
	for try := 0; try < 4*quota && s.counts["npy-dict"] < quota; try++ {
		var from, to int
		var lit, what string
		switch s.r.IntN(6) {
		case 0: // a key removed
			re := pick(s.r, []*regexp.Regexp{reShape, reDescr, reFortran})
			m := re.FindStringIndex(dict)
			if m == nil {
				continue
			}
			from, to, what = m[0], m[1], "key removed: "+dict[m[0]:m[1]]
			if to < len(dict) && dict[to] == ',' {
				to++
			}
		case 1: // a key twice
			m := reShape.FindStringIndex(dict)
			if m == nil {
				continue
			}
			from, to, lit, what = m[1], m[1], ", "+dict[m[0]:m[1]], "shape twice"
		case 2: // an extra key
			from, to, lit, what = 1, 1, "'extra': 1, ", "an extra key"
		case 3: // a closing brace lost or doubled
			i := strings.LastIndex(body, "}")
			if i < 0 {
				continue
			}
			from, to = i, i+1
			lit = pick(s.r, []string{"", "}}", "]"})
			what = "closing brace -> " + fmt.Sprintf("%q", lit)
		case 4: // a quote or colon lost, a byte replaced
			i := s.r.IntN(len(body))
			from, to = i, i+1
			lit = pick(s.r, []string{"", "'", "\"", ":", "\x00", "\xff", "\\"})
			what = fmt.Sprintf("byte %d %q -> %q", i, body[i], lit)
		default: // not a dictionary at all
			from, to = 0, len(body)
			lit = pick(s.r, []string{"[]", "None", "{}", "{'descr': '<f4'}", strings.Repeat("(", 5000), "{" + strings.Repeat(" ", 70000)})
			what = "dictionary -> " + short([]byte(lit))
		}
		s.dictEdit("npy-dict", from, to, lit, what)
	}
}

func genNpyHeaderLen(s *seedInfo, quota int) {
	h := s.npyHead()
	cur := uint64(h.end - h.dict)
	x := &fbverifySite{pos: h.lenAt, w: h.lenW}
	for try := 0; try < 4*quota && s.counts["npy-header-len"] < quota; try++ {
		v := pick(s.r, []uint64{0, 1, cur - 1, cur + 1, cur - 16, cur + 16, cur * 2, uint64(len(s.data)), uint64(len(s.data)) + 1, 0xFFFF, 0xFFFFFFFF, 1 << 24})
		if x.w == 2 {
			v &= 0xFFFF
		}
		if v == cur {
			continue
		}
		s.add("npy-header-len", fmt.Sprintf("header length %d -> %d", cur, v), 0, x.set(v))
	}
}

type fbverifySite struct{ pos, w int }

func (x *fbverifySite) set(v uint64) Edit {
	if x.w == 2 {
		return Edit{Off: x.pos, Data: u16(uint16(v))}
	}
	return Edit{Off: x.pos, Data: u32(uint32(v))}
}

func genNpyVersion(s *seedInfo, quota int) {
	for try := 0; try < 4*quota && s.counts["npy-version"] < quota; try++ {
		switch s.r.IntN(3) {
		case 0, 1:
			v := pick(s.r, [][]byte{{1, 0}, {2, 0}, {3, 0}, {0, 0}, {4, 0}, {1, 1}, {9, 9}, {255, 255}})
			if v[0] == s.data[6] && v[1] == s.data[7] {
				continue
			}
			s.add("npy-version", fmt.Sprintf("version %d.%d -> %d.%d", s.data[6], s.data[7], v[0], v[1]), 0, Edit{Off: 6, Data: v})
		default:
			i := s.r.IntN(6)
			c := pick(s.r, []byte{0, 'x', 0x92, 'n'})
			if s.data[i] == c {
				continue
			}
			s.add("npy-version", fmt.Sprintf("magic byte %d %q -> %q", i, s.data[i], c), 0, Edit{Off: i, Data: []byte{c}})
		}
	}
}

func genNpyTruncate(s *seedInfo, quota int) {
	h := s.npyHead()
	size := len(s.data)
	cuts := []int{1, 6, 8, 9, 10, h.dict + 5, h.end - 1, h.end, h.end + 1, size - 1, (h.end + size) / 2}
	for try := 0; try < 4*quota && s.counts["npy-truncate"] < quota; try++ {
		n := pick(s.r, cuts)
		if s.r.IntN(3) == 0 {
			n = 1 + s.r.IntN(size)
		}
		if n <= 0 || n >= size {
			continue
		}
		s.add("npy-truncate", fmt.Sprintf("file cut to %d of %d bytes (data at %d)", n, size, h.end), n)
	}
}

// genNpyData appends bytes after the data: the file holds more than its header declares.
func genNpyData(s *seedInfo, quota int) {
	for try := 0; try < 4*quota && s.counts["npy-data"] < quota; try++ {
		n := pick(s.r, []int{1, 3, 4, 8, 64, 4096})
		s.add("npy-data", fmt.Sprintf("%d bytes appended", n), 0, Edit{Off: len(s.data), Data: make([]byte, n), Splice: true})
	}
}
