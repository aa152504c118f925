package analyzer

import (
	"fmt"
	"go/types"

	"github.com/fencecheck/fencecheck/engines/question/race"
)

// isMapType reports whether t is a map type.
func isMapType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Map)
	return ok
}

// mapRaceFix returns the advice for the races of c when c is a map (its
// declared variable or field, or the location its accesses name, is one):
// no atomic makes a map safe for concurrent use, a lock around every
// access does.
func (s *system) mapRaceFix(c *racingCell) (string, bool) {
	isMap := false
	if v, ok := c.obj.(*types.Var); ok {
		isMap = isMapType(v.Type())
	}
	for _, rc := range c.races {
		for _, a := range []race.Access{rc.A, rc.B} {
			if a.Proc < len(s.sys.Origins) && a.Trans < len(s.sys.Origins[a.Proc]) {
				if t := s.sys.Origins[a.Proc][a.Trans].Type; t != nil && isMapType(t) {
					isMap = true
				}
			}
		}
	}
	if !isMap {
		return "", false
	}
	return fmt.Sprintf("fix: guard every access to the map %s with one sync.Mutex (or a sync.RWMutex, with RLock around its lookups, len and range), or use a sync.Map: Go's maps are not safe for concurrent use (the runtime may stop the program with fatal error: concurrent map writes)", c.name), true
}
