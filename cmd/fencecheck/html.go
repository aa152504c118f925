package main

import (
	"cmp"
	"flag"
	"fmt"
	"go/token"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/fencecheck/fencecheck/analyzer"
)

// htmlArgs reports whether args ask for an HTML report (-html DIR or
// -html=DIR) and returns the directory and the other arguments.
func htmlArgs(args []string) (dir string, rest []string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-html" || a == "--html":
			if i+1 < len(args) {
				dir, ok = args[i+1], true
				i++
				continue
			}
			return "", nil, true
		case strings.HasPrefix(a, "-html=") || strings.HasPrefix(a, "--html="):
			_, dir, _ = strings.Cut(a, "=")
			ok = true
			continue
		}
		rest = append(rest, a)
	}
	return dir, rest, ok
}

// report is what an HTML report shows.
type report struct {
	Findings []*finding
	Counts   []kindCount
}

// note is a related position of a finding, as the report shows it.
type note struct {
	Pos, Message string
}

type kindCount struct {
	Kind string
	N    int
}

// finding is one diagnostic, with its witness when it has one.
type finding struct {
	N        int
	Kind     string
	Message  string
	Pos      string
	Related  []note
	Witness  *analyzer.Witness
	Page     string
	Timeline template.HTML
	Sources  []sourceExcerpt
}

// sourceExcerpt is the part of a file that a finding's steps touch.
type sourceExcerpt struct {
	File  string
	Lines []sourceLine
}

type sourceLine struct {
	N     int
	Text  string
	Class string // "", "step", "hot" (the racing or overtaking accesses) or "fix"
	Steps string // the numbers of the steps at the line
}

// writeHTMLReport analyses the packages args name (after the analyzer's
// flags) and writes a report of the findings into dir: index.html and one
// page per finding that has an interleaving. It returns the exit status:
// 0 with no finding, 3 with findings, 1 on an error.
func writeHTMLReport(dir string, args []string, stderr io.Writer) int {
	if dir == "" {
		fmt.Fprintln(stderr, "fencecheck: -html needs a directory")
		return 2
	}
	fs := analyzer.Analyzer.Flags
	fs.Init("fencecheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	var mu sync.Mutex
	var witnesses []analyzer.Witness
	analyzer.OnWitness = func(w analyzer.Witness) {
		mu.Lock()
		witnesses = append(witnesses, w)
		mu.Unlock()
	}
	defer func() { analyzer.OnWitness = nil }()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadSyntax}, patterns...)
	if err != nil {
		fmt.Fprintf(stderr, "fencecheck: loading %s: %v\n", strings.Join(patterns, " "), err)
		return 1
	}
	if packages.PrintErrors(pkgs) > 0 {
		return 1
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{analyzer.Analyzer}, pkgs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "fencecheck: %v\n", err)
		return 1
	}
	cwd, _ := os.Getwd()
	short := func(p token.Position) string {
		if rel, err := filepath.Rel(cwd, p.Filename); err == nil && cwd != "" && !strings.HasPrefix(rel, "..") {
			p.Filename = rel
		}
		return p.String()
	}
	rep := &report{}
	for act := range graph.All() {
		if !act.IsRoot || act.Analyzer != analyzer.Analyzer {
			continue
		}
		if act.Err != nil {
			fmt.Fprintf(stderr, "fencecheck: %s: %v\n", act.Package.PkgPath, act.Err)
			return 1
		}
		for _, d := range act.Diagnostics {
			f := &finding{Kind: d.Category, Pos: short(act.Package.Fset.Position(d.Pos))}
			f.Message, _, _ = strings.Cut(d.Message, "\n")
			for _, r := range d.Related {
				f.Related = append(f.Related, note{Pos: short(act.Package.Fset.Position(r.Pos)), Message: r.Message})
			}
			if f.Kind == "" {
				f.Kind = analyzer.KindUnsupported
			}
			rep.Findings = append(rep.Findings, f)
		}
	}
	slices.SortStableFunc(rep.Findings, func(a, b *finding) int { return cmp.Compare(a.Pos, b.Pos) })
	counts := map[string]int{}
	for i, f := range rep.Findings {
		f.N = i + 1
		counts[f.Kind]++
		f.Witness = matchWitness(f, witnesses)
		if f.Witness != nil {
			f.Page = fmt.Sprintf("finding-%d.html", f.N)
			f.Timeline = timeline(f.Witness)
			f.Sources = excerpts(f.Witness)
			for i := range f.Sources {
				f.Sources[i].File = short(token.Position{Filename: f.Sources[i].File})
			}
		}
	}
	for _, k := range analyzer.Kinds {
		if counts[k] > 0 {
			rep.Counts = append(rep.Counts, kindCount{k, counts[k]})
		}
	}
	if err := writeReport(dir, rep); err != nil {
		fmt.Fprintf(stderr, "fencecheck: writing the report: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "fencecheck: %d findings; report in %s\n", len(rep.Findings), filepath.Join(dir, "index.html"))
	if len(rep.Findings) > 0 {
		return 3
	}
	return 0
}

// matchWitness returns the witness of finding f: one of its kind whose
// message agrees with f's up to the system's name (the reporter may add
// to what follows, such as where in another package the finding is).
func matchWitness(f *finding, ws []analyzer.Witness) *analyzer.Witness {
	head := func(m string) string {
		if i := strings.Index(m, " (system "); i >= 0 {
			return m[:i]
		}
		return m
	}
	for i := range ws {
		w := &ws[i]
		if w.Kind == f.Kind && head(w.Message) == head(f.Message) && strings.Contains(f.Message, "system "+w.System) {
			return w
		}
	}
	return nil
}

// writeReport writes the index and the pages of rep into dir.
func writeReport(dir string, rep *report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	write := func(name string, t *template.Template, data any) error {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if err := t.Execute(f, data); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", name, err)
		}
		return f.Close()
	}
	if err := write("index.html", indexPage, rep); err != nil {
		return err
	}
	for _, f := range rep.Findings {
		if f.Page != "" {
			if err := write(f.Page, findingPage, f); err != nil {
				return err
			}
		}
	}
	return nil
}

