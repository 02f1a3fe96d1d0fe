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
<tr><th>backend</th><th>operators</th><th>by count</th><th>by estimated work</th><th>regions</th><th>tensors crossing</th></tr>
{{range .Coverage}}<tr><td>{{.Backend}}</td><td>{{.Delegated}} of {{.Operators}}</td>
<td><span class="bar"><span style="width:{{printf "%.1f" .CountBar}}%"></span></span> {{.CountShare}}</td>
<td><span class="bar"><span style="width:{{printf "%.1f" .WorkBar}}%"></span></span> {{.WorkShare}} ({{.DelegatedFLOPs}} of {{.TotalFLOPs}})</td>
<td>{{.Regions}}</td><td>{{.Crossings}} ({{.CrossingBytes}} per run)</td></tr>
{{else}}<tr><td colspan="6">no delegate: every operator runs on the portable kernels</td></tr>{{end}}
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
<p class="legend">{{range .Regions}}<span><span class="swatch" style="background:{{.Colour}}"></span> delegate {{.Index}} ({{.Backend}})</span>{{end}}
<span><span class="swatch" style="background:#fff;border:1px dashed #dc2626"></span> portable kernels</span>
<span>thick edges: tensors crossing a border</span></p>
<div class="graph">{{.SVG}}</div>
</body>
</html>
`))
