package llm

// GPT-2's byte-level alphabet: every byte maps to a printable character (bytes_to_unicode in
// openai/gpt-2's encoder.py), which byte-level BPE vocabularies are written in.
var byteToRune, runeToByte = byteTables()

func byteTables() ([256]rune, map[rune]byte) {
	var b2r [256]rune
	r2b := map[rune]byte{}
	printable := func(b int) bool {
		return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF)
	}
	n := 0
	for b := 0; b < 256; b++ {
		r := rune(b)
		if !printable(b) {
			r = rune(256 + n)
			n++
		}
		b2r[b] = r
		r2b[r] = byte(b)
	}
	return b2r, r2b
}

// byteEncode writes s's bytes in the byte-level alphabet.
func byteEncode(s string) string {
	out := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = byteToRune[s[i]]
	}
	return string(out)
}

// byteDecode maps a byte-level token back to bytes; ok is false when a character is outside the
// alphabet (the runner's ByteLevel decoder then keeps the token's text as it is).
func byteDecode(tok string) (string, bool) {
	out := make([]byte, 0, len(tok))
	for _, r := range tok {
		b, ok := runeToByte[r]
		if !ok {
			return tok, false
		}
		out = append(out, b)
	}
	return string(out), true
}