// Layout of the timeline, in pixels.
const (
	laneWidth = 230
	rowHeight = 30
	headTop   = 40
	stepColW  = 44
	sideWidth = 300
)

// timeline draws w's steps as an SVG: a lane per goroutine, one row per
// step, each step in its goroutine's lane with its source line, and to
// the right the store buffers (under x86-TSO) and memory after the step.
func timeline(w *analyzer.Witness) template.HTML {
	lanes := len(w.Goroutines)
	tso := w.Model == "x86-TSO"
	width := stepColW + lanes*laneWidth + sideWidth
	if tso {
		width += sideWidth
	}
	height := headTop + len(w.Steps)*rowHeight + 10
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="%d" height="%d" data-steps="%d" role="img" aria-label="interleaving">`, width, height, len(w.Steps))
	for i, g := range w.Goroutines {
		x := stepColW + i*laneWidth
		fmt.Fprintf(&b, `<text class="lane-head" x="%d" y="24">%s</text>`, x+8, template.HTMLEscapeString(g))
		fmt.Fprintf(&b, `<line class="lane" x1="%d" y1="%d" x2="%d" y2="%d"/>`, x+laneWidth/2, headTop-6, x+laneWidth/2, height-4)
	}
	side := stepColW + lanes*laneWidth
	if tso {
		fmt.Fprintf(&b, `<text class="lane-head" x="%d" y="24">store buffers</text>`, side+8)
		fmt.Fprintf(&b, `<text class="lane-head" x="%d" y="24">memory</text>`, side+sideWidth+8)
	} else {
		fmt.Fprintf(&b, `<text class="lane-head" x="%d" y="24">memory</text>`, side+8)
	}
	for i, st := range w.Steps {
		y := headTop + i*rowHeight
		class := "step"
		if st.Flush {
			class = "step flush"
		}
		x := stepColW + st.Goroutine*laneWidth
		text := st.Text
		if st.Pos.Line > 0 {
			text = fmt.Sprintf("%s (line %d)", text, st.Pos.Line)
		}
		fmt.Fprintf(&b, `<g class="%s" data-step="%d" data-goroutine="%d">`, class, i+1, st.Goroutine)
		fmt.Fprintf(&b, `<text class="step-n" x="8" y="%d">%d</text>`, y+19, i+1)
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" rx="5"/>`, x+4, y+2, laneWidth-8, rowHeight-6)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`, x+10, y+19, template.HTMLEscapeString(clip(text, 29)))
		fmt.Fprintf(&b, `<title>%s</title>`, template.HTMLEscapeString(text))
		col := side
		if tso {
			var bufs []string
			for g, buf := range st.Buffers {
				if len(buf) > 0 {
					bufs = append(bufs, fmt.Sprintf("%s[%s]", w.Goroutines[g], strings.Join(buf, " ")))
				}
			}
			fmt.Fprintf(&b, `<text class="buffers" x="%d" y="%d">%s</text>`, col+8, y+19, template.HTMLEscapeString(clip(strings.Join(bufs, " "), 39)))
			col += sideWidth
		}
		fmt.Fprintf(&b, `<text class="memory" x="%d" y="%d">%s</text>`, col+8, y+19, template.HTMLEscapeString(clip(strings.Join(st.Memory, " "), 39)))
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// clip shortens s to at most n characters.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

// excerpts returns the source lines around w's steps and related
// positions, file by file, marking the steps, the finding's own accesses
// and the fix.
func excerpts(w *analyzer.Witness) []sourceExcerpt {
	type mark struct {
		class string
		steps []string
	}
	marks := map[string]map[int]*mark{}
	at := func(file string, line int) *mark {
		if file == "" || line <= 0 {
			return nil
		}
		if marks[file] == nil {
			marks[file] = map[int]*mark{}
		}
		if marks[file][line] == nil {
			marks[file][line] = &mark{}
		}
		return marks[file][line]
	}
	for i, st := range w.Steps {
		if m := at(st.Pos.Filename, st.Pos.Line); m != nil {
			m.steps = append(m.steps, fmt.Sprint(i+1))
			if m.class == "" {
				m.class = "step"
			}
		}
	}
	hot := func(p string) bool {
		return strings.Contains(p, "racing too") || strings.Contains(p, "overtakes") || strings.Contains(p, "here forever") || strings.HasPrefix(p, "then ")
	}
	if m := at(w.Pos.Filename, w.Pos.Line); m != nil {
		m.class = "hot"
	}
	for _, r := range w.Related {
		switch {
		case strings.HasPrefix(r.Message, "fix:"):
			if m := at(r.Pos.Filename, r.Pos.Line); m != nil && m.class == "" {
				m.class = "fix"
			}
		case hot(r.Message):
			if m := at(r.Pos.Filename, r.Pos.Line); m != nil {
				m.class = "hot"
			}
		}
	}
	var out []sourceExcerpt
	files := make([]string, 0, len(marks))
	for f := range marks {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		lines := strings.Split(string(data), "\n")
		lo, hi := len(lines), 1
		for l := range marks[file] {
			lo, hi = min(lo, l), max(hi, l)
		}
		lo, hi = max(1, lo-3), min(len(lines), hi+3)
		ex := sourceExcerpt{File: file}
		for n := lo; n <= hi; n++ {
			sl := sourceLine{N: n, Text: strings.ReplaceAll(lines[n-1], "\t", "    ")}
			if m := marks[file][n]; m != nil {
				sl.Class, sl.Steps = m.class, strings.Join(m.steps, ",")
			}
			ex.Lines = append(ex.Lines, sl)
		}
		out = append(out, ex)
	}
	return out
}

const pageStyle = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1d1d1f; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }
table.findings { border-collapse: collapse; width: 100%; }
table.findings td, table.findings th { border-bottom: 1px solid #ddd; padding: 6px 8px; text-align: left; vertical-align: top; }
.kind { display: inline-block; padding: 1px 7px; border-radius: 4px; font-weight: 600; font-size: 12px; background: #eee; }
.kind-race { background: #ffd7d7; } .kind-x86-TSO { background: #ffe8c2; } .kind-SC { background: #f3d0ff; }
.kind-deadlock, .kind-leak { background: #d2e4ff; } .kind-inconclusive { background: #eee; }
code, pre, .src { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
ul.notes li { margin: 2px 0; } .fixnote { background: #e3f7e3; padding: 6px 10px; border-radius: 4px; }
.timeline text { font-family: ui-monospace, monospace; font-size: 12px; fill: #1d1d1f; }
.timeline .lane-head { font-weight: 700; font-family: system-ui, sans-serif; }
.timeline .lane { stroke: #bbb; stroke-dasharray: 3 3; }
.timeline .step rect { fill: #eef4ff; stroke: #6b8fd6; }
.timeline .step.flush rect { fill: #fff7e6; stroke: #d69b2b; stroke-dasharray: 4 2; }
.timeline .step-n { fill: #777; } .timeline .buffers { fill: #9a5b00; } .timeline .memory { fill: #245c2c; }
.src { border: 1px solid #ddd; border-radius: 4px; overflow-x: auto; }
.src div { white-space: pre; padding: 0 8px; } .src .n { display: inline-block; width: 3em; color: #999; }
.src .step { background: #eef4ff; } .src .hot { background: #ffd7d7; } .src .fix { background: #e3f7e3; }
.src .badge { float: right; color: #6b8fd6; }
`

