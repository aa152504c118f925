package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/fencecheck/fencecheck/analyzer"
	"github.com/fencecheck/fencecheck/docs"
)

// explainArgs reports whether args ask for the page of a finding kind
// (-explain KIND, -explain=KIND, with one dash or two), and returns the
// arguments that follow -explain. -explain is not an analyzer flag: go vet
// neither lists nor passes it, so it never reaches a unit run.
func explainArgs(args []string) (rest []string, ok bool) {
	if len(args) == 0 {
		return nil, false
	}
	name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(args[0], "-"), "-"), "=")
	if !strings.HasPrefix(args[0], "-") || name != "explain" {
		return nil, false
	}
	if hasValue {
		return append([]string{value}, args[1:]...), true
	}
	return args[1:], true
}

// explain writes to stdout the page of the finding kind that args name (the
// word a finding starts with, in any case, with or without its colon), or,
// without one, the list of kinds; it writes errors to stderr and returns
// the exit status.
func explain(stdout, stderr io.Writer, args []string) int {
	switch len(args) {
	case 0:
		fmt.Fprintln(stdout, "fencecheck -explain KIND prints the page of a finding kind. The kinds:")
		for _, k := range analyzer.Kinds {
			fmt.Fprintf(stdout, "  %-13s %s\n", k, title(k))
		}
		return 0
	case 1:
	default:
		fmt.Fprintf(stderr, "fencecheck: -explain takes one finding kind, not %q\n", strings.Join(args, " "))
		return 2
	}
	want := strings.TrimSuffix(args[0], ":")
	for _, k := range analyzer.Kinds {
		if strings.EqualFold(k, want) {
			page, err := docs.Finding(k)
			if err != nil {
				fmt.Fprintf(stderr, "fencecheck: %v\n", err)
				return 1
			}
			fmt.Fprint(stdout, page)
			return 0
		}
	}
	fmt.Fprintf(stderr, "fencecheck: unknown finding kind %q; the kinds are %s\n", args[0], strings.Join(analyzer.Kinds, ", "))
	return 2
}

// title returns what the heading of kind's page says after the kind.
func title(kind string) string {
	page, err := docs.Finding(kind)
	if err != nil {
		return ""
	}
	heading, _, _ := strings.Cut(page, "\n")
	_, t, _ := strings.Cut(heading, ": ")
	return t
}
