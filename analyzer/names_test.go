package analyzer_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/extract"
)

// memoryVerbs precede the name of a variable or field in a message: in
// headlines ("stores l.flag[1] here"), steps ("load s.seq: 0") and advice
// ("make every access to l.flag atomic").
var memoryVerbs = regexp.MustCompile(`(?:^|[\s(])(?:stores|loads|store|load|atomically loads|atomically stores|atomic load|atomic|the store to|the load of|every access to) `)

// goroutineLabel is what a message calls a goroutine: the function it runs
// (worker, dekkerWorker(1) with the arguments that tell two apart), or
// go@LINE and afterfunc@LINE for a function literal started by the go
// statement or the time.AfterFunc call at LINE (go@FILE:LINE for one of
// another package's), timer@LINE and timeout@LINE
// for the run time's timer of a context made at LINE, and clock for the
// run time's clock; with #N for the Nth of goroutines that are otherwise
// alike.
var goroutineLabel = regexp.MustCompile(`^(?:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*|(?:go|afterfunc|timer|timeout)@(?:[\w.-]+\.go:)?[0-9]+)(?:#[0-9]+)?(?:\(.*\))?(?:#[0-9]+)?$`)

// stepLine is one step of an interleaving in a related position.
var stepLine = regexp.MustCompile(`^step [0-9]+: ([^\s(]+(?:\([^)]*\))?(?:#[0-9]+)?) `)

// prose are the words of messages that follow a memory verb without being
// a name: "the load of z", "a store that a later load overtakes", "an
// atomic operation".
var prose = map[string]bool{"of": true, "and": true, "or": true, "operation": true, "with": true, "before": true,
	"after": true, "the": true, "that": true, "overtakes": true, "to": true, "in": true, "at": true, "is": true,
	"a": true, "an": true, "it": true, "still": true, "can": true, "may": true, "from": true, "here": true}

// memoryNames returns the names of variables in msg: the text after each
// memory verb, up to the end of the Go expression (brackets balanced).
func memoryNames(msg string) []string {
	var names []string
	for _, loc := range memoryVerbs.FindAllStringIndex(msg, -1) {
		rest := msg[loc[1]:]
		depth, end := 0, 0
	scan:
		for end < len(rest) {
			switch c := rest[end]; {
			case c == '[' || c == '(' && depth > 0:
				depth++
			case (c == ']' || c == ')') && depth > 0:
				depth--
			case depth > 0:
			case c == '_' || c == '.' || c == '#' || c == '@' || c == '$' || c == '&' || c == '*' ||
				'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '(' && end > 0:
				if c == '(' {
					depth++
				}
			default:
				break scan
			}
			end++
		}
		if name := strings.TrimSuffix(rest[:end], "."); name != "" && !prose[name] {
			names = append(names, name)
		}
	}
	return names
}

// badName says why name, a variable named in a message, is not a Go
// expression of the source whose identifiers are idents; "" when it is.
func badName(name string, idents map[string]bool) string {
	if strings.ContainsAny(name, "#@$&") {
		return "has characters no Go expression of the source has"
	}
	if !strings.Contains(name, "{") { // a map's struct key: m[{0, false}]
		if _, err := parser.ParseExpr(name); err != nil {
			return "is not a Go expression: " + err.Error()
		}
	}
	root := name
	if i := strings.IndexAny(root, ".[("); i >= 0 {
		root = root[:i]
	}
	if !idents[root] {
		return "starts with " + root + ", which no source file declares or uses"
	}
	return ""
}

// badLabel says why label, a goroutine named in a message, is not one of
// the forms the findings use for goroutines; "" when it is.
func badLabel(label string, idents map[string]bool) string {
	if !goroutineLabel.MatchString(label) {
		return "is not a function's name, go@LINE, go@FILE:LINE or afterfunc@LINE"
	}
	if fn, _, _ := strings.Cut(strings.TrimRight(label, "0123456789#"), "("); !strings.Contains(fn, "@") && fn != "clock" && !idents[fn[strings.LastIndex(fn, ".")+1:]] {
		return "names no function of the source"
	}
	return ""
}

// sourceIdents returns every identifier of the Go files below root.
func sourceIdents(t *testing.T, roots ...string) map[string]bool {
	t.Helper()
	idents := map[string]bool{"main": true}
	fset := token.NewFileSet()
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return nil // the testdata of bad input
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					idents[id.Name] = true
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// The model's own Go source, whose steps findings show too.
	for _, src := range extract.ModelSources() {
		f, err := parser.ParseFile(fset, "model.go", src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("the model's own source: %v", err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				idents[id.Name] = true
			}
			return true
		})
	}
	return idents
}

// checkNames reports the names in msg (a finding's text and its related
// texts) that are not Go expressions of the source, and the goroutines
// named in a form the findings do not use.
func checkNames(msg string, idents map[string]bool) []string {
	var bad []string
	for _, line := range strings.Split(msg, "\n") {
		line = strings.TrimSpace(line)
		if strings.Contains(line, "|") {
			continue // a row of the -witness table: its cells are steps too, checked below
		}
		for _, name := range memoryNames(line) {
			if why := badName(name, idents); why != "" {
				bad = append(bad, name+" "+why+": "+line)
			}
		}
		if m := stepLine.FindStringSubmatch(line); m != nil {
			if why := badLabel(m[1], idents); why != "" {
				bad = append(bad, m[1]+" "+why+": "+line)
			}
		}
	}
	return bad
}

// TestCheckNames shows that the class test of TestMessagesNameSource finds
// the names that findings once showed.
func TestCheckNames(t *testing.T) {
	idents := map[string]bool{"l": true, "flag": true, "i": true, "p": true, "c": true, "items": true,
		"m": true, "worker": true, "run": true, "obj": true, "v": true, "main": true, "Release": true, "qp": true, "mu": true, "full": true, "z": true}
	for _, tc := range []struct {
		msg string
		bad int
	}{
		{"race: worker(1) stores l.flag[1] here while worker(0) loads l.flag[1] at a.go:3:4", 0},
		{"step 3: go@36(i=1) load i: 1", 0},
		{`step 2: go@199 atomic m["a"]: present`, 0},
		{"step 1: go@12 starts worker#2(i=0)", 0},
		{"step 4: Release(1, 0) atomic qp.mu: 0", 0},
		{"step 2: go@errgroup.go:78#2 store l.flag=1", 0},
		{"step 10: go@errgroup.go:78(i=0) load i: 0", 0},
		{"step 2: go@errgroup:78 store l.flag=1", 1},
		{"fix: use sync/atomic for every load and store of full", 0},
		{"gc may emit this load before the load of z (no store, call or atomic operation between them)", 0},
		{"step 5: go@44(i=0) atomic load go go(i=0): 1", 1},
		{"step 3: go@36(i=1) load i#2: 1", 1},
		{"race: go@12 stores p#2.n here while main loads p#2.n at a.go:1:2", 2},
		{`step 2: go@199 atomic present(c.items@206["a"]): 1`, 1},
		{"step 3: go@33 atomic spawned@39(i=0): 1", 1},
		{"step 1: run$bound store obj.v=1", 1},
		{"step 1: spawned@12 store obj.v=1", 1},
		{"fix: make every access to &p atomic", 1},
		{"step 1: main load t12: 0", 1},
	} {
		if got := checkNames(tc.msg, idents); len(got) != tc.bad {
			t.Errorf("%q: %d bad names, want %d: %q", tc.msg, len(got), tc.bad, got)
		}
	}
}
