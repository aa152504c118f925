// Package native reads and writes fencecheck's own text format for
// [model.Program], conventionally in files named *.fcm.
//
// [Format] prints a program and [Parse] reads it back: for every program that
// [model.Program.Validate] accepts, Parse(Format(p)) is p again, up to the
// details listed under "What a round trip keeps". The parser reports every
// problem as an [*Error] at its line and column and never panics.
//
// # Example
//
//	program "sb"
//
//	var x : [0:1] = 0          // a finite domain and an initial value
//	var y : [0:1] = 0
//	var z : [0:3] = *          # any value of the domain
//	var n : int = -1           # unbounded
//
//	process P0 {
//	  reg $r : [0:1] = 0
//	  locs L0 L1 L2
//	  init L0
//	  L0 -> L1 : write x := 1      @ sb.go:14:2
//	  L1 -> L2 : read $r := y
//	}
//
//	process P1 {
//	  reg $r : [0:1] = 0
//	  L0 -> L1 : write y := 1
//	  L1 -> L2 : read $r := x
//	}
//
//	bad "both loads saw 0" : P0@L2 & P1@L2 & P0.$r == 0 && P1.$r == 0
//
// # Lexical elements
//
// The format is line oriented: every declaration, statement and transition
// ends at the end of its line. A line may be continued after a binary
// operator of an expression and after the & of a bad state; a locked block
// closes on its line. Comments run from // or # to the end of the line.
//
// A name (of the program, a variable, a process, a location or a bad state)
// is an identifier — an ASCII letter or _ followed by letters, digits and _ —
// or a Go string literal such as "l.flag[0]", which may hold any text. A
// location name may also be a run of digits (L0, 0 and "entry" are all
// location names). A register is written $ followed by letters, digits and
// _, or by a string literal: $r, $t0, $"x.y". Integers are decimal, of type
// int64. A unary minus before a literal is part of the literal, so
// -9223372036854775808 is a constant, and -(5) is the negation of 5.
//
// Keywords (program, var, process, reg, locs, init, bad, int, nop, fence, ssfence,
// assume, read, write, locked) are reserved only where a keyword may stand,
// so a location called init is still written init -> L1 : nop; the printer
// quotes such names ("init") to spare the reader.
//
// # Declarations
//
// A file holds an optional program line, then shared variables, processes
// and bad states. The program line may say what the integers are
// ([model.Integers]): Go's, which wrap at 64 bits (wrap64, the default),
// or mathematical, as a Memorax model's. A name must be declared before it is used: a variable
// before the processes that use it, a register before its first use, a
// process before the bad states that name it.
//
//	file      = [ "program" name [ "integers" ints ] ] { var | process | bad } .
//	ints      = "wrap64" | "mathematical" .
//	var       = "var" name ":" domain "=" init .
//	domain    = "int" | "[" integer ":" integer "]" .
//	init      = integer | "*" .
//	process   = "process" name "{" { reg | locs | initloc | transition } "}" .
//	reg       = "reg" register ":" domain "=" init .
//	locs      = "locs" location { location } .
//	initloc   = "init" location .
//	transition = location "->" location ":" op [ "@" position ] .
//	position  = file ":" line [ ":" column ] .
//	bad       = "bad" [ name ] [ ":" item { "&" item } ] .
//	item      = name "@" location | expr .
//
// A domain is the closed interval [lo:hi] or int, all of int64; the initial
// value * is any value of the domain. Locations are declared by their first
// use; a locs line declares them ahead of use, which fixes their order and
// admits locations without transitions. The initial location is given by init
// and defaults to the first location. A transition's position (the Go
// statement it was made from) is written after @ as file:line:col, with the
// file quoted when it holds anything but letters, digits and _ . / - + ~;
// a transition without one is given its place in the model file.
//
// A bad state is a set of configurations: every process P named by P@L is
// at location L and the condition, which must come last, holds. The parts
// are joined by & (the parser also takes && there). A condition names
// shared variables (their values in main memory) and the registers of
// processes as P.$r.
//
// # Operations
//
//	nop                       do nothing
//	fence                     wait for empty store buffers (MFENCE)
//	ssfence                   store-store fence: under PSO the stores before it
//	                          reach memory before those after it (STBAR); a
//	                          nop under TSO and SC
//	assume e                  enabled only when e is non-zero
//	$r := e                   assign a register
//	read $r := x              load x into $r (own store buffer first, then memory)
//	read x == e               load x, enabled only when it equals e
//	read $r := x == e         both of the above
//	write x := e              store e to x (into the store buffer under TSO)
//	locked { op; op; ... }    an atomic block of reads, writes, assignments,
//	                          assumes and nops on memory, with an empty buffer
//
// # Expressions
//
// Expressions are over int64 with booleans as 0 and 1. Operands are integer
// literals, registers of the executing process ($r), shared variables (only
// inside locked blocks and bad-state conditions), qualified registers P.$r
// (only in bad-state conditions), parenthesised expressions and wraps:
// uint8(e) is e modulo 2^8 in [0, 255], int8(e) the same in [-128, 127], for
// any width from 1 to 62 bits (uint5(e), int32(e)), as Go's conversions and
// arithmetic reduce a value to its type. Operators, from the tightest binding:
// unary -, ! and ^ (bitwise complement); * / % & &^ << >> >>>; + - | ^;
// == != < <= > >=; &&; ||, with Go's precedence. The bitwise operators act
// on int64 two's complement values; >> is arithmetic and >>> the logical
// right shift of a uint64 bit pattern; a shift by a negative count faults.
// Binary operators associate to the left. An expression may nest
// parentheses and unary operators up to 1000 deep and operations up to 10000
// deep.
//
// # What a round trip keeps
//
// Parse(Format(p)) equals p in everything the format expresses. It does not
// keep the positions of variables, registers, locations and bad states, which
// become their places in the printed file; positions of transitions are kept
// when they are valid and otherwise become places in the file. Fields that an
// operation of its kind does not use (Var of an assignment, Reg of a write)
// come back as the constructors of package model set them, an empty locked
// body comes back nil, an unbounded domain comes back as [model.Unbounded], and
// the value of an initial value marked Any comes back 0. Names must be unique
// where they are looked up: a program whose process has two locations of the
// same name prints, but does not parse.
package native
