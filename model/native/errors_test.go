package native

import (
	"errors"
	"strings"
	"testing"
)

// Each source is wrong in one place; the want is the whole error text.
var errorTests = []struct {
	name, src, want string
}{
	{"unknown variable",
		"var x : [0:1] = 0\nprocess P {\n  L0 -> L1 : write y := 1\n}\n",
		"e.fcm:3:20: unknown shared variable y"},
	{"unknown variable in expression",
		"var x : [0:1] = 0\nprocess P {\n  L0 -> L1 : locked { write x := z }\n}\n",
		"e.fcm:3:34: unknown shared variable z"},
	{"unknown register",
		"var x : [0:1] = 0\nprocess P {\n  L0 -> L1 : read $r := x\n}\n",
		"e.fcm:3:19: unknown register $r in process P"},
	{"register used before its declaration",
		"process P {\n  L0 -> L1 : $r := 1\n  reg $r : int = 0\n}\n",
		"e.fcm:2:14: unknown register $r in process P"},
	{"undeclared process in bad",
		"process P {\n  L0 -> L1 : nop\n}\nbad : Q@L0\n",
		"e.fcm:4:7: unknown process Q"},
	{"undeclared process in condition",
		"process P {\n  L0 -> L1 : nop\n}\nbad : P@L0 & Q.$r == 0\n",
		"e.fcm:4:14: unknown process Q"},
	{"unknown location in bad",
		"process P {\n  L0 -> L1 : nop\n}\nbad : P@L7\n",
		"e.fcm:4:9: process P has no location L7"},
	{"unknown qualified register",
		"process P {\n  reg $r : [0:1] = 0\n  L0 -> L0 : $r := 1\n}\nbad : P.$q == 1\n",
		"e.fcm:5:9: unknown register P.$q"},
	{"unknown integers",
		"program p integers bigint\nprocess P {\n  L0 -> L1 : nop\n}\n",
		"e.fcm:1:20: expected wrap64 or mathematical, found \"bigint\""},
	{"empty domain",
		"var x : [3:1] = 0\n",
		"e.fcm:1:9: empty domain [3:1]: the lower bound exceeds the upper"},
	{"domain without colon",
		"var x : [0 1] = 0\n",
		`e.fcm:1:12: expected ":" between the bounds of the domain, found "1"`},
	{"unknown domain",
		"var x : bool = 0\n",
		`e.fcm:1:9: expected a domain ([lo:hi] or int), found "bool"`},
	{"domain bound out of range",
		"var x : [0:9223372036854775808] = 0\n",
		"e.fcm:1:12: integer 9223372036854775808 out of range"},
	{"negative bound out of range",
		"var x : [-9223372036854775809:0] = 0\n",
		"e.fcm:1:10: integer -9223372036854775809 out of range"},
	{"initial value outside the domain",
		"var x : [0:1] = 5\nprocess P {\n  L0 -> L1 : nop\n}\n",
		"e.fcm:1:5: initial value 5 of x is outside [0:1]"},
	{"missing initial value",
		"var x : [0:1] =\n",
		"e.fcm:1:16: expected an initial value (an integer or *), found end of line"},
	{"unterminated locked block",
		"var x : [0:1] = 0\nprocess P {\n  reg $r : [0:1] = 0\n  L0 -> L1 : locked { read $r := x; write x := 1\n}\n",
		"e.fcm:4:21: unterminated locked block: missing } before end of line"},
	{"locked block without separator",
		"var x : [0:1] = 0\nprocess P {\n  L0 -> L1 : locked { read x write x := 1 }\n}\n",
		`e.fcm:3:30: expected ";" or "}" in the locked block, found "write"`},
	{"junk after operation",
		"var x : [0:1] = 0\nprocess P {\n  L0 -> L1 : nop junk\n}\n",
		`e.fcm:3:18: unexpected "junk" after the operation`},
	{"junk after declaration",
		"var x : [0:1] = 0 1\n",
		`e.fcm:1:19: unexpected "1" after the variable declaration`},
	{"junk at top level",
		"hello world\n",
		`e.fcm:1:1: expected a declaration (program, var, process or bad), found "hello"`},
	{"duplicate variable",
		"var x : [0:1] = 0\nvar x : int = 0\n",
		"e.fcm:2:5: shared variable x declared twice (first at 1:5)"},
	{"duplicate register",
		"process P {\n  reg $r : int = 0\n  reg $r : int = 0\n  L0 -> L0 : nop\n}\n",
		"e.fcm:3:7: register $r declared twice in process P (first at 2:7)"},
	{"duplicate process",
		"process P {\n  L0 -> L0 : nop\n}\nprocess P {\n  L0 -> L0 : nop\n}\n",
		"e.fcm:4:9: process P declared twice"},
	{"duplicate location",
		"process P {\n  locs A B A\n}\n",
		"e.fcm:2:12: location A listed twice in process P"},
	{"second init",
		"process P {\n  init A\n  init B\n}\n",
		"e.fcm:3:3: process P has a second init line"},
	{"second program line",
		"program a\nprogram b\n",
		"e.fcm:2:1: a second program line"},
	{"late program line",
		"var x : int = 0\nprogram b\n",
		"e.fcm:2:1: the program line must come first"},
	{"unterminated process",
		"process P {\n  L0 -> L0 : nop\n",
		"e.fcm:1:11: unterminated process P: missing }"},
	{"process without }",
		"process P {\n  L0 -> L0 : nop\nbad : P@L0\n",
		"e.fcm:3:1: unterminated process P: missing } before bad"},
	{"process without locations",
		"process P {\n}\n",
		"e.fcm:1:9: process P has no location"},
	{"no process",
		"var x : int = 0\n",
		"e.fcm:2:1: the model declares no process"},
	{"variable outside a locked block",
		"var x : [0:1] = 0\nprocess P {\n  L0 -> L0 : assume x == 1\n}\n",
		"e.fcm:3:21: shared variable x named outside a locked block (read it into a register)"},
	{"unqualified register in bad",
		"process P {\n  reg $r : int = 0\n  L0 -> L0 : nop\n}\nbad : $r == 1\n",
		"e.fcm:5:7: unqualified register $r in a bad-state condition (write P.$r)"},
	{"qualified register in transition",
		"process P {\n  reg $r : int = 0\n  L0 -> L0 : $r := P.$r\n}\n",
		"e.fcm:3:20: qualified register P.$r outside a bad-state condition"},
	{"literal out of range",
		"process P {\n  reg $r : int = 0\n  L0 -> L0 : $r := 99999999999999999999\n}\n",
		"e.fcm:3:20: integer 99999999999999999999 out of range"},
	{"fence in locked block",
		"process P {\n  L0 -> L0 : locked { fence }\n}\n",
		"e.fcm:2:23: a fence inside a locked block"},
	{"store-store fence in locked block",
		"process P {\n  L0 -> L0 : locked { ssfence }\n}\n",
		"e.fcm:2:23: a store-store fence inside a locked block"},
	{"nested locked block",
		"process P {\n  L0 -> L0 : locked { locked { } }\n}\n",
		"e.fcm:2:23: a locked block inside a locked block"},
	{"unknown operation",
		"process P {\n  L0 -> L0 : jump L1\n}\n",
		`e.fcm:2:14: expected an operation (nop, fence, ssfence, assume, read, write, locked or $reg := expr), found "jump"`},
	{"missing arrow",
		"process P {\n  L0 L1 : nop\n}\n",
		`e.fcm:2:6: expected "->" after the source location, found "L1"`},
	{"missing file after @",
		"process P {\n  L0 -> L0 : nop @\n}\n",
		"e.fcm:2:19: expected a file name after @"},
	{"line zero",
		"process P {\n  L0 -> L0 : nop @ f.go:0:1\n}\n",
		"e.fcm:2:25: line number 0 out of range"},
	{"unterminated string",
		"process \"P {\n",
		"e.fcm:1:9: unterminated string literal"},
	{"bad escape",
		"process \"P\\q\" {\n",
		`e.fcm:1:9: invalid string literal "P\q"`},
	{"non-ASCII outside a string",
		"process P {\n  L0 -> L0 : nop é\n}\n",
		"e.fcm:2:18: unexpected character 'é'"},
	{"invalid UTF-8",
		"process P {\n  L0 -> L0 : nop \xff\n}\n",
		"e.fcm:2:18: invalid UTF-8 byte 0xff"},
	{"malformed number",
		"process P {\n  reg $r : int = 0\n  L0 -> L0 : $r := 12ab\n}\n",
		`e.fcm:3:20: malformed number "12ab"`},
	{"lone dollar",
		"process P {\n  reg $ : int = 0\n}\n",
		"e.fcm:2:7: expected a register name after $"},
	{"condition before a location",
		"process P {\n  L0 -> L0 : nop\n}\nbad : P@L0 & 1 == 1 & P@L0\n",
		"e.fcm:4:21: unexpected & after the condition of a bad state (locations P@L come first; the condition uses &&)"},
	{"bad without colon",
		"process P {\n  L0 -> L0 : nop\n}\nbad P@L0\n",
		`e.fcm:4:6: expected ":" after the name of the bad state, found "@"`},
	{"empty bad specification",
		"process P {\n  L0 -> L0 : nop\n}\nbad :\n",
		"e.fcm:4:6: expected P@L or a condition after :, found end of line"},
	{"missing operand",
		"process P {\n  L0 -> L0 : assume 1 +\n}\n",
		`e.fcm:3:1: expected an expression, found "}"`},
	{"unclosed parenthesis",
		"process P {\n  L0 -> L0 : assume (1 + 2\n}\n",
		`e.fcm:2:27: expected ")" to close (, found end of line`},
	{"nested too deeply",
		"process P {\n  L0 -> L0 : assume " + strings.Repeat("(", maxDepth+1) + "1" + strings.Repeat(")", maxDepth+1) + "\n}\n",
		"e.fcm:2:1021: expression nested more than 1000 deep"},
	{"expression too large",
		"process P {\n  L0 -> L0 : assume 1" + strings.Repeat(" + 1", maxHeight) + "\n}\n",
		"e.fcm:2:40019: expression of more than 10000 nested operations"},
}

