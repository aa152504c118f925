package racecmp

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/fencecheck/fencecheck/integration/internal/itest"
)

// A diagnostic is one fencecheck finding, its positions made relative to
// the corpus root ("pkg/file.go:line").
type diagnostic struct {
	pos     string
	related []string
	notes   []string // the related positions' messages
	message string
}

// kind returns what a diagnostic's message starts with: "race", "SC",
// "x86-TSO", "inconclusive", …
func (d diagnostic) kind() string { return itest.MessageKind(d.message) }

// cellRE finds the racing cell that a race: diagnostic is about, in the
// related message of its fix.
var cellRE = regexp.MustCompile(`^fix: make every access to (.+?) atomic`)

// cell returns the cell a race: diagnostic is about.
func (d diagnostic) cell() string {
	for _, n := range d.notes {
		if m := cellRE.FindStringSubmatch(n); m != nil {
			return m[1]
		}
	}
	return "?"
}

// hasInterleaving reports whether a race: diagnostic lists the
// interleaving that reaches the race: its steps, or that it needs none.
func (d diagnostic) hasInterleaving() bool {
	return slices.ContainsFunc(d.notes, func(n string) bool {
		return n == "then the two accesses are next" || strings.HasPrefix(n, "from the start")
	})
}

// lines returns the positions of a race: diagnostic: its own and the
// related ones.
func (d diagnostic) lines() map[string]bool {
	set := map[string]bool{d.pos: true}
	for _, r := range d.related {
		set[r] = true
	}
	return set
}

// parseFencecheckJSON reads fencecheck's -json output (package path →
// analyzer → diagnostics, or an error object) and returns the diagnostics
// by package name (the last element of the path), their positions relative
// to root.
func parseFencecheckJSON(out []byte, root string) (map[string][]diagnostic, error) {
	answers, err := itest.ParseJSON(out)
	if err != nil {
		return nil, err
	}
	diags := map[string][]diagnostic{}
	for _, a := range answers {
		if a.Other != nil {
			return nil, fmt.Errorf("package %s, analyzer %s: %s", a.Path, a.Analyzer, a.Other)
		}
		for _, jd := range a.Diagnostics {
			d := diagnostic{pos: relPos(jd.Posn, root), message: jd.Message}
			for _, r := range jd.Related {
				d.related = append(d.related, relPos(r.Posn, root))
				d.notes = append(d.notes, r.Message)
			}
			diags[a.Pkg] = append(diags[a.Pkg], d)
		}
	}
	return diags, nil
}

// relPos turns "/root/pkg/file.go:12:3" into "pkg/file.go:12"; a position
// outside root keeps its path.
func relPos(posn, root string) string {
	file, line := itest.SplitPos(posn)
	return fmt.Sprintf("%s:%d", relFile(file, root), line)
}

// relFile returns file relative to root, with forward slashes, or file
// itself when it is not under root.
func relFile(file, root string) string {
	for _, r := range []string{root, evalSymlinks(root)} {
		if rel, err := filepath.Rel(r, file); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return file
}

// evalSymlinks returns path with its symbolic links resolved, or path.
func evalSymlinks(path string) string {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		return p
	}
	return path
}
