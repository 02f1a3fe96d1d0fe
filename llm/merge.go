package llm

import "container/heap"

// symbol is one part of a piece being merged: its token id and its bytes piece[start:end].
type symbol struct {
	id, start, end int
}

// mergeSymbols applies byte-pair merges until none applies: always the adjacent pair of lowest
// rank, the leftmost of equal ranks — the order the merges were learned in, and what the
// runner's tokenizers compute. pair says whether a and b merge, at what rank, into which id.
// A heap over a linked list keeps it O(n log n) in the piece's length (a long run of one
// character is a piece of its own), where rescanning after each merge would be quadratic.
func mergeSymbols(syms []symbol, pair func(a, b symbol) (rank, id int, ok bool)) []symbol {
	n := len(syms)
	if n < 2 {
		return syms
	}
	next, prev := make([]int, n), make([]int, n)
	version := make([]int, n)
	alive := make([]bool, n)
	for i := range syms {
		prev[i], next[i], alive[i] = i-1, i+1, true
	}
	next[n-1] = -1
	h := &candidates{}
	push := func(i int) {
		if i < 0 || next[i] < 0 {
			return
		}
		if r, _, ok := pair(syms[i], syms[next[i]]); ok {
			heap.Push(h, candidate{rank: r, pos: i, version: version[i]})
		}
	}
	for i := 0; i+1 < n; i++ {
		push(i)
	}
	for h.Len() > 0 {
		c := heap.Pop(h).(candidate)
		i := c.pos
		if !alive[i] || version[i] != c.version || next[i] < 0 {
			continue // stale: the symbol changed since
		}
		j := next[i]
		r, id, ok := pair(syms[i], syms[j])
		if !ok || r != c.rank {
			continue // the right neighbour changed since
		}
		syms[i] = symbol{id: id, start: syms[i].start, end: syms[j].end}
		alive[j] = false
		next[i] = next[j]
		if next[j] >= 0 {
			prev[next[j]] = i
		}
		version[i]++
		push(prev[i])
		push(i)
	}
	out := syms[:0:0]
	for i := 0; i >= 0; i = next[i] {
		out = append(out, syms[i])
	}
	return out
}

type candidate struct{ rank, pos, version int }

type candidates []candidate

func (c candidates) Len() int { return len(c) }
func (c candidates) Less(i, j int) bool {
	if c[i].rank != c[j].rank {
		return c[i].rank < c[j].rank
	}
	return c[i].pos < c[j].pos
}
func (c candidates) Swap(i, j int) { c[i], c[j] = c[j], c[i] }
func (c *candidates) Push(x any)   { *c = append(*c, x.(candidate)) }
func (c *candidates) Pop() any {
	old := *c
	x := old[len(old)-1]
	*c = old[:len(old)-1]
	return x
}
