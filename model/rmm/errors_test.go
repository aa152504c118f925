package rmm

import (
	"errors"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// A minimal valid program, for building erroneous variants.
const okHead = "forbidden A\ndata x = 0 : [0:1]\nprocess\nregisters $r = 0 : [0:1]\ntext\n"

var errorTests = []struct {
	name, src, want string
}{
	{"empty file", "", "e.rmm:1:1: expected 'forbidden' at the start of an .rmm file, found end of file"},
	{"no forbidden", "data x = 0", "e.rmm:1:1: expected 'forbidden' at the start of an .rmm file, found reserved word 'data'"},
	{"no label", "forbidden\nprocess", "e.rmm:2:1: expected a label or '*' in the forbidden states, found reserved word 'process'"},
	{"no process", "forbidden A\ndata x = 0\n", "e.rmm:3:1: expected 'data' or 'process', found end of file"},
	{"no text", "forbidden A\nprocess\nnop", "e.rmm:3:1: expected 'data', 'registers' or 'text', found reserved word 'nop'"},
	{"empty text", "forbidden A\nprocess text", "e.rmm:2:13: expected a statement, found end of file"},
	{"unterminated comment", "forbidden A\n  /* no end\n", "e.rmm:2:3: comment not terminated"},
	{"bad character", "forbidden A\nprocess text nop; #", "e.rmm:2:19: unexpected character '#'"},
	{"lone !", "forbidden A\nprocess text assume: ! true", "e.rmm:2:22: unexpected '!' (negation is written 'not', inequality '!=')"},
	{"invalid UTF-8", "forbidden A\xff", "e.rmm:1:12: invalid byte 0xff"},
	{"lone $", "forbidden A\nprocess text $ := 1", "e.rmm:2:14: register name expected after '$'"},
	{"number too large", okHead + "A: $r := 99999999999999999999", "e.rmm:6:10: integer 99999999999999999999 is out of range"},
	{"empty domain", "forbidden A\ndata x = 0 : [1:0]", "e.rmm:2:14: empty domain [1:0]"},
	{"init outside domain", "forbidden A\ndata\n  x = 2 : [0:1]", "e.rmm:3:3: initial value 2 of x is outside its domain [0:1]"},
	{"bad domain", "forbidden A\ndata x = 0 : N", "e.rmm:2:14: expected a domain ([LO:HI] or Z), found identifier N"},
	{"duplicate variable", "forbidden A\ndata x = 0\n x = 1", "e.rmm:3:2: x declared twice in this section (first at e.rmm:2:6)"},
	{"duplicate register", "forbidden A\nprocess registers $r = 0 $r = 1", "e.rmm:2:26: $r declared twice in this section (first at e.rmm:2:19)"},
	{"second data section", "forbidden A\nprocess data v = 0 data w = 0", "e.rmm:2:20: second 'data' section in one process"},
	{"zero copies", "forbidden A\nprocess(0) text nop", "e.rmm:2:9: the number of copies of a process must be between 1 and 1000"},
	{"too many copies", "forbidden A\nprocess(600) text nop\nprocess(600) text nop", "e.rmm:3:1: more than 1000 processes"},
	{"undeclared register", okHead + "A: $s := 1", "e.rmm:6:4: undeclared register $s"},
	{"undeclared register in expression", okHead + "A: $r := 1 - $q", "e.rmm:6:14: undeclared register $q"},
	{"undeclared variable", okHead + "A: write: y := 1", "e.rmm:6:11: undeclared shared variable y"},
	{"variable in expression", okHead + "A: $r := x + 1", "e.rmm:6:10: shared variable x cannot be used in an expression: read it into a register first"},
	{"register as variable", okHead + "A: read: $r := $r", "e.rmm:6:16: expected a shared variable, found register $r (registers are not in memory)"},
	{"me", okHead + "A: $r := me", "e.rmm:6:10: reserved word 'me' is not supported in expressions (Memorax does not support it either)"},
	{"assign with =", okHead + "A: $r = 1", "e.rmm:6:7: expected ':=' in an assignment to $r, found '='"},
	{"write with =", okHead + "A: write: x = 1", "e.rmm:6:13: expected ':=' in a write, found '='"},
	{"read with :=", okHead + "A: read: x := 1", "e.rmm:6:12: expected '=' in a read that compares; an assigning read is written read: $reg := x"},
	{"no comparison", okHead + "A: assume: $r", "e.rmm:6:14: expected a comparison (=, !=, <, >, <=, >=), found end of file"},
	{"unclosed paren", okHead + "A: $r := (1 + 2;", "e.rmm:6:16: expected ')' to close the '(' at 6:10, found ';'"},
	{"unclosed brace", okHead + "A: { nop; nop\n", "e.rmm:7:1: expected '}' to close the '{' at 6:4, found end of file"},
	{"unclosed bracket", okHead + "A: assume: [$r = 0", "e.rmm:6:19: expected ']' to close the '[' at 6:12, found end of file"},
	{"missing then", okHead + "A: if $r = 0 nop", "e.rmm:6:14: expected 'then' after the condition of 'if', found reserved word 'nop'"},
	{"else after semicolon", okHead + "A: if $r = 0 then nop; else nop", "e.rmm:6:24: unexpected 'else' (the 'then' part of an if is a single statement: use { ... } to group several)"},
	{"identifier without colon", okHead + "A: nop;\nB nop", "e.rmm:7:1: unexpected identifier B: expected a statement (a label is followed by ':', found reserved word 'nop')"},
	{"garbage after text", okHead + "A: nop nop", "e.rmm:6:8: expected ';', 'process' or end of file, found reserved word 'nop'"},
	{"locked without body", okHead + "A: locked read: x = 0", "e.rmm:6:11: expected 'write' or '{' after 'locked', found reserved word 'read'"},
	{"goto undefined label", okHead + "A: goto B", "e.rmm:6:9: goto B: process P0 has no label B"},
	{"duplicate label", okHead + "A: nop;\n  A: nop", "e.rmm:7:3: label A defined twice in process P0 (first at 6:1)"},
	{"forbidden undefined label", "forbidden A B\nprocess text A: nop\nprocess text C: nop", "e.rmm:1:13: process P1 has no label B"},
	{"forbidden too short", "forbidden A; A\nprocess text A: nop\nprocess text A: nop", "e.rmm:1:11: forbidden state has 1 labels, but the program has 2 processes (give one label or * per process)"},
	{"local as global", "forbidden A\nprocess data f = 0 text A: write: f := 1", "e.rmm:2:35: f is declared per process: write f[my] for this process's copy, f[N] for another's"},
	{"global as local", "forbidden A\ndata g = 0\nprocess text A: write: g[my] := 1", "e.rmm:3:24: g is a global variable: write g, not g[my]"},
	{"no such process", "forbidden A *\nprocess data f = 0 text A: read: f[1] = 0\nprocess data f = 0 text nop", "e.rmm:2:34: f[1]: process P0 sees only 1 other processes, numbered from 0"},
	{"no such local", "forbidden A *\nprocess data f = 0 text A: read: f[0] = 0\nprocess text nop", "e.rmm:2:34: f[0]: process P1 declares no variable f"},
	{"huge process index", "forbidden A *\nprocess data f = 0 text A: read: f[9223372036854775807] = 0\nprocess data f = 0 text nop", "e.rmm:2:34: f[9223372036854775807]: process P0 sees only 1 other processes, numbered from 0"},
	{"bad process index", okHead + "A: read: x[me] = 0", "e.rmm:6:12: expected 'my' or a process number in x[...], found reserved word 'me'"},
	{"pointer out of range", okHead + "A: write: [1] := 0", "e.rmm:6:11: pointer value 1: there are 1 global variables"},
	{"pointer to nothing", "forbidden A\ndata x = 0\nprocess registers $p = 5 : [5:6] text A: read: [$p] = 0", "e.rmm:3:48: pointer cannot denote any global variable (there are 1)"},
	{"too many alternatives", "forbidden A\ndata a=0 b=0 c=0 d=0 e=0 f=0 g=0 h=0 i=0 j=0\nprocess registers $p = 0 text\nA: locked { read: [$p] = 0; read: [$p] = 0; read: [$p] = 0; write: [$p] := 1 }", "e.rmm:4:4: locked block expands to more than 4096 alternatives"},
	{"program too large", "forbidden" + strings.Repeat(" *", 1000) + "\nprocess(1000) text " + strings.Repeat("nop; ", 600) + "nop", "e.rmm:2:1: the program expands to more than 500000 locations and transitions"},
	{"fence in locked", okHead + "A: locked { fence }", "e.rmm:6:13: a fence inside a locked block"},
	{"if in locked", okHead + "A: locked { if $r = 0 then nop }", "e.rmm:6:13: an if statement inside a locked block"},
	{"label in locked", okHead + "A: locked { B: nop }", "e.rmm:6:13: a label inside a locked block"},
	{"syncwr in locked", okHead + "A: locked { syncwr: x := 1 }", "e.rmm:6:13: a synchronising read or write inside a locked block"},
	{"two reads without write", "forbidden A\ndata x = 0 y = 0\nprocess text A: locked { read: x = 0; read: y = 0 }", "e.rmm:3:17: a locked block that writes nothing may read only one shared variable in each alternative (its reads could not be made atomic)"},
	{"deep nesting", "forbidden A\nprocess text A: " + strings.Repeat("{", 600) + "nop" + strings.Repeat("}", 600), "e.rmm:2:517: nesting deeper than 500 levels"},
	{"deep expression", okHead + "A: $r := " + strings.Repeat("1 + ", 600) + "1", "e.rmm:6:2008: expression nested deeper than 500 levels"},
}

func TestErrors(t *testing.T) {
	for _, tt := range errorTests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("e.rmm", []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse succeeded, want error %q\n%s", tt.want, dump(p))
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error\n got: %s\nwant: %s", got, tt.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("error %v is a %T, not an *Error", err, err)
			}
		})
	}
}

func TestErrorFormat(t *testing.T) {
	_, err := Parse("dir/f.rmm", []byte("forbidden A\nprocess text goto B"))
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want an *Error", err)
	}
	if e.Pos.File != "dir/f.rmm" || e.Pos.Line != 2 || e.Pos.Col != 19 {
		t.Errorf("Pos = %+v, want dir/f.rmm:2:19", e.Pos)
	}
	if e.Msg != "goto B: process P0 has no label B" {
		t.Errorf("Msg = %q", e.Msg)
	}
}

func TestInvalidProgramErrors(t *testing.T) {
	err := invalid("f.rmm", errors.Join(
		model.Problem{Pos: model.Pos{Line: 3, Col: 4}, Msg: "first"},
		model.Problem{Msg: "second"},
	))
	want := "f.rmm:3:4: internal error: invalid program: first\nf.rmm: internal error: invalid program: second"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("%T is not an *Error", err)
	}
	if got := invalid("f.rmm", errors.New("plain")).Error(); got != "f.rmm: internal error: invalid program: plain" {
		t.Errorf("got %q", got)
	}
}
