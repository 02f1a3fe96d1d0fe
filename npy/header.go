package npy

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// dict holds the three keys numpy writes into a header.
type dict struct {
	descr   string
	fortran bool
	shape   []int
}

// parseDict parses the Python dictionary literal of a header. It accepts what numpy and older
// writers produce: single or double quotes, any whitespace, a trailing comma, and Python 2 long
// suffixes ("3L"). Like numpy, it requires exactly the keys descr, fortran_order and shape.
func parseDict(s string) (dict, error) {
	p := &lexer{s: s}
	var d dict
	seen := map[string]bool{}
	if !p.eat('{') {
		return d, errors.New("does not start with '{'")
	}
	for {
		if p.eat('}') {
			break
		}
		key, err := p.str()
		if err != nil {
			return d, fmt.Errorf("key: %v", err)
		}
		if seen[key] {
			return d, fmt.Errorf("key %q appears twice", key)
		}
		seen[key] = true
		if !p.eat(':') {
			return d, fmt.Errorf("no ':' after key %q", key)
		}
		switch key {
		case "descr":
			if d.descr, err = p.str(); err != nil {
				return d, fmt.Errorf("descr: %v", err)
			}
		case "fortran_order":
			if d.fortran, err = p.boolean(); err != nil {
				return d, fmt.Errorf("fortran_order: %v", err)
			}
		case "shape":
			if d.shape, err = p.tuple(); err != nil {
				return d, fmt.Errorf("shape: %v", err)
			}
		default:
			return d, fmt.Errorf("unexpected key %q", key)
		}
		if p.eat('}') {
			break
		}
		if !p.eat(',') {
			return d, fmt.Errorf("expected ',' or '}' at offset %d", p.i)
		}
	}
	p.skipSpace()
	if p.i != len(p.s) {
		return d, fmt.Errorf("unexpected text after the dictionary at offset %d", p.i)
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return d, fmt.Errorf("missing key %q", k)
		}
	}
	return d, nil
}

type lexer struct {
	s string
	i int
}

func (p *lexer) skipSpace() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *lexer) eat(c byte) bool {
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a quoted string without escapes (numpy headers never contain any).
func (p *lexer) str() (string, error) {
	p.skipSpace()
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", fmt.Errorf("expected a quoted string at offset %d", p.i)
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", fmt.Errorf("unterminated string at offset %d", p.i)
	}
	v := p.s[p.i+1 : p.i+1+end]
	if strings.IndexByte(v, '\\') >= 0 {
		return "", fmt.Errorf("escape sequences are not supported at offset %d", p.i)
	}
	p.i += end + 2
	return v, nil
}

func (p *lexer) boolean() (bool, error) {
	p.skipSpace()
	for _, c := range []struct {
		word string
		v    bool
	}{{"True", true}, {"False", false}} {
		if strings.HasPrefix(p.s[p.i:], c.word) {
			p.i += len(c.word)
			return c.v, nil
		}
	}
	return false, fmt.Errorf("expected True or False at offset %d", p.i)
}

// tuple reads "()", "(3,)", "(2, 3)" or "(2, 3,)".
func (p *lexer) tuple() ([]int, error) {
	if !p.eat('(') {
		return nil, fmt.Errorf("expected '(' at offset %d", p.i)
	}
	dims := []int{}
	for {
		if p.eat(')') { // "()" or a trailing comma
			return dims, nil
		}
		if len(dims) == maxRank {
			return nil, fmt.Errorf("more than %d dimensions", maxRank)
		}
		p.skipSpace()
		start := p.i
		for p.i < len(p.s) && (p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i] == '-') {
			p.i++
		}
		n, err := strconv.Atoi(p.s[start:p.i])
		if err != nil {
			return nil, fmt.Errorf("bad dimension %q at offset %d", p.s[start:p.i], start)
		}
		if n < 0 {
			return nil, fmt.Errorf("negative dimension %d at offset %d", n, start)
		}
		if p.i < len(p.s) && p.s[p.i] == 'L' {
			p.i++
		}
		dims = append(dims, n)
		if p.eat(')') {
			if len(dims) == 1 {
				return nil, fmt.Errorf("(n) is not a tuple; numpy writes (n,)")
			}
			return dims, nil
		}
		if !p.eat(',') {
			return nil, fmt.Errorf("expected ',' or ')' at offset %d", p.i)
		}
	}
}
