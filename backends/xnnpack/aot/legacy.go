package aot

// The families not yet in their own files, registered as one while they move.

var (
	nhwcOps       = map[string]bool{"aten.upsample_bilinear2d.vec": true}
	legacyTargets = []string{"aten.upsample_bilinear2d.vec"}
)

func init() {
	var ops []op
	targets := legacyTargets
	for _, t := range targets {
		o := op{target: t, visit: (*preprocessor).legacyVisit}
		switch {
		case nhwcOps[t]:
			o.layout = NHWC
		}
		ops = append(ops, o)
	}
	register(family{name: "legacy", configs: (*Partitioner).legacyConfigs, ops: ops})
}
