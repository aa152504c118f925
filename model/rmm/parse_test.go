package rmm

import (
	"strings"
	"testing"
)

// lowerTests pairs small programs with their translation, printed by dump.
var lowerTests = []struct {
	name, src, want string
}{
	{
		name: "instructions",
		src: `forbidden END
data x = 0 : [0:1]
process
registers $r = 0 : [0:3]
text
  nop;
  $r := 2;
  assume: $r = 2;
  write: x := 1;
  read: x = 1;
  read: $r := x;
  END: nop`,
		want: `
P0 q0 -> q1: nop
P0 q1 -> q2: $r := 2
P0 q2 -> q3: assume $r == 2
P0 q3 -> q4: write x := 1
P0 q4 -> q5: read x == 1
P0 q5 -> END: read $r := x
P0 END -> q7: nop
bad P0@END`,
	},
	{
		name: "if then else",
		src: `forbidden A
process
registers $r = 0 : [0:1]
text
  if $r = 0 then $r := 1 else $r := 0;
  A: nop`,
		want: `
P0 q0 -> q1: assume $r == 0
P0 q1 -> A: $r := 1
P0 q0 -> q3: assume $r != 0
P0 q3 -> A: $r := 0
P0 A -> q4: nop
bad P0@A`,
	},
	{
		name: "if without else",
		src: `forbidden A
process
registers $r = 0 : [0:1]
text
  if $r > 0 || not [$r < 1 && true] then nop;
  A: nop`,
		want: `
P0 q0 -> q1: assume $r > 0 || !($r < 1 && 1)
P0 q1 -> A: nop
P0 q0 -> A: assume !($r > 0 || !($r < 1 && 1))
P0 A -> q3: nop
bad P0@A`,
	},
	{
		name: "while",
		src: `forbidden A
data x = 0 : [0:1]
process
registers $r = 0 : [0:1]
text
  while $r <= 0 do read: $r := x;
  A: nop`,
		want: `
P0 q0 -> q1: assume $r <= 0
P0 q1 -> q0: read $r := x
P0 q0 -> A: assume $r > 0
P0 A -> q3: nop
bad P0@A`,
	},
	{
		name: "goto is merged into its target",
		src: `forbidden L
process
registers $r = 0 : [0:1]
text
  L: $r := 1;
  if $r = 1 then goto M;
  goto L;
  M: goto L`,
		want: `
P0 L -> q1: $r := 1
P0 q1 -> M: assume $r == 1
P0 q1 -> L: assume $r != 1
P0 M -> L: nop
bad P0@L`,
	},
	{
		name: "goto first is a nop",
		src: `forbidden L
process
text
  goto L;
  L: nop`,
		want: `
P0 q0 -> L: nop
P0 L -> q2: nop
bad P0@L`,
	},
	{
		name: "either",
		src: `forbidden A
data x = 0 : [0:1]
process
text
  either { write: x := 1 or B: read: x = 1; write: x := 0 or goto A };
  A: nop`,
		want: `
P0 q0 -> A: write x := 1
P0 q0 -> B: nop
P0 B -> q3: read x == 1
P0 q3 -> A: write x := 0
P0 q0 -> A: nop
P0 A -> q4: nop
bad P0@A`,
	},
	{
		name: "while in either gets its own head",
		src: `forbidden A
process
registers $r = 0 : [0:1]
text
  either { while $r = 0 do $r := 1 or nop };
  A: nop`,
		want: `
P0 q0 -> q1: nop
P0 q1 -> q2: assume $r == 0
P0 q2 -> q1: $r := 1
P0 q1 -> A: assume $r != 0
P0 q0 -> A: nop
P0 A -> q4: nop
bad P0@A`,
	},
	{
		name: "locked block that writes",
		src: `forbidden A
data l = 0 : [0:1]
process
registers $r = 0 : [0:1]
text
  locked { read: l = 0; write: l := 1; $r := 1 or read: $r := l };
  A: nop`,
		want: `
P0 q0 -> A: locked { read l == 0; write l := 1; $r := 1 }
P0 q0 -> A: locked { read $r := l }
P0 A -> q2: nop
bad P0@A`,
	},
	{
		name: "locked block that does not write",
		src: `forbidden A
data l = 0 : [0:1]
process
registers $r = 0 : [0:1]
text
  locked { read: l = 0; $r := 1 or assume: $r = 1 };
  A: nop`,
		want: `
P0 q0 -> q1: read l == 0
P0 q1 -> A: $r := 1
P0 q0 -> A: assume $r == 1
P0 A -> q3: nop
bad P0@A`,
	},
	{
		name: "nested locked blocks and sequences are flattened",
		src: `forbidden A
data x = 0 : [0:3]
process
text
  locked { { read: x = 0; locked write: x := 1 }; locked { write: x := 2 or write: x := 3 } };
  A: nop`,
		want: `
P0 q0 -> A: locked { read x == 0; write x := 1; write x := 2 }
P0 q0 -> A: locked { read x == 0; write x := 1; write x := 3 }
P0 A -> q2: nop
bad P0@A`,
	},
	{
		name: "cas and locked write",
		src: `forbidden A
data x = 0 : [0:1]
process
registers $r = 0 : [0:1]
text
  cas(x, 0, $r);
  locked write: x := 0;
  A: nop`,
		want: `
P0 q0 -> q1: locked { read x == 0; write x := $r }
P0 q1 -> A: locked { write x := 0 }
P0 A -> q3: nop
bad P0@A`,
	},
	{
		name: "fences and other memory models' instructions",
		src: `forbidden A
data x = 0 : [0:1]
process
registers $r = 0 : [0:1]
text
  fence; ssfence; llfence;
  syncwr: x := 1; syncrd: x = 1; syncrd: $r := x;
  slocked write: x := 0;
  A: nop`,
		want: `
P0 q0 -> q1: fence
P0 q1 -> q2: ssfence
P0 q2 -> q3: nop
P0 q3 -> q4: locked { write x := 1 }
P0 q4 -> q5: locked { read x == 1 }
P0 q5 -> q6: locked { read $r := x }
P0 q6 -> A: write x := 0
P0 A -> q8: nop
bad P0@A`,
	},
	{
		name: "per-process variables",
		src: `forbidden A A A
data g = 0 : [0:1]
process(3)
data f = 0 : [0:1]
text
  write: f[my] := 1; read: f[0] = 0; read: f[1] = 0; write: g := 1;
  A: nop`,
		want: `
P0 q0 -> q1: write f[P0] := 1
P0 q1 -> q2: read f[P1] == 0
P0 q2 -> q3: read f[P2] == 0
P0 q3 -> A: write g := 1
P0 A -> q5: nop
P1 q0 -> q1: write f[P1] := 1
P1 q1 -> q2: read f[P0] == 0
P1 q2 -> q3: read f[P2] == 0
P1 q3 -> A: write g := 1
P1 A -> q5: nop
P2 q0 -> q1: write f[P2] := 1
P2 q1 -> q2: read f[P0] == 0
P2 q2 -> q3: read f[P1] == 0
P2 q3 -> A: write g := 1
P2 A -> q5: nop
bad P0@A P1@A P2@A`,
	},
	{
		name: "forbidden tuples and wildcards",
		src: `forbidden
  A *; * B;
  A B
process text A: nop
process text B: nop`,
		want: `
P0 A -> q1: nop
P1 B -> q1: nop
bad P0@A
bad P1@B
bad P0@A P1@B`,
	},
	{
		name: "domain checks",
		src: `forbidden A
data x = 0 : [0:2]
  z = 0
process
registers $r = 0 : [0:1] $s = * : [-1:1] $u = 0 : Z
text
  $r := $r + 1;
  $r := 1 - $r;
  $s := $r - 1;
  write: x := $s + 1;
  write: x := $r - $s + 1;
  read: $r := x;
  read: $u := z;
  read: $s := z;
  A: nop`,
		want: `
P0 q0 -> q1: assume $r + 1 <= 1
P0 q1 -> q2: $r := $r + 1
P0 q2 -> q3: $r := 1 - $r
P0 q3 -> q4: $s := $r - 1
P0 q4 -> q5: write x := $s + 1
P0 q5 -> q6: assume $r - $s + 1 <= 2
P0 q6 -> q7: write x := $r - $s + 1
P0 q7 -> q8: read $r := x == 0
P0 q7 -> q8: read $r := x == 1
P0 q8 -> q9: read $u := z
P0 q9 -> A: read $s := z == -1
P0 q9 -> A: read $s := z == 0
P0 q9 -> A: read $s := z == 1
P0 A -> q11: nop
bad P0@A`,
	},
	{
		name: "domain checks in locked transitions",
		src: `forbidden A
data x = 0 : [0:1] y = 0 : [0:5]
process
registers $r = 0 : [0:1]
text
  cas(x, $r, $r + 1);
  locked { read: $r := y; write: x := $r };
  A: nop`,
		want: `
P0 q0 -> q1: locked { read x == $r; assume $r + 1 <= 1; write x := $r + 1 }
P0 q1 -> A: locked { assume y <= 1; read $r := y; write x := $r }
P0 A -> q3: nop
bad P0@A`,
	},
	{
		name: "arithmetic",
		src: `forbidden A
process
registers $r = 0 : [-3:3] $s = 0 : [0:2] $z = 0
text
  $r := -$s;
  $r := -(1 - $s) + 0;
  $r := - -3;
  $z := - -9223372036854775808;
  $r := $z - -9223372036854775808;
  $r := 9223372036854775807 + $s;
  A: nop`,
		want: `
P0 q0 -> q1: $r := -$s
P0 q1 -> q2: $r := -(1 - $s) + 0
P0 q2 -> q3: $r := 3
P0 q3 -> q4: $z := -(-9223372036854775808)
P0 q4 -> q5: assume $z - (-9223372036854775808) >= (-3) && $z - (-9223372036854775808) <= 3
P0 q5 -> q6: $r := $z - (-9223372036854775808)
P0 q6 -> q7: assume 9223372036854775807 + $s >= (-3) && 9223372036854775807 + $s <= 3
P0 q7 -> A: $r := 9223372036854775807 + $s
P0 A -> q9: nop
bad P0@A`,
	},
	{
		name: "pointers",
		src: `forbidden A
data a = 0 : [0:1] b = 0 : [0:1] c = 0 : [0:1]
process
registers $p = 1 : [1:2]
text
  write: [0] := 1;
  read: [$p] = 0;
  A: nop`,
		want: `
P0 q0 -> q1: write a := 1
P0 q1 -> q2: assume $p == 1
P0 q2 -> A: read b == 0
P0 q1 -> q4: assume $p == 2
P0 q4 -> A: read c == 0
P0 A -> q5: nop
bad P0@A`,
	},
	{
		name: "labels on one statement, labels in branches",
		src: `forbidden B
process
registers $r = 0 : [0:1]
text
  A: B: nop;
  if $r = 0 then C: nop else D: nop;
  goto B`,
		want: `
P0 A -> q1: nop
P0 q1 -> C: assume $r == 0
P0 C -> A: nop
P0 q1 -> D: assume $r != 0
P0 D -> A: nop
bad P0@A`,
	},
	{
		name: "declarations, comments, predicates, trailing semicolons",
		src: `// a line comment
forbidden A; /* a block
comment */
predicates $r = 0; not [$r > 1];
data x = -3 : [-5:-1], y = * : [0:1], z = 7 : Z, w = *
process
data v = 0,
registers $r = 1 : [1:1], $s = -9223372036854775808
text
  A: nop;`,
		want: `
P0 A -> q1: nop
bad P0@A`,
	},
}

