package rmm

import (
	"os"
	"path/filepath"
	"testing"
)

const testdataDir = "../../testdata/rmm"

// Whether the forbidden states of the files in testdata/rmm are reachable
// under SC and under TSO (with store buffers of at most two entries, enough
// for these programs).
var testdataVerdicts = map[string]struct{ sc, tso bool }{
	"dekker.rmm":        {sc: false, tso: true},
	"dekker_fenced.rmm": {sc: false, tso: false},
	"peterson.rmm":      {sc: false, tso: true},
	"sb.rmm":            {sc: false, tso: true},
	"sb_locked.rmm":     {sc: false, tso: false},
	"mp.rmm":            {sc: false, tso: false},
	"ticket.rmm":        {sc: false, tso: false},
	"spinlock.rmm":      {sc: false, tso: false},
	"iriw.rmm":          {sc: false, tso: false},

	"peterson_macros.rmm":        {sc: false, tso: true},
	"peterson_macros_fenced.rmm": {sc: false, tso: false},
}

// TestTestdata parses every file in testdata/rmm and checks the verdicts
// of those in testdataVerdicts.
func TestTestdata(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testdataDir, "*.rmm"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no .rmm files in %s", testdataDir)
	}
	for name := range testdataVerdicts {
		if _, err := os.Stat(filepath.Join(testdataDir, name)); err != nil {
			t.Errorf("testdataVerdicts names a missing file: %v", err)
		}
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Parse(file, src)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if err := checkPositions(p, file); err != nil {
				t.Error(err)
			}
			want, ok := testdataVerdicts[name]
			if !ok {
				return // parsing is all that is checked of files without a verdict here
			}
			checkReach(t, p, 2, want.sc, want.tso)
		})
	}
}

// reachTests are small programs with the expected reachability of their
// forbidden states under SC and TSO.
var reachTests = []struct {
	name    string
	src     string
	sc, tso bool
}{
	{
		name: "store buffering",
		src: `forbidden E E
data x = 0 : [0:1] y = 0 : [0:1]
process text write: x := 1; read: y = 0; E: nop
process text write: y := 1; read: x = 0; E: nop`,
		sc: false, tso: true,
	},
	{
		name: "store buffering with fences",
		src: `forbidden E E
data x = 0 : [0:1] y = 0 : [0:1]
process text write: x := 1; fence; read: y = 0; E: nop
process text write: y := 1; fence; read: x = 0; E: nop`,
		sc: false, tso: false,
	},
	{
		name: "store buffering with cas",
		src: `forbidden E E
data x = 0 : [0:1] y = 0 : [0:1]
process text cas(x, 0, 1); read: y = 0; E: nop
process text cas(y, 0, 1); read: x = 0; E: nop`,
		sc: false, tso: false,
	},
	{
		name: "a write-free locked block does not fence",
		src: `forbidden E E
data x = 0 : [0:1] y = 0 : [0:1]
process text write: x := 1; locked { read: y = 0 }; E: nop
process text write: y := 1; locked { read: x = 0 }; E: nop`,
		sc: false, tso: true,
	},
	{
		name: "own store is read from the buffer",
		src: `forbidden E
data x = 0 : [0:1]
process
registers $r = 0 : [0:1]
text write: x := 1; read: $r := x; assume: $r = 0; E: nop`,
		sc: false, tso: false,
	},
	{
		name: "out of domain write blocks",
		src: `forbidden E
data x = 0 : [0:1]
process
registers $r = 0 : [0:3]
text $r := $r + 2; write: x := $r; E: nop`,
		sc: false, tso: false,
	},
	{
		name: "out of domain assignment blocks",
		src: `forbidden E
process
registers $r = 1 : [0:1]
text $r := $r + 1; E: nop`,
		sc: false, tso: false,
	},
	{
		name: "out of domain read blocks",
		src: `forbidden E
data x = 2
process
registers $r = 0 : [0:1]
text read: $r := x; E: nop`,
		sc: false, tso: false,
	},
	{
		name: "in domain read succeeds",
		src: `forbidden E
data x = 1
process
registers $r = 0 : [0:1]
text read: $r := x; assume: $r = 1; E: nop`,
		sc: true, tso: true,
	},
	{
		name: "out of domain cas blocks",
		src: `forbidden E
data x = 1 : [0:1]
process
registers $r = 1 : [0:1]
text cas(x, $r, $r + 1); E: nop`,
		sc: false, tso: false,
	},
	{
		name: "pointer",
		src: `forbidden E
data a = 0 : [0:1] b = 0 : [0:1]
process
registers $p = * : [0:1]
text write: [$p] := 1; read: b = 1; read: a = 0; E: nop`,
		sc: true, tso: true,
	},
	{
		name: "either and while",
		src: `forbidden E
data x = 0 : [0:3]
process
registers $r = 0 : [0:3]
text
  while $r < 3 do either { $r := $r + 1 or write: x := $r };
  read: x = 2; E: nop`,
		sc: true, tso: true,
	},
}

func TestReach(t *testing.T) {
	for _, tt := range reachTests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParse(t, tt.src)
			checkReach(t, p, 3, tt.sc, tt.tso)
		})
	}
}
