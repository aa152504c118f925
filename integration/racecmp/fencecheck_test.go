package racecmp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// A diagnostic is one fencecheck finding, its positions made relative to
// the corpus root ("pkg/file.go:line").
type diagnostic struct {
	pos     string
	related []string
	message string
}

// kind returns what a diagnostic's message starts with: "race", "SC",
// "x86-TSO", "inconclusive", …
func (d diagnostic) kind() string {
	if i := strings.Index(d.message, ":"); i > 0 && !strings.Contains(d.message[:i], " ") {
		return d.message[:i]
	}
	return d.message
}

// cellRE finds the racing cell that a race: diagnostic is about.
var cellRE = regexp.MustCompile(`Make every access to (.+?) atomic`)

// cell returns the cell a race: diagnostic is about.
func (d diagnostic) cell() string {
	if m := cellRE.FindStringSubmatch(d.message); m != nil {
		return m[1]
	}
	return "?"
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

// jsonDiagnostic is a diagnostic in the -json output of the analysis
// drivers.
type jsonDiagnostic struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
	Related []struct {
		Posn string `json:"posn"`
	} `json:"related"`
}

// parseFencecheckJSON reads fencecheck's -json output (package path →
// analyzer → diagnostics, or an error object) and returns the diagnostics
// by package name (the last element of the path), their positions relative
// to root.
func parseFencecheckJSON(out []byte, root string) (map[string][]diagnostic, error) {
	var raw map[string]map[string]json.RawMessage
	if err := json.Unmarshal(out, &raw); err != nil {
		return nil, fmt.Errorf("fencecheck -json output: %v\n%s", err, out)
	}
	diags := map[string][]diagnostic{}
	for path, byAnalyzer := range raw {
		pkg := path[strings.LastIndex(path, "/")+1:]
		for analyzer, msg := range byAnalyzer {
			var list []jsonDiagnostic
			if err := json.Unmarshal(msg, &list); err != nil {
				return nil, fmt.Errorf("package %s, analyzer %s: %s", path, analyzer, msg)
			}
			for _, jd := range list {
				d := diagnostic{pos: relPos(jd.Posn, root), message: jd.Message}
				for _, r := range jd.Related {
					d.related = append(d.related, relPos(r.Posn, root))
				}
				diags[pkg] = append(diags[pkg], d)
			}
		}
	}
	return diags, nil
}

// relPos turns "/root/pkg/file.go:12:3" into "pkg/file.go:12"; a position
// outside root keeps its path.
func relPos(posn, root string) string {
	file, line := splitPos(posn)
	return fmt.Sprintf("%s:%d", relFile(file, root), line)
}

// splitPos splits "file:line:col" or "file:line" into file and line.
func splitPos(posn string) (string, int) {
	parts := strings.Split(posn, ":")
	for len(parts) > 1 {
		n, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil {
			break
		}
		// The last number is a column when another number precedes it.
		if m, err := strconv.Atoi(parts[len(parts)-2]); err == nil && len(parts) > 2 {
			return strings.Join(parts[:len(parts)-2], ":"), m
		}
		return strings.Join(parts[:len(parts)-1], ":"), n
	}
	return posn, 0
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
