package configs

import (
	"fmt"

	"github.com/etgo/etgo/ir"
	"github.com/etgo/etgo/partition"
)

// Options are a Partitioner's settings beyond its configs.
type Options struct {
	// Backend names the backend in decline sentences ("XNNPACK has no partitioner config
	// for …").
	Backend string
	// Precisions restricts every config to these precisions (nil: each config's own). A
	// config that supports none of them declines every node, with PrecisionNotEnabled.
	Precisions []Precision
	// PerOp makes every claimed node (with its dependencies) its own delegate.
	PerOp bool
	// Limits are checks every node must pass whatever its config, even one that skips the
	// common constraints (limits of the backend's tensors, say); nil: none.
	Limits func(n *ir.Node) *partition.Decline
	// Common are the constraints every config's node must meet unless the config sets
	// SkipCommon (ExecuTorch's check_common_constraints); nil: none.
	Common func(c *Config, n *ir.Node) *partition.Decline
}

// Partitioner is a partition.Partitioner made of configs.
type Partitioner struct {
	spec     partition.DelegationSpec
	configs  []*Config
	byTarget map[string]*Config
	o        Options
	err      error // two configs for one target: reported by Partition
}

var _ partition.Partitioner = (*Partitioner)(nil)

// New returns the partitioner of configs, whose regions are compiled with spec. Two configs
// with one target are an error, which Partition returns (as ExecuTorch raises it at init):
// construction cannot fail, so a backend can build its partitioner where it has no error to
// return.
func New(spec partition.DelegationSpec, configs []*Config, o Options) *Partitioner {
	p := &Partitioner{spec: spec, configs: configs, byTarget: make(map[string]*Config, len(configs)), o: o}
	for _, c := range configs {
		if other, dup := p.byTarget[c.Target]; dup && p.err == nil {
			p.err = fmt.Errorf("configs: %s and %s have the same target %s", other.Name, c.Name, c.Target)
		}
		p.byTarget[c.Target] = c
	}
	return p
}

// Spec is the backend and options every region is compiled with.
func (p *Partitioner) Spec() partition.DelegationSpec { return p.spec }

// Configs are the partitioner's configs, in the order given to New.
func (p *Partitioner) Configs() []*Config { return p.configs }

// Lookup returns the config matching a node's target, or nil.
func (p *Partitioner) Lookup(target string) *Config { return p.byTarget[FormatTarget(target)] }

// OpsToNotDecompose lists every config's KeepWhole operator; a node of one is kept only when
// its config would admit it (ExecuTorch's ops_to_not_decompose filter).
func (p *Partitioner) OpsToNotDecompose() ([]string, func(*ir.Graph, *ir.Node) bool) {
	var ops []string
	for _, c := range p.configs {
		if c.KeepWhole != "" {
			ops = append(ops, c.KeepWhole)
		}
	}
	keep := func(g *ir.Graph, n *ir.Node) bool {
		c := p.Lookup(n.Target)
		return c != nil && c.KeepWhole != "" && p.Admit(NewFacts(g), c, n) == nil
	}
	return ops, keep
}

// Partition examines every node, claims those a config admits together with their
// dependencies, and groups the claims into cycle-free regions.
func (p *Partitioner) Partition(g *ir.Graph) (*partition.Result, error) {
	if p.err != nil {
		return nil, p.err
	}
	facts := NewFacts(g)
	res := &partition.Result{Declined: map[*ir.Node]partition.Decline{}}
	var claims []partition.Claim
	for _, n := range g.Nodes {
		if n.Target == partition.CallDelegate {
			res.Declined[n] = partition.Decline{Reason: partition.UnsupportedOperator, Detail: "an earlier partitioner's delegate"}
			continue
		}
		c := p.Lookup(n.Target)
		if c == nil {
			res.Declined[n] = *partition.Declinef(partition.UnsupportedOperator, "%s has no partitioner config for %s", p.o.Backend, n.Target)
			continue
		}
		if d := p.Admit(facts, c, n); d != nil {
			res.Declined[n] = *d
			continue
		}
		claim := p.claim(facts, c, n)
		if len(claim.Nodes) == 0 {
			res.Declined[n] = *partition.Declinef(partition.UnsupportedOperator, "%s only keeps %s whole through lowering; it claims nothing", c.Name, n.Target)
			continue
		}
		claims = append(claims, claim)
	}
	res.Regions = partition.GroupBased(g, claims, p.o.PerOp)
	return res, nil
}

// Admit runs c's checks on n: a precision enabled, the limits, the common constraints (unless
// c skips them), then c's own. nil admits.
func (p *Partitioner) Admit(f *Facts, c *Config, n *ir.Node) *partition.Decline {
	q := p.query(f, c)
	if len(q.Enabled) == 0 {
		return partition.Declinef(partition.PrecisionNotEnabled, "%s supports %v, none of which is enabled (%v)", c.Name, c.Precisions, p.o.Precisions)
	}
	if p.o.Limits != nil {
		if d := p.o.Limits(n); d != nil {
			return d
		}
	}
	if !c.SkipCommon && p.o.Common != nil {
		if d := p.o.Common(c, n); d != nil {
			return d
		}
	}
	if c.Check != nil {
		return c.Check(q, n)
	}
	return nil
}

// Claim is what c claims n with (its dependencies), whether or not c admits n: a backend's
// preprocess asks it again to know which q/dq nodes a quantized operator took.
func (p *Partitioner) Claim(f *Facts, c *Config, n *ir.Node) partition.Claim { return p.claim(f, c, n) }

func (p *Partitioner) claim(f *Facts, c *Config, n *ir.Node) partition.Claim {
	if c.Claim == nil {
		return NodeAndQuantDeps(p.query(f, c), n)
	}
	return c.Claim(p.query(f, c), n)
}

func (p *Partitioner) query(f *Facts, c *Config) *Query {
	return &Query{Facts: f, Config: c, Enabled: p.enabled(c)}
}

// enabled is the intersection of the requested precisions with the config's.
func (p *Partitioner) enabled(c *Config) []Precision {
	if p.o.Precisions == nil {
		return c.Precisions
	}
	var out []Precision
	for _, want := range p.o.Precisions {
		for _, have := range c.Precisions {
			if want == have {
				out = append(out, want)
			}
		}
	}
	return out
}
