// Package docs holds fencecheck's documentation. It embeds the pages of
// findings/, one for each finding kind (findings/race.md for race:
// findings), which fencecheck -explain prints: the Markdown files are the
// only copy of that text.
package docs

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

//go:embed findings/*.md
var findings embed.FS

// Finding returns the page of the finding kind kind, as written in a
// diagnostic's Category ("race", "x86-TSO", "SC").
func Finding(kind string) (string, error) {
	b, err := findings.ReadFile("findings/" + kind + ".md")
	if err != nil {
		return "", fmt.Errorf("no page for finding kind %q", kind)
	}
	return string(b), nil
}

// FindingKinds lists the kinds that have a page, sorted.
func FindingKinds() []string {
	entries, err := fs.ReadDir(findings, "findings")
	if err != nil {
		panic(err) // the embedded directory is always there
	}
	var kinds []string
	for _, e := range entries {
		kinds = append(kinds, strings.TrimSuffix(e.Name(), ".md"))
	}
	slices.Sort(kinds)
	return kinds
}
