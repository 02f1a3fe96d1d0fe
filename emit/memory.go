package emit

import (
	"slices"
	"sort"
)

// Alignment is the byte alignment of every planned tensor, ExecuTorch's default
// (MemoryPlanningPass alignment=16): sizes are rounded up to it, so offsets stay aligned.
const Alignment = 16

// buffer is one planned storage: a tensor's bytes, shared by every view of it. Its lifetime is
// the closed interval of instruction positions [start, end] during which it must hold its
// data; two buffers whose lifetimes intersect must not overlap in memory.
type buffer struct {
	size       int64 // rounded up to Alignment
	start, end int
	offset     int64
}

func (b *buffer) overlaps(o *buffer) bool { return !(b.end < o.start || b.start > o.end) }

// planMemory gives every buffer an offset in one arena (memory_id 1) and returns the arena's
// size. It runs several greedy strategies and keeps the smallest arena, so it is never worse
// than any one of them; one of them is ExecuTorch's default (greedy shared objects), so etgo
// never plans more than the official toolchain would for the same lifetimes and order.
func planMemory(bufs []*buffer) int64 {
	if len(bufs) == 0 {
		return 0
	}
	// Largest first, ties in creation order (ExecuTorch sorts by size; its tie order comes from
	// hashing, which we do not imitate: a fixed order keeps the output deterministic).
	bySize := make([]int, len(bufs))
	for i := range bySize {
		bySize[i] = i
	}
	sort.SliceStable(bySize, func(a, b int) bool { return bufs[bySize[a]].size > bufs[bySize[b]].size })
	// Longest-lived first among equal sizes is another good order for offset-based packing.
	byLife := slices.Clone(bySize)
	sort.SliceStable(byLife, func(a, b int) bool {
		x, y := bufs[byLife[a]], bufs[byLife[b]]
		if x.size != y.size {
			return x.size > y.size
		}
		return x.end-x.start > y.end-y.start
	})
	strategies := []func([]*buffer, []int) ([]int64, int64){sharedObjects, firstFit, bestFit}
	best, bestTotal := []int64(nil), int64(-1)
	for _, order := range [][]int{bySize, byLife} {
		for _, s := range strategies {
			offs, total := s(bufs, order)
			if bestTotal < 0 || total < bestTotal {
				best, bestTotal = offs, total
			}
		}
	}
	for i, b := range bufs {
		b.offset = best[i]
	}
	return bestTotal
}

// sharedObjects is ExecuTorch's greedy algorithm (exir/memory_planning.py): buffers go, largest
// first, into "shared objects" whose size is fixed by their first tenant; a buffer takes offset
// 0 of the first object none of whose tenants it overlaps in time, else the first object with
// room above its overlapping tenants, else a new object. Objects are laid end to end.
func sharedObjects(bufs []*buffer, order []int) ([]int64, int64) {
	type alloc struct {
		b   *buffer
		off int64
	}
	type object struct {
		size   int64
		allocs []alloc
	}
	var objs []*object
	where := make([]struct {
		obj int
		off int64
	}, len(bufs))
	for _, i := range order {
		b := bufs[i]
		placed := false
		for k, o := range objs {
			free := o.size >= b.size // always true in size order; kept so any order is safe
			for _, a := range o.allocs {
				if a.b.overlaps(b) {
					free = false
					break
				}
			}
			if free {
				o.allocs = append(o.allocs, alloc{b, 0})
				where[i].obj, where[i].off = k, 0
				placed = true
				break
			}
		}
		if !placed {
			for k, o := range objs {
				var top int64
				for _, a := range o.allocs {
					if a.b.overlaps(b) {
						top = max(top, a.off+a.b.size)
					}
				}
				if top > 0 && top+b.size <= o.size {
					o.allocs = append(o.allocs, alloc{b, top})
					where[i].obj, where[i].off = k, top
					placed = true
					break
				}
			}
		}
		if !placed {
			objs = append(objs, &object{size: b.size, allocs: []alloc{{b, 0}}})
			where[i].obj, where[i].off = len(objs)-1, 0
		}
	}
	base := make([]int64, len(objs))
	var total int64
	for k, o := range objs {
		base[k] = total
		total += o.size
	}
	offs := make([]int64, len(bufs))
	for i := range bufs {
		offs[i] = base[where[i].obj] + where[i].off
	}
	return offs, total
}

// firstFit places each buffer at the lowest offset where it overlaps no already placed buffer
// that is alive at the same time.
func firstFit(bufs []*buffer, order []int) ([]int64, int64) { return offsetFit(bufs, order, false) }

// bestFit places each buffer in the smallest gap that holds it (the end of the arena counting
// as an unbounded gap).
func bestFit(bufs []*buffer, order []int) ([]int64, int64) { return offsetFit(bufs, order, true) }

func offsetFit(bufs []*buffer, order []int, best bool) ([]int64, int64) {
	type span struct{ lo, hi int64 }
	offs := make([]int64, len(bufs))
	var placed []int
	var total int64
	for _, i := range order {
		b := bufs[i]
		var busy []span
		for _, j := range placed {
			if bufs[j].overlaps(b) {
				busy = append(busy, span{offs[j], offs[j] + bufs[j].size})
			}
		}
		sort.Slice(busy, func(x, y int) bool { return busy[x].lo < busy[y].lo })
		at, chosen, gapSize := int64(0), int64(-1), int64(-1)
		for _, s := range busy {
			if s.lo-at >= b.size {
				if !best {
					chosen = at
					break
				}
				if g := s.lo - at; gapSize < 0 || g < gapSize {
					chosen, gapSize = at, g
				}
			}
			at = max(at, s.hi)
		}
		if chosen < 0 {
			chosen = at
		}
		offs[i] = chosen
		placed = append(placed, i)
		total = max(total, chosen+b.size)
	}
	return offs, total
}

func alignUp(n, a int64) int64 { return (n + a - 1) / a * a }
