package mutate

import (
	"context"
	"fmt"
	"strings"

	"github.com/etgo/etgo/executor"
	"github.com/etgo/etgo/pte"
)

// Verdicts, as tools/reference/mutate_blobs.py names them.
const (
	LoadRefused = "load-refused"
	ExecRefused = "exec-refused"
	Panicked    = "panicked" // a panic the runtime recovered into an error: a bug all the same
	Crashed     = "crashed"  // a panic that reached the caller
	Ran         = "ran"
)

// Verdict is what etgo made of a file.
type Verdict struct {
	Kind    string
	Detail  string
	Outputs []*executor.EValue
}

// Judge loads data as `etgo run` does (parse, load the forward method with the registry's
// kernels and backends) and executes it on inputs.
func Judge(data []byte, reg *executor.Registry, inputs []*executor.EValue) (v Verdict) {
	defer func() {
		if r := recover(); r != nil {
			v = Verdict{Kind: Crashed, Detail: fmt.Sprint(r)}
		}
	}()
	refused := func(kind string, err error) Verdict {
		if strings.Contains(err.Error(), "panicked") {
			kind = Panicked
		}
		return Verdict{Kind: kind, Detail: err.Error()}
	}
	f, err := pte.Parse(data)
	if err != nil {
		return refused(LoadRefused, err)
	}
	p, err := executor.NewProgram(f, executor.Options{Registry: reg})
	if err != nil {
		return refused(LoadRefused, err)
	}
	defer p.Close()
	m, err := p.LoadMethod("forward")
	if err != nil {
		return refused(LoadRefused, err)
	}
	defer m.Close()
	outs, err := m.Execute(context.Background(), inputs...)
	if err != nil {
		return refused(ExecRefused, err)
	}
	return Verdict{Kind: Ran, Outputs: outs}
}
