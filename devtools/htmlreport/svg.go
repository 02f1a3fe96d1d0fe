package htmlreport

import (
	"fmt"
	"html"
	"strings"
)

// svg draws the boxes and the tensors between them. Edges go from the bottom of a box to the
// top of the next as cubic curves; boundary tensors are drawn thick and dark.
func (d *drawing) svg() string {
	w, h := d.size()
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="11">`, w, h, w, h)
	b.WriteString(`<g class="edges" fill="none">`)
	for _, e := range d.edges {
		f, t := d.nodes[e.from], d.nodes[e.to]
		// From the bottom of the source box through each row's virtual point (entering it at
		// the top of the row and leaving it at the bottom) to the top of the target box.
		pts := [][2]float64{{f.x + boxW/2, f.y + boxH}}
		for _, v := range e.via {
			pts = append(pts, [2]float64{v[0], v[1] - boxH/2}, [2]float64{v[0], v[1] + boxH/2})
		}
		pts = append(pts, [2]float64{t.x + boxW/2, t.y})
		var path strings.Builder
		fmt.Fprintf(&path, "M%.1f %.1f", pts[0][0], pts[0][1])
		for i := 1; i < len(pts); i++ {
			a, c := pts[i-1], pts[i]
			if i%2 == 0 { // inside a row: straight down
				fmt.Fprintf(&path, " L%.1f %.1f", c[0], c[1])
				continue
			}
			my := (a[1] + c[1]) / 2
			fmt.Fprintf(&path, " C%.1f %.1f %.1f %.1f %.1f %.1f", a[0], my, c[0], my, c[0], c[1])
		}
		class, stroke, width := "edge", "#94a3b8", 1.0
		if e.boundary {
			class, stroke, width = "edge boundary", "#1e293b", 2.5
		}
		fmt.Fprintf(&b, `<path class="%s" d="%s" stroke="%s" stroke-width="%.1f"><title>%s</title></path>`,
			class, path.String(), stroke, width, html.EscapeString(e.name+" "+e.meta))
	}
	b.WriteString(`</g><g class="nodes">`)
	for _, n := range d.nodes {
		fill, stroke, dash := "#ffffff", "#64748b", ""
		switch n.kind {
		case "delegated":
			fill, stroke = n.fill, "#334155"
		case "fallback":
			stroke, dash = "#dc2626", ` stroke-dasharray="4 2"`
		case "input", "output":
			fill = "#f1f5f9"
		}
		fmt.Fprintf(&b, `<g class="node %s" data-node="%s"><title>%s</title>`, n.kind, html.EscapeString(n.name), html.EscapeString(n.title))
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.0f" height="%.0f" rx="6" fill="%s" stroke="%s" stroke-width="1.5"%s/>`, n.x, n.y, boxW, boxH, fill, stroke, dash)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, n.x+boxW/2, n.y+boxH/2+4, html.EscapeString(n.label))
		b.WriteString(`</g>`)
	}
	b.WriteString(`</g></svg>`)
	return b.String()
}
