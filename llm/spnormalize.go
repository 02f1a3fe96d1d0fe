package llm

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"
)

// spNormalizer is libsentencepiece's Normalizer (normalizer.cc), which SentencePiece models of
// both kinds run before their segmentation: user-defined symbols kept as they are, every other
// prefix rewritten by the longest rule of the precompiled character map (the NFKC-style table
// that unigram models, T5's and most others, carry), a byte that is not UTF-8 replaced by U+FFFD,
// then whitespace trimmed and collapsed, the dummy prefix added and spaces escaped as "▁".
type spNormalizer struct {
	units       []uint32 // the charsmap's Darts double array; nil without a charsmap
	norm        []byte   // its NUL-terminated replacement strings, indexed by unit values
	userDefined map[string]bool
	maxUser     int // longest user-defined symbol, in bytes
	dummyPrefix bool
	removeExtra bool
	escapeSpace bool
}

const spSpace = "▁"

// setCharsmap reads a precompiled_charsmap: a little-endian uint32 byte size of the double array,
// the array, then the replacement strings. Each unit the search can reach is bounds-checked when
// used, and a value must point into the strings.
func (n *spNormalizer) setCharsmap(blob []byte) error {
	if len(blob) < 4 {
		return fmt.Errorf("precompiled charsmap of %d bytes has no trie size", len(blob))
	}
	size := uint64(binary.LittleEndian.Uint32(blob))
	if size > uint64(len(blob)-4) || size%4 != 0 || size == 0 {
		return fmt.Errorf("precompiled charsmap's trie size %d does not fit its %d bytes in whole units", size, len(blob))
	}
	n.units = make([]uint32, size/4)
	for i := range n.units {
		n.units[i] = binary.LittleEndian.Uint32(blob[4+4*i:])
	}
	n.norm = blob[4+size:]
	return nil
}

// Darts-clone unit fields (darts.h: DoubleArrayUnit).
func dartsHasLeaf(u uint32) bool  { return u>>8&1 == 1 }
func dartsValue(u uint32) uint32  { return u & (1<<31 - 1) }
func dartsLabel(u uint32) uint32  { return u & (1<<31 | 0xFF) }
func dartsOffset(u uint32) uint32 { return u >> 10 << ((u & (1 << 9)) >> 6) }

// longestRule is the length of the longest charsmap key that prefixes s and its replacement
// (Darts' commonPrefixSearch, longest result kept); 0 when none does. A corrupt array ends the
// search where it would leave the array, and a value outside the strings is no match.
func (n *spNormalizer) longestRule(s string) (int, string) {
	if n.units == nil {
		return 0, ""
	}
	best, val := 0, uint32(0)
	pos := dartsOffset(n.units[0])
	for i := 0; i < len(s); i++ {
		c := uint32(s[i])
		pos ^= c
		if int(pos) >= len(n.units) || int(pos) < 0 {
			break
		}
		u := n.units[pos]
		if dartsLabel(u) != c {
			break
		}
		pos ^= dartsOffset(u)
		if dartsHasLeaf(u) {
			if int(pos) >= len(n.units) {
				break
			}
			best, val = i+1, dartsValue(n.units[pos])
		}
	}
	if best == 0 || int(val) >= len(n.norm) {
		return 0, ""
	}
	rep := n.norm[val:]
	if k := strings.IndexByte(string(rep), 0); k >= 0 {
		rep = rep[:k]
	}
	return best, string(rep)
}

// prefix is NormalizePrefix: what the first few bytes of s become and how many were consumed.
func (n *spNormalizer) prefix(s string) (string, int) {
	if n.maxUser > 0 {
		for l := min(n.maxUser, len(s)); l > 0; l-- {
			if n.userDefined[s[:l]] {
				return s[:l], l
			}
		}
	}
	if l, rep := n.longestRule(s); l > 0 {
		return rep, l
	}
	r, l := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && l <= 1 {
		return "\uFFFD", 1 // a malformed byte: the replacement character for one byte
	}
	return s[:l], l
}

// normalize is Normalizer::Normalize (without treat_whitespace_as_suffix, which is refused at
// load).
func (n *spNormalizer) normalize(input string) string {
	if n.removeExtra {
		for input != "" {
			p, l := n.prefix(input)
			if p != " " {
				break
			}
			input = input[l:]
		}
	}
	if input == "" {
		return ""
	}
	var out strings.Builder
	ws := " "
	if n.escapeSpace {
		ws = spSpace
	}
	if n.dummyPrefix {
		out.WriteString(ws)
	}
	prevSpace := n.removeExtra
	for input != "" {
		p, l := n.prefix(input)
		for prevSpace && strings.HasPrefix(p, " ") {
			p = p[1:]
		}
		if p != "" {
			if n.escapeSpace {
				out.WriteString(strings.ReplaceAll(p, " ", spSpace))
			} else {
				out.WriteString(p)
			}
			prevSpace = strings.HasSuffix(p, " ")
		}
		input = input[l:]
		if !n.removeExtra {
			prevSpace = false
		}
	}
	s := out.String()
	if n.removeExtra {
		for strings.HasSuffix(s, ws) {
			s = s[:len(s)-len(ws)]
		}
	}
	return s
}
