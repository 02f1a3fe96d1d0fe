package emit

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"github.com/etgo/etgo/ir"
)

// A symbolic size arrives from torch.export as a sympy expression in srepr form
// ("Mul(Integer(2), Symbol('s77', positive=True, integer=True))"); the frontend shortens a lone
// symbol to its name, and tests write plain sums and products ("2*s0 + 1"). boundOf takes all
// three and returns the expression's value with every symbol at its maximum, which is its upper
// bound when the expression cannot decrease as a symbol grows. Expressions that can (a
// subtraction, a modulo, a negative factor) are refused: their bound would need a real solver.

// symBounds is an expression's value with every symbol at its minimum and at its maximum, and
// whether it is non-decreasing in every symbol (so those values bound it).
type symBounds struct {
	lo, hi   int64
	monotone bool
}

var errOverflow = errors.New("bound overflows int64")

func boundOf(expr string, ranges map[string]ir.Range) (int64, error) {
	p := &sreprParser{s: expr, ranges: ranges}
	b, err := p.expr()
	if err == nil {
		p.space()
		if p.i != len(p.s) {
			err = fmt.Errorf("unexpected %q", p.s[p.i:])
		}
	}
	if err != nil {
		return 0, fmt.Errorf("%w: symbolic size %q: %v", ErrUnsupported, expr, err)
	}
	if !b.monotone {
		return 0, fmt.Errorf("%w: symbolic size %q can shrink as its symbols grow; etgo bounds only non-decreasing sizes", ErrUnsupported, expr)
	}
	return b.hi, nil
}

type sreprParser struct {
	s      string
	i      int
	ranges map[string]ir.Range
	depth  int
}

func (p *sreprParser) space() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *sreprParser) eat(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *sreprParser) word() string {
	p.space()
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') {
			break
		}
		p.i++
	}
	return p.s[start:p.i]
}

// expr: term (('+') term)* — infix sums, as tests and short forms write them.
func (p *sreprParser) expr() (symBounds, error) {
	b, err := p.term()
	for err == nil && p.eat('+') {
		var t symBounds
		if t, err = p.term(); err == nil {
			b, err = add(b, t)
		}
	}
	return b, err
}

// term: atom ('*' atom)*.
func (p *sreprParser) term() (symBounds, error) {
	b, err := p.atom()
	for err == nil && p.eat('*') {
		var f symBounds
		if f, err = p.atom(); err == nil {
			b, err = mul(b, f)
		}
	}
	return b, err
}

func (p *sreprParser) atom() (symBounds, error) {
	if p.depth++; p.depth > 64 {
		return symBounds{}, errors.New("nested too deeply")
	}
	defer func() { p.depth-- }()
	p.space()
	if p.i < len(p.s) && (p.s[p.i] == '-' || (p.s[p.i] >= '0' && p.s[p.i] <= '9')) {
		start := p.i
		p.i++
		p.word()
		k, err := strconv.ParseInt(p.s[start:p.i], 10, 64)
		if err != nil {
			return symBounds{}, fmt.Errorf("bad integer %q", p.s[start:p.i])
		}
		return symBounds{k, k, true}, nil
	}
	name := p.word()
	if name == "" {
		return symBounds{}, fmt.Errorf("expected a symbol at %q", p.s[p.i:])
	}
	if !p.eat('(') {
		return p.symbol(name)
	}
	if name == "Symbol" { // Symbol('s77', positive=True, integer=True)
		if !p.eat('\'') {
			return symBounds{}, errors.New("Symbol without a quoted name")
		}
		sym := p.word()
		if !p.eat('\'') {
			return symBounds{}, errors.New("Symbol name not closed")
		}
		for p.i < len(p.s) && p.s[p.i] != ')' {
			p.i++
		}
		if !p.eat(')') {
			return symBounds{}, errors.New("Symbol not closed")
		}
		return p.symbol(sym)
	}
	var args []symBounds
	for !p.eat(')') {
		if len(args) > 0 && !p.eat(',') {
			return symBounds{}, fmt.Errorf("expected , or ) in %s(…)", name)
		}
		a, err := p.expr()
		if err != nil {
			return symBounds{}, err
		}
		args = append(args, a)
	}
	return apply(name, args)
}

