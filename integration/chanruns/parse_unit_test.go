package chanruns

import (
	"slices"
	"testing"
)

// sampleChanRace is the output of a process of a system whose send races
// with a close: the race detector's report on the channel, then the
// panic.
const sampleChanRace = `==================
WARNING: DATA RACE
Read at 0x00c0000dc010 by goroutine 9:
  runtime.chansend()
      /usr/local/go/src/runtime/chan.go:176 +0x0
  gen/p0007.System.func1()
      /tmp/gen/p0007/p0007.go:16 +0x89

Previous write at 0x00c0000dc010 by goroutine 8:
  runtime.closechan()
      /usr/local/go/src/runtime/chan.go:414 +0x0
  gen/p0007.System()
      /tmp/gen/p0007/p0007.go:29 +0x276
  main.main.func1()
      /tmp/gen/cmd/run/main.go:60 +0x7b

Goroutine 9 (running) created at:
  gen/p0007.System()
      /tmp/gen/p0007/p0007.go:14 +0x126
  main.main.func1()
      /tmp/gen/cmd/run/main.go:60 +0x7b
==================
panic: send on closed channel

goroutine 23 [running]:
gen/p0007.System.func1()
	/tmp/gen/p0007/p0007.go:16 +0x8a
created by gen/p0007.System in goroutine 22
	/tmp/gen/p0007/p0007.go:14 +0x127
`

// sampleRaceLeak is the output of a process that saw a race on memory,
// then a leak.
const sampleRaceLeak = `==================
WARNING: DATA RACE
Write at 0x00c000012345 by goroutine 7:
  gen/p0012.System.func1()
      /tmp/gen/p0012/p0012.go:14 +0x44

Previous read at 0x00c000012345 by goroutine 6:
  gen/p0012.System()
      /tmp/gen/p0012/p0012.go:31 +0x55
  main.main.func1()
      /tmp/gen/cmd/run/main.go:60 +0x7b

Goroutine 7 (running) created at:
  gen/p0012.System()
      /tmp/gen/p0012/p0012.go:12 +0x87
==================
chanruns: leak in iteration 17
chanruns: 	goroutine 40 [chan send] at /tmp/gen/p0012/p0012.go:15
chanruns: 	goroutine 41 [select] at /tmp/gen/p0012/p0012.go:22
`

// TestParseProcess checks the reading of the runner's output.
func TestParseProcess(t *testing.T) {
	po := parseProcess(sampleChanRace, "p0007")
	if po.completed || !po.stopped || len(po.events) != 2 {
		t.Fatalf("chan race: %+v", po)
	}
	if e := po.events[0]; e.kind != evChanRace || !slices.Equal(e.lines, []int{16, 29}) {
		t.Errorf("chan race: first event %+v", e)
	}
	if e := po.events[1]; e.kind != evPanic || !slices.Equal(e.lines, []int{16}) || e.detail != "send on closed channel at line 16" {
		t.Errorf("chan race: second event %+v", e)
	}

	po = parseProcess(sampleRaceLeak, "p0012")
	if !po.stopped || po.iterations != 18 || len(po.events) != 2 {
		t.Fatalf("race and leak: %+v", po)
	}
	if e := po.events[0]; e.kind != evRace || !slices.Equal(e.lines, []int{14, 31}) {
		t.Errorf("race and leak: first event %+v", e)
	}
	if e := po.events[1]; e.kind != evLeak || !slices.Equal(e.lines, []int{15, 22}) {
		t.Errorf("race and leak: second event %+v", e)
	}

	po = parseProcess("chanruns: deadlock in iteration 0\nchanruns: \tgoroutine 20 [sync.WaitGroup.Wait] at /tmp/gen/p0001/p0001.go:30\nchanruns: stopped after 1 deadlocks\n", "p0001")
	if !po.stopped || len(po.events) != 1 || po.events[0].kind != evDeadlock || !slices.Equal(po.events[0].lines, []int{30}) {
		t.Errorf("deadlock: %+v", po)
	}
	po = parseProcess("fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\n", "p0001")
	if !po.stopped || len(po.events) != 1 || po.events[0].kind != evDeadlock {
		t.Errorf("fatal deadlock: %+v", po)
	}
	po = parseProcess("chanruns: completed 300 iterations\n", "p0001")
	if !po.completed || po.iterations != 300 || len(po.events) != 0 {
		t.Errorf("completed: %+v", po)
	}
}

// TestMatch checks how findings account for run-time events.
func TestMatch(t *testing.T) {
	race := finding{kind: "race", line: 14, message: "race: go@12 stores x here …"}
	leak := finding{kind: "leak", line: 15, message: "leak: go@10 blocks forever in c0 <- 2 after system System returns"}
	dead := finding{kind: "deadlock", line: 30, message: "deadlock: main blocks forever in wg.Wait() (system System)"}
	sendPanic := finding{kind: "SC", line: 16, message: `SC: system System is wrong even under sequential consistency: the run-time panic "panic: send on closed channel" at p.go:16:6 is reached`}
	for _, tt := range []struct {
		name         string
		ev           event
		def, noRaces []finding
		how, pass    string
	}{
		{"race", event{kind: evRace}, []finding{race}, nil, matchExact, ""},
		{"race without race finding", event{kind: evRace}, []finding{leak}, []finding{leak}, matchMiss, ""},
		{"leak", event{kind: evLeak}, []finding{race, leak}, nil, matchExact, ""},
		{"leak as deadlock", event{kind: evLeak}, []finding{dead}, nil, matchKind, ""},
		{"deadlock shadowed by a panic", event{kind: evDeadlock}, []finding{sendPanic}, nil, matchShadowed, ""},
		{"panic at its line", event{kind: evPanic, lines: []int{16}}, []finding{sendPanic}, nil, matchExact, ""},
		{"panic elsewhere", event{kind: evPanic, lines: []int{20}}, []finding{sendPanic}, nil, matchKind, ""},
		{"panic shadowed by a leak", event{kind: evPanic, lines: []int{20}}, []finding{leak}, nil, matchShadowed, ""},
		{"chan race", event{kind: evChanRace, lines: []int{16, 29}}, []finding{sendPanic}, nil, matchExact, ""},
		{"chan race and a memory race", event{kind: evChanRace, lines: []int{16, 29}}, []finding{race}, nil, matchMiss, ""},
		{"deadlock after a race", event{kind: evDeadlock}, []finding{race}, []finding{dead}, matchExact, passNoRaces},
		{"deadlock missed", event{kind: evDeadlock}, []finding{race}, nil, matchMiss, ""},
	} {
		v := match(&tt.ev, tt.def, tt.noRaces)
		if v.how != tt.how || v.pass != tt.pass {
			t.Errorf("%s: %s by %v [%s], want %s [%s]", tt.name, v.how, v.by, v.pass, tt.how, tt.pass)
		}
	}
}

// TestFindingKind checks the kinds of fencecheck's messages.
func TestFindingKind(t *testing.T) {
	for msg, want := range map[string]string{
		"race: go@12 stores x here":                                                                "race",
		"deadlock: main blocks forever in wg.Wait() (system System)":                               "deadlock",
		"x86-TSO: the store to x can still sit in the store buffer":                                "x86-TSO",
		"unsupported in a fencecheck system: a select with two cases on the unbuffered channel c0": kindUnsupported,
		"internal error: system System lowered to an invalid model: x":                             kindInternal,
		"inconclusive: system System: budget":                                                      "inconclusive",
	} {
		if got := findingKind(msg); got != want {
			t.Errorf("findingKind(%q) = %q, want %q", msg, got, want)
		}
	}
}
