package main

import (
	"go/token"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/analyzer"
)

func TestHTMLArgs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		dir  string
		rest []string
		ok   bool
	}{
		{[]string{"./..."}, "", []string{"./..."}, false},
		{[]string{"-html", "out", "./..."}, "out", []string{"./..."}, true},
		{[]string{"-engine=sb", "-html=out", "./a"}, "out", []string{"-engine=sb", "./a"}, true},
		{[]string{"--html", "r"}, "r", nil, true},
		{[]string{"-html"}, "", nil, true},
	} {
		dir, rest, ok := htmlArgs(tc.args)
		if dir != tc.dir || !slices.Equal(rest, tc.rest) || ok != tc.ok {
			t.Errorf("htmlArgs(%q) = %q, %q, %v; want %q, %q, %v", tc.args, dir, rest, ok, tc.dir, tc.rest, tc.ok)
		}
	}
}

// TestTimeline checks the drawing of an interleaving: one box a step, in
// its goroutine's lane, the store buffers under x86-TSO and the memory.
func TestTimeline(t *testing.T) {
	w := &analyzer.Witness{
		Model:      "x86-TSO",
		Goroutines: []string{"go@10", "go@11", "main"},
		Steps: []analyzer.WitnessStep{
			{Goroutine: 0, Text: "store x=1", Pos: token.Position{Line: 12}, Buffers: [][]string{{"x=1"}, nil, nil}, Memory: []string{"x=0", "y=0"}},
			{Goroutine: 1, Text: "store y=1", Pos: token.Position{Line: 17}, Buffers: [][]string{{"x=1"}, {"y=1"}, nil}, Memory: []string{"x=0", "y=0"}},
			{Goroutine: 0, Text: "x=1 reaches memory", Flush: true, Buffers: [][]string{nil, {"y=1"}, nil}, Memory: []string{"x=1", "y=0"}},
		},
	}
	svg := string(timeline(w))
	if got := strings.Count(svg, `<g class="step`); got != 3 {
		t.Errorf("%d steps drawn, want 3:\n%s", got, svg)
	}
	lanes := regexp.MustCompile(`data-goroutine="(\d)"><text class="step-n" x="8" y="\d+">\d+</text><rect x="(\d+)"`).FindAllStringSubmatch(svg, -1)
	for _, m := range lanes {
		lane := map[string]string{"0": "48", "1": "278"}[m[1]]
		if m[2] != lane {
			t.Errorf("a step of goroutine %s drawn at x=%s, want %s", m[1], m[2], lane)
		}
	}
	for _, want := range []string{`data-steps="3"`, `go@10[x=1] go@11[y=1]`, `x=1 y=0`, `class="step flush"`, `store x=1 (line 12)`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the drawing lacks %q:\n%s", want, svg)
		}
	}
}