var indexPage = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>fencecheck report</title><style>` + pageStyle + `</style></head>
<body>
<h1>fencecheck report</h1>
<p>{{len .Findings}} findings{{range .Counts}} · <span class="kind kind-{{.Kind}}">{{.Kind}}</span> {{.N}}{{end}}</p>
<table class="findings">
<tr><th>#</th><th>kind</th><th>where</th><th>finding</th></tr>
{{range .Findings}}<tr class="finding">
<td>{{.N}}</td><td><span class="kind kind-{{.Kind}}">{{.Kind}}</span></td><td><code>{{.Pos}}</code></td>
<td>{{if .Page}}<a href="{{.Page}}">{{.Message}}</a>{{else}}{{.Message}}{{end}}
{{if .Related}}<details><summary>{{len .Related}} notes</summary><ul class="notes">{{range .Related}}<li><code>{{.Pos}}</code> {{.Message}}</li>{{end}}</ul></details>{{end}}</td>
</tr>
{{end}}</table>
</body></html>
`))

var findingPage = template.Must(template.New("finding").Funcs(template.FuncMap{
	"isFix": func(s string) bool { return strings.HasPrefix(s, "fix:") },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>finding {{.N}}: {{.Kind}}</title><style>` + pageStyle + `</style></head>
<body>
<p><a href="index.html">all findings</a></p>
<h1><span class="kind kind-{{.Kind}}">{{.Kind}}</span> {{.Message}}</h1>
<p><code>{{.Pos}}</code> · system <code>{{.Witness.System}}</code> · interleaving under {{.Witness.Model}}</p>
<h2>Interleaving</h2>
{{.Timeline}}
<h2>Notes</h2>
<ul class="notes">{{range .Related}}<li{{if isFix .Message}} class="fixnote"{{end}}><code>{{.Pos}}</code> {{.Message}}</li>{{end}}</ul>
<h2>Source</h2>
{{range .Sources}}<p><code>{{.File}}</code></p><div class="src">{{range .Lines}}<div class="{{.Class}}"><span class="n">{{.N}}</span>{{.Text}}{{if .Steps}}<span class="badge">step {{.Steps}}</span>{{end}}</div>{{end}}</div>
{{end}}
</body></html>
`))
