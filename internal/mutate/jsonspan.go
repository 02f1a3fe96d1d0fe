package mutate

import (
	"encoding/json"
	"errors"
)

// jnode is one JSON value of a document with its byte span, so an edit can replace exactly
// it (or, for an object member, the member with its comma) and leave every other byte alone.
type jnode struct {
	kind       byte // '{', '[', '"', 'n' (number), 't', 'f', 'z' (null)
	start, end int
	// key and keyStart are set for an object's member.
	key      string
	keyStart int
	parent   *jnode
	kids     []*jnode
	depth    int
}

// memberSpan is the bytes that removing a member (or array element) takes away: the
// member and the comma after it, or the one before it for the last.
func (n *jnode) memberSpan() (int, int) {
	from := n.start
	if n.key != "" || n.keyStart > 0 {
		from = n.keyStart
	}
	p := n.parent
	i := 0
	for i < len(p.kids) && p.kids[i] != n {
		i++
	}
	switch {
	case i+1 < len(p.kids):
		nx := p.kids[i+1]
		to := nx.start
		if p.kind == '{' {
			to = nx.keyStart
		}
		return from, to
	case i > 0:
		return p.kids[i-1].end, n.end
	}
	return from, n.end
}

var errJSON = errors.New("malformed JSON")

// parseSpans parses doc into its node tree (all nodes in document order).
func parseSpans(doc []byte) (*jnode, []*jnode, error) {
	p := &jparser{b: doc}
	root, err := p.value(nil, 0)
	return root, p.all, err
}

type jparser struct {
	b   []byte
	i   int
	all []*jnode
}

func (p *jparser) ws() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\n' || p.b[p.i] == '\t' || p.b[p.i] == '\r') {
		p.i++
	}
}

func (p *jparser) value(parent *jnode, depth int) (*jnode, error) {
	p.ws()
	if p.i >= len(p.b) || depth > 1000 {
		return nil, errJSON
	}
	n := &jnode{start: p.i, parent: parent, depth: depth}
	p.all = append(p.all, n)
	switch c := p.b[p.i]; {
	case c == '{' || c == '[':
		n.kind = c
		p.i++
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		for {
			p.ws()
			if p.i < len(p.b) && p.b[p.i] == closing {
				p.i++
				break
			}
			keyStart, key := 0, ""
			if c == '{' {
				keyStart = p.i
				if err := p.string(); err != nil {
					return nil, err
				}
				json.Unmarshal(p.b[keyStart:p.i], &key)
				p.ws()
				if p.i >= len(p.b) || p.b[p.i] != ':' {
					return nil, errJSON
				}
				p.i++
			}
			k, err := p.value(n, depth+1)
			if err != nil {
				return nil, err
			}
			k.key, k.keyStart = key, keyStart
			n.kids = append(n.kids, k)
			p.ws()
			if p.i < len(p.b) && p.b[p.i] == ',' {
				p.i++
			}
		}
	case c == '"':
		n.kind = '"'
		if err := p.string(); err != nil {
			return nil, err
		}
	case c == 't' || c == 'f' || c == 'n':
		n.kind = map[byte]byte{'t': 't', 'f': 'f', 'n': 'z'}[c]
		for p.i < len(p.b) && p.b[p.i] >= 'a' && p.b[p.i] <= 'z' {
			p.i++
		}
	default:
		n.kind = 'n'
		for p.i < len(p.b) && (p.b[p.i] == '-' || p.b[p.i] == '+' || p.b[p.i] == '.' || p.b[p.i] == 'e' || p.b[p.i] == 'E' || p.b[p.i] >= '0' && p.b[p.i] <= '9') {
			p.i++
		}
		if p.i == n.start {
			return nil, errJSON
		}
	}
	n.end = p.i
	return n, nil
}

func (p *jparser) string() error {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return errJSON
	}
	for p.i++; p.i < len(p.b); p.i++ {
		switch p.b[p.i] {
		case '\\':
			p.i++
		case '"':
			p.i++
			return nil
		}
	}
	return errJSON
}