func TestLower(t *testing.T) {
	for _, tt := range lowerTests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParse(t, tt.src)
			got := strings.TrimSpace(dump(p))
			want := strings.TrimSpace(tt.want)
			if got != want {
				t.Errorf("translation differs\n--- got:\n%s\n--- want:\n%s", got, want)
			}
		})
	}
}

func TestNames(t *testing.T) {
	src := `forbidden A A
data g = * : [0:2]
process(2)
data f = -1 : [-1:1]
registers $r = 0 : [0:1] $_9 = * : [0:1]
text A: nop`
	p, err := Parse("dir/two.rmm", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "two" {
		t.Errorf("program name %q, want two", p.Name)
	}
	var vars []string
	for _, v := range p.Vars {
		vars = append(vars, v.Name+" "+v.Dom.String()+" "+v.Init.String())
	}
	if got, want := strings.Join(vars, ", "), "g [0:2] *, f[P0] [-1:1] -1, f[P1] [-1:1] -1"; got != want {
		t.Errorf("variables %q, want %q", got, want)
	}
	for i, q := range p.Procs {
		if want := "P" + itoa(int64(i)); q.Name != want {
			t.Errorf("process %d named %s, want %s", i, q.Name, want)
		}
		if len(q.Regs) != 2 || q.Regs[0].Name != "r" || q.Regs[1].Name != "_9" || !q.Regs[1].Init.Any {
			t.Errorf("process %s registers %+v", q.Name, q.Regs)
		}
	}
}

func TestPointerInLockedBlock(t *testing.T) {
	src := `forbidden A
data a = 0 : [0:1] b = 0 : [0:1]
process
registers $p = 0 : [0:1]
text locked { read: [$p] = 0; write: [$p] := 1 }; A: nop`
	got := strings.TrimSpace(dump(mustParse(t, src)))
	want := strings.TrimSpace(`
P0 q0 -> A: locked { assume $p == 0; read a == 0; assume $p == 0; write a := 1 }
P0 q0 -> A: locked { assume $p == 0; read a == 0; assume $p == 1; write b := 1 }
P0 q0 -> A: locked { assume $p == 1; read b == 0; assume $p == 0; write a := 1 }
P0 q0 -> A: locked { assume $p == 1; read b == 0; assume $p == 1; write b := 1 }
P0 A -> q2: nop
bad P0@A`)
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
