package rmm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// TestMacroExpansion checks that a file with macros parses to the same
// program as the file written out by hand (positions aside).
func TestMacroExpansion(t *testing.T) {
	tests := []struct {
		name, macros, plain string
	}{
		{
			name: "process per argument",
			macros: `forbidden CS CS
data
  x = 0 : [0:1]
  y = 0 : [0:1]
macro proc(mine, theirs)
process
registers $r = 0 : [0:1]
text
  write: mine := 1;
  read: $r := theirs;
  if $r = 0 then CS: nop
endmacro
proc(x, y)
proc(y, x)
`,
			plain: `forbidden CS CS
data
  x = 0 : [0:1]
  y = 0 : [0:1]
process
registers $r = 0 : [0:1]
text
  write: x := 1;
  read: $r := y;
  if $r = 0 then CS: nop
process
registers $r = 0 : [0:1]
text
  write: y := 1;
  read: $r := x;
  if $r = 0 then CS: nop
`,
		},
		{
			name: "constant macro in a domain, statement macros calling macros, expression arguments",
			macros: `forbidden BAD
macro N() 2 endmacro
data
  lock = 0 : [0:1]
  v = 0 : [0:N()]
macro slot(p) [p+1] endmacro
macro acquire(l)
  cas(l, 0, 1)
endmacro
macro release(l)
  fence;
  write: l := 0
endmacro
macro bump(who, by)
  acquire(lock);
  read: $t := v;
  write: v := $t + (by);
  release(lock)
endmacro
process
registers $t = 0 : [0:N()] $p = 0 : [0:1]
text
  bump(me, 1 + 0);
  read: slot($p) = 1;
  BAD: nop
`,
			plain: `forbidden BAD
data
  lock = 0 : [0:1]
  v = 0 : [0:2]
process
registers $t = 0 : [0:2] $p = 0 : [0:1]
text
  cas(lock, 0, 1);
  read: $t := v;
  write: v := $t + (1 + 0);
  fence;
  write: lock := 0;
  read: [$p+1] = 1;
  BAD: nop
`,
		},
		{
			name: "parameter named like a reserved word, argument with commas in parentheses",
			macros: `forbidden *
data x = 0 : [0:3]
macro w(read, e) write: read := e endmacro
process
registers $r = 1 : [0:1]
text
  w(x, ($r + (1)));
  w(x, 0)
`,
			plain: `forbidden *
data x = 0 : [0:3]
process
registers $r = 1 : [0:1]
text
  write: x := ($r + (1));
  write: x := 0
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := dump(mustParse(t, tt.macros))
			want := dump(mustParse(t, tt.plain))
			if got != want {
				t.Errorf("with macros:\n%s\nwritten out:\n%s", got, want)
			}
		})
	}
}

// TestMacroVerdict runs a two-process store-buffering model built from one
// macro: the forbidden state is reachable under TSO only.
func TestMacroVerdict(t *testing.T) {
	p := mustParse(t, `forbidden CS CS
data
  x = 0 : [0:1]
  y = 0 : [0:1]
macro sb(mine, theirs)
process
text
  write: mine := 1;
  read: theirs = 0;
  CS: nop
endmacro
sb(x, y)
sb(y, x)
`)
	if bad, _ := reach(t, p, model.SC, 0); bad {
		t.Error("both in CS under SC")
	}
	if bad, _ := reach(t, p, model.TSO, 2); !bad {
		t.Error("not both in CS under TSO")
	}
}

func TestMacroErrors(t *testing.T) {
	const head = "forbidden *\ndata x = 0 : [0:1]\n"
	// m6(nop;) stands for 10^6 copies of "nop;".
	tenfold := "macro m1(s) s s s s s s s s s s endmacro\n"
	for i := 2; i <= 6; i++ {
		tenfold += fmt.Sprintf("macro m%d(s) %s endmacro\n", i, strings.Repeat(fmt.Sprintf("m%d(s) ", i-1), 10))
	}
	tenfold += "process text m6(nop;) nop"
	tests := []struct {
		name, src, want string
	}{
		{"no name", head + "macro (a) nop endmacro", "e.rmm:3:7: expected the name of the macro after macro, found '('"},
		{"no parameters", head + "macro m nop endmacro", "e.rmm:3:9: expected '(' after macro m, found reserved word 'nop'"},
		{"bad parameter", head + "macro m(1) nop endmacro", "e.rmm:3:9: expected a parameter name of macro m, found number 1"},
		{"duplicate parameter", head + "macro m(a, a) nop endmacro", "e.rmm:3:12: macro m has two parameters named a"},
		{"unterminated", head + "macro m(a) nop", "e.rmm:3:15: end of file before endmacro of macro m (defined at line 3)"},
		{"defined twice", head + "macro m() 1 endmacro\nmacro m() 2 endmacro", "e.rmm:4:7: macro m is defined twice (first at line 3)"},
		{"nested definition", head + "macro m() macro n() 1 endmacro endmacro", "e.rmm:3:11: a macro definition inside the body of macro m"},
		{"stray endmacro", head + "endmacro", "e.rmm:3:1: endmacro without a macro definition"},
		{"recursive", head + "macro m() m() endmacro\nprocess text m()", "e.rmm:3:11: macro m calls itself"},
		{"mutually recursive", head + "macro a() b() endmacro\nmacro b() a() endmacro\nprocess text a()", "e.rmm:4:11: macro a calls itself (through b)"},
		{"recursive through an argument", head + "macro a(x) x endmacro\nprocess text a(a(nop))", "e.rmm:4:16: macro a calls itself"},
		{"too few arguments", head + "macro m(a, b) nop endmacro\nprocess text m(1)", "e.rmm:4:14: macro m takes 2 arguments, called with 1"},
		{"empty argument", head + "macro m(a, b) nop endmacro\nprocess text m(1,)", "e.rmm:4:18: empty argument of macro m"},
		{"call without parentheses", head + "macro m() nop endmacro\nprocess text m", "e.rmm:4:15: expected '(' after macro m, found end of file"},
		{"unclosed call", head + "macro m(a) nop endmacro\nprocess text m((1)", "e.rmm:4:19: end of file in the arguments of macro m called at 4:14"},
		{"exponential", head + tenfold, "macro expansion produces more than 262144 tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("e.rmm", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error; want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want %q", err, tt.want)
			}
		})
	}
}
