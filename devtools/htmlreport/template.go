package htmlreport

import "html/template"

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}: partition plan</title>
<style>
body { font-family: system-ui, sans-serif; margin: 24px; color: #0f172a; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid #cbd5e1; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f1f5f9; }
.bar { background: #e2e8f0; width: 160px; height: 10px; display: inline-block; vertical-align: middle; }
.bar span { background: #2563eb; height: 10px; display: block; }
.swatch { width: 12px; height: 12px; display: inline-block; border: 1px solid #334155; vertical-align: middle; }
.graph { overflow: auto; border: 1px solid #cbd5e1; max-height: 80vh; }
.legend span { margin-right: 16px; }
code { font-size: 12px; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p id="summary">{{.Summary}}</p>

<h2>Coverage</h2>
<table id="coverage">
<tr><th></th><th>backend</th><th>operators</th><th>by count</th><th>by estimated work</th><th>regions</th><th>tensors crossing</th></tr>
{{range .Coverage}}<tr class="backend"><td><span class="swatch" style="background:{{.Colour}}"></span></td><td>{{.Backend}}</td><td>{{.Delegated}} of {{.Operators}}</td>
<td><span class="bar"><span style="width:{{printf "%.1f" .CountBar}}%"></span></span> {{.CountShare}}</td>
<td><span class="bar"><span style="width:{{printf "%.1f" .WorkBar}}%"></span></span> {{.WorkShare}} ({{.DelegatedFLOPs}} of {{.TotalFLOPs}})</td>
<td>{{.Regions}}</td><td>{{.Crossings}} ({{.CrossingBytes}} per run)</td></tr>
{{else}}<tr><td colspan="7">no delegate: every operator runs on the portable kernels</td></tr>{{end}}
{{with .Portable}}<tr class="portable"><td><span class="swatch" style="background:#fff;border:1px dashed #dc2626"></span></td><td>{{.Backend}}</td><td>{{.Delegated}} of {{.Operators}}</td>
<td><span class="bar"><span style="width:{{printf "%.1f" .CountBar}}%"></span></span> {{.CountShare}}</td>
<td><span class="bar"><span style="width:{{printf "%.1f" .WorkBar}}%"></span></span> {{.WorkShare}} ({{.DelegatedFLOPs}} of {{.TotalFLOPs}})</td>
<td>-</td><td>-</td></tr>{{end}}
</table>

<h2>Regions</h2>
<table id="regions">
<tr><th></th><th>delegate</th><th>backend</th><th>operators</th><th>inputs</th><th>outputs</th></tr>
{{range .Regions}}<tr class="region"><td><span class="swatch" style="background:{{.Colour}}"></span></td><td>{{.Index}}</td><td>{{.Backend}}</td>
<td>{{.Operators}}: {{.Ops}}</td><td>{{range .Inputs}}<code>{{.}}</code><br>{{end}}</td><td>{{range .Outputs}}<code>{{.}}</code><br>{{end}}</td></tr>
{{end}}</table>

<h2>Left to the portable kernels ({{len .Fallback}} of {{.Operators}})</h2>
<table id="fallback">
<tr><th>node</th><th>operator</th><th>why each partitioner declined it</th></tr>
{{range .Fallback}}<tr class="fallback"><td><code>{{.Node}}</code></td><td><code>{{.Target}}</code></td><td>{{range .Declines}}{{.}}<br>{{else}}no partitioner examined it{{end}}</td></tr>
{{end}}</table>

<h2>Tensors crossing a border ({{len .Boundary}})</h2>
<table id="boundary">
<tr><th>tensor</th><th>shape</th><th>bytes</th><th>from</th><th>to</th></tr>
{{range .Boundary}}<tr><td><code>{{.Tensor}}</code></td><td><code>{{.Shape}}</code></td><td>{{.Bytes}}</td><td>{{.From}}</td><td>{{.To}}</td></tr>
{{end}}</table>

<h2>Graph</h2>
<p class="legend">{{range .Legend}}<span class="backend"><span class="swatch" style="background:{{.Colour}}"></span> {{.Backend}} (delegate{{if gt (len .Regions) 1}}s{{end}} {{range $i, $k := .Regions}}{{if $i}}, {{end}}{{$k}}{{end}})</span>{{end}}
<span><span class="swatch" style="background:#fff;border:1px dashed #dc2626"></span> portable kernels</span>
<span>thick edges: tensors crossing a border</span></p>
<div class="graph">{{.SVG}}</div>
</body>
</html>
`))

var programTemplate = template.Must(template.New("program").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 24px; color: #0f172a; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; } h3 { font-size: 14px; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid #cbd5e1; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f1f5f9; }
.bar { background: #e2e8f0; width: 160px; height: 10px; display: inline-block; vertical-align: middle; }
.bar span { background: #2563eb; height: 10px; display: block; }
.swatch { width: 12px; height: 12px; display: inline-block; border: 1px solid #334155; vertical-align: middle; }
.graph { overflow: auto; border: 1px solid #cbd5e1; max-height: 80vh; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p id="summary">{{.Summary}}{{if .PerRun}}; {{.PerRun}}{{end}}</p>
{{if .Times}}
<h2>Where the time goes</h2>
<table id="times">
<tr><th>instruction</th><th>kind</th><th>operator / delegate</th><th>µs per run</th><th>share of the instructions' time</th></tr>
{{range .Times}}<tr><td>{{.Instruction}}</td><td>{{.Kind}}</td><td><code>{{.Name}}</code></td><td>{{.MeanUS}}</td>
<td><span class="bar"><span style="width:{{printf "%.1f" .Bar}}%"></span></span> {{.Share}}</td></tr>
{{end}}</table>
{{else}}<p>No profile: give an ETDump of runs of this method (etgo bench --etdump, or the official runtime's) for the time per instruction and per delegate node.</p>{{end}}

{{if .Backends}}<h2>By backend</h2>
<table id="backends">
<tr><th></th><th>backend</th><th>delegates</th><th>calls</th><th>blob bytes</th><th>operations inside</th><th>share of the calls</th></tr>
{{range .Backends}}<tr class="backend"><td>{{if .Colour}}<span class="swatch" style="background:{{.Colour}}"></span>{{else}}<span class="swatch" style="background:#fff;border:1px dashed #dc2626"></span>{{end}}</td>
<td>{{.Backend}}</td><td>{{.Delegates}}</td><td>{{.Calls}}</td><td>{{.BlobBytes}}</td><td>{{.Operations}}</td>
<td><span class="bar"><span style="width:{{printf "%.1f" .CallBar}}%"></span></span> {{.CallShare}}</td></tr>
{{end}}</table>
{{end}}
<h2>Delegates</h2>
{{range .Delegates}}<h3 class="delegate"><span class="swatch" style="background:{{.Colour}}"></span> delegate {{.Index}}: {{.Backend}}, {{.Size}}</h3>
{{if .Graph}}<p>{{.Graph}}</p>{{end}}
{{if .Nodes}}<table><tr><th>operator inside the delegate</th><th>µs per run</th><th>share</th></tr>
{{range .Nodes}}<tr><td><code>{{.Name}}</code></td><td>{{.MeanUS}}</td><td><span class="bar"><span style="width:{{printf "%.1f" .Bar}}%"></span></span> {{.Share}}</td></tr>
{{end}}</table>{{end}}
{{else}}<p>No delegates: every instruction runs on the portable kernels.</p>{{end}}

<h2>Instructions</h2>
<p>Boxes are kernel calls (dashed: portable kernels) and delegate calls (coloured), in execution order top to bottom; thick edges are tensors crossing between a delegate and the rest.</p>
<div class="graph">{{.SVG}}</div>
</body>
</html>
`))