func (p *sreprParser) symbol(name string) (symBounds, error) {
	r, ok := p.ranges[name]
	if !ok {
		return symBounds{}, fmt.Errorf("symbol %s has no range", name)
	}
	if r.Max < 0 {
		return symBounds{}, fmt.Errorf("symbol %s has no upper bound (DYNAMIC_UNBOUND)", name)
	}
	return symBounds{r.Min, r.Max, true}, nil
}

func apply(name string, args []symBounds) (symBounds, error) {
	arity := func(n int) error {
		if len(args) != n {
			return fmt.Errorf("%s takes %d arguments, got %d", name, n, len(args))
		}
		return nil
	}
	switch name {
	case "Integer":
		if err := arity(1); err != nil {
			return symBounds{}, err
		}
		return args[0], nil
	case "Add":
		if len(args) == 0 {
			return symBounds{}, errors.New("Add of nothing")
		}
		b := args[0]
		for _, a := range args[1:] {
			var err error
			if b, err = add(b, a); err != nil {
				return symBounds{}, err
			}
		}
		return b, nil
	case "Mul":
		if len(args) == 0 {
			return symBounds{}, errors.New("Mul of nothing")
		}
		b := args[0]
		for _, a := range args[1:] {
			var err error
			if b, err = mul(b, a); err != nil {
				return symBounds{}, err
			}
		}
		return b, nil
	case "FloorDiv", "CleanDiv":
		if err := arity(2); err != nil {
			return symBounds{}, err
		}
		a, d := args[0], args[1]
		if d.lo != d.hi || d.lo <= 0 {
			return symBounds{}, fmt.Errorf("%s by %d..%d: only a positive constant divisor is bounded", name, d.lo, d.hi)
		}
		return symBounds{floorDiv(a.lo, d.lo), floorDiv(a.hi, d.lo), a.monotone}, nil
	case "Max", "Min":
		if len(args) == 0 {
			return symBounds{}, fmt.Errorf("%s of nothing", name)
		}
		b := args[0]
		for _, a := range args[1:] {
			if name == "Max" {
				b = symBounds{max(b.lo, a.lo), max(b.hi, a.hi), b.monotone && a.monotone}
			} else {
				b = symBounds{min(b.lo, a.lo), min(b.hi, a.hi), b.monotone && a.monotone}
			}
		}
		return b, nil
	case "Pow":
		if err := arity(2); err != nil {
			return symBounds{}, err
		}
		base, e := args[0], args[1]
		if e.lo != e.hi || e.lo < 0 || e.lo > 64 {
			return symBounds{}, errors.New("Pow with an exponent that is not a small constant")
		}
		b := symBounds{1, 1, true}
		for range e.lo {
			var err error
			if b, err = mul(b, base); err != nil {
				return symBounds{}, err
			}
		}
		return b, nil
	}
	return symBounds{}, fmt.Errorf("function %s is not supported", name)
}

func add(a, b symBounds) (symBounds, error) {
	lo, c1 := addInt(a.lo, b.lo)
	hi, c2 := addInt(a.hi, b.hi)
	if c1 || c2 {
		return symBounds{}, errOverflow
	}
	return symBounds{lo, hi, a.monotone && b.monotone}, nil
}

// mul: a product of non-decreasing factors is non-decreasing only when no factor can be negative.
func mul(a, b symBounds) (symBounds, error) {
	lo, o1 := mulInt(a.lo, b.lo)
	hi, o2 := mulInt(a.hi, b.hi)
	if o1 || o2 {
		return symBounds{}, errOverflow
	}
	return symBounds{lo, hi, a.monotone && b.monotone && a.lo >= 0 && b.lo >= 0}, nil
}

func addInt(a, b int64) (int64, bool) {
	s := a + b
	return s, (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0)
}

func mulInt(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, false
	}
	if a == math.MinInt64 || b == math.MinInt64 {
		return 0, true
	}
	neg := (a < 0) != (b < 0)
	hi, lo := bits.Mul64(uint64(abs(a)), uint64(abs(b)))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, true
	}
	if neg {
		return -int64(lo), false
	}
	return int64(lo), false
}

func abs(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

func floorDiv(a, d int64) int64 {
	q := a / d
	if a%d != 0 && a < 0 {
		q--
	}
	return q
}
