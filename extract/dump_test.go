package extract_test

import (
	"flag"
	"fmt"
	"testing"

	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model/native"
)

var dump = flag.String("dump", "", "print the models of this testdata package")

// TestDump prints the models of a testdata package (go test -run TestDump -args -dump=sb).
func TestDump(t *testing.T) {
	if *dump == "" {
		t.Skip("no -dump")
	}
	l := load(t, *dump)
	systems, diags := extract.Package(l.fset, l.pkg, l.files, l.info)
	for _, d := range diags {
		fmt.Printf("%s: %s\n", l.fset.Position(d.Pos), d.Message)
	}
	for _, s := range systems {
		fmt.Printf("== %s nofence=%v\n%s\n", s.Name, s.NoFence, native.Format(s.Program))
	}
}
