package analyzer

import (
	"regexp"
	"strings"

	"github.com/fencecheck/fencecheck/extract"
)

// madeUnique matches what the front end adds to a name to keep the model's
// variables apart: #N after a name (the second object called p is p#2, the
// variable i of another iteration i#2) and @LINE after a map that cells may
// hold (c.items@206, the map made at line 206). No Go programmer wrote
// either; the positions of a finding tell same-named variables apart.
var madeUnique = regexp.MustCompile(`([\w)\]])(?:#[0-9]+|@[0-9]+)+`)

// presencePrefix begins the name of the variable saying whether a map's key
// is present: present(m["a"]).
const presencePrefix = "present("

// sourceName turns the name of a model variable into the Go expression it
// stands for, as messages show it.
func sourceName(name string) string {
	if strings.HasPrefix(name, presencePrefix) && strings.HasSuffix(name, ")") {
		name = name[len(presencePrefix) : len(name)-1]
	}
	return madeUnique.ReplaceAllString(name, "$1")
}

// varName is the Go expression that variable x of the system stands for.
func (s *system) varName(x int) string {
	if _, ok := s.startedBy(x); ok {
		return s.p.Vars[x].Name
	}
	return sourceName(s.p.Vars[x].Name)
}

// startedBy returns the goroutine whose go statement sets variable x, for
// a goroutine started inside another.
func (s *system) startedBy(x int) (string, bool) {
	return strings.CutPrefix(s.p.Vars[x].Name, extract.StartFlagPrefix)
}

// isPresence reports whether variable x says whether a map's key is there.
func (s *system) isPresence(x int) bool {
	return strings.HasPrefix(s.p.Vars[x].Name, presencePrefix)
}