func TestParseErrors(t *testing.T) {
	for _, tt := range errorTests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("e.fcm", []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse succeeded:\n%s", Format(p))
			}
			if p != nil {
				t.Errorf("Parse returned a program and an error")
			}
			first := strings.SplitN(err.Error(), "\n", 2)[0]
			if first != tt.want {
				t.Errorf("error:\n%s\nwant:\n%s", err, tt.want)
			}
			var e *Error
			if !errors.As(err, &e) || e.Pos.File != "e.fcm" || e.Pos.Line <= 0 || e.Pos.Col <= 0 {
				t.Errorf("error %#v is not an *Error with a position in e.fcm", err)
			}
		})
	}
}

// TestParseErrorsRecover checks that Parse goes on after an error and
// reports the errors of later lines, up to a limit.
func TestParseErrorsRecover(t *testing.T) {
	src := `var x : [0:1] = 2 2
var y : bad
process P {
  reg $r : [0:1] = 0
  L0 -> L1 : write z := 1
  L1 -> L2 : read $r := x
  L2 -> L3 : $q := 1
}
process {
  L0 -> L1 : nop
}
bad : P@L9
`
	_, err := Parse("r.fcm", []byte(src))
	want := []string{
		`r.fcm:1:19: unexpected "2" after the variable declaration`,
		`r.fcm:2:9: expected a domain ([lo:hi] or int), found "bad"`,
		`r.fcm:5:20: unknown shared variable z`,
		`r.fcm:7:14: unknown register $q in process P`,
		`r.fcm:9:9: expected a process name, found "{"`,
		`r.fcm:12:9: process P has no location L9`,
	}
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("errors:\n%v\nwant:\n%s", err, strings.Join(want, "\n"))
	}

	many := strings.Repeat("junk\n", 3*maxErrors)
	_, err = Parse("m.fcm", []byte(many))
	if err == nil {
		t.Fatal("Parse succeeded")
	}
	if n := strings.Count(err.Error(), "\n") + 1; n != maxErrors {
		t.Errorf("%d errors reported, want %d", n, maxErrors)
	}
}

// TestValidateErrors checks that problems found by Validate come with the
// position of the construct in the model file, even where a transition
// records a position in another file.
func TestValidateErrors(t *testing.T) {
	src := "process P {\n  reg $r : [0:1] = *\n  reg $s : [2:3] = 1\n  L0 -> L0 : nop @ x.go:5:5\n}\n"
	_, err := Parse("v.fcm", []byte(src))
	const want = "v.fcm:3:7: initial value 1 of P.$s is outside [2:3]"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
