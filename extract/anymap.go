package extract

import (
	"fmt"
	"go/token"
	"go/types"

	"github.com/fencecheck/fencecheck/model"
)

// Interface values holding maps.
//
// A map is a reference: an interface value holding one (a snapshot in an
// atomic.Value, copy-on-write configuration, a map in a queue of any) has
// a box per map, whose value is the map's identity (maps.go: 1, 2, ...;
// 0 is the nil map of that type). A map the set-up makes has one; one a
// goroutine makes becomes shared from its make when it is boxed (another
// round), as when it is stored in a field. A map chosen at run time (a
// vMapRef) is the box of whichever map it holds, and an assertion back to
// the map type gives a map chosen at run time, whose operations split over
// the maps of its type. Go panics when it compares two interface values
// holding maps of one type, hashes one as a map key or compares one in an
// atomic.Value's compare-and-swap: those are refused, as for slices.

// mapBoxExpr returns the heap id of the interface value of dynamic type t
// holding the map pl.
func (s *system) mapBoxExpr(t types.Type, pl value, pos token.Pos) model.Expr {
	switch pl.kind {
	case vNil:
		return model.C(s.boxID(t, 0))
	case vMap:
		if pl.mp.owner >= 0 {
			s.escape(pl.mp, s.mapLabel(pl.mp))
			return model.C(s.boxID(t, 0)) // this round's model is not the answer
		}
		return model.C(s.boxID(t, s.mapID(pl.mp)))
	case vMapRef:
		sum := model.Expr(model.Bin(model.OpMul, model.Bin(model.OpEq, pl.e, model.C(0)), model.C(s.boxID(t, 0))))
		for _, m := range s.mapCandidates(t) {
			id := s.mapID(m)
			sum = model.Bin(model.OpAdd, sum, model.Bin(model.OpMul, model.Bin(model.OpEq, pl.e, model.C(id)), model.C(s.boxID(t, id))))
		}
		return sum
	}
	s.unsupported(pos, "an interface value holding %s as a %s", describe(pl), t)
	return nil
}

// mapOfBox returns the map the box o of a map holds.
func mapOfBox(o *object) value {
	if o.boxVal == 0 {
		return value{kind: vNil}
	}
	return value{kind: vMapRef, e: model.C(o.boxVal), typ: o.typ}
}

// isMapBox reports whether o is the box of a map.
func isMapBox(o *object) bool { return o.box && isMap(o.typ) }

// mapBoxName names the box of the map of identity id (ts its type): as
// the map is named, any(cfg.m), or any(map[K]V(nil)).
func (s *system) mapBoxName(ts string, id int64) string {
	for _, m := range s.maps.all {
		if id != 0 && m.id == id && !m.obj.anon {
			return fmt.Sprintf("any(%s)", s.mapLabel(m))
		}
	}
	if id == 0 {
		return fmt.Sprintf("any(%s(nil))", ts)
	}
	return fmt.Sprintf("any(%s{…})", ts)
}

// mapOfID returns the map of the set-up of identity id (nil for 0), as
// the set-up receives it from a channel.
func (s *system) mapOfID(id int64) value {
	for _, m := range s.maps.all {
		if id != 0 && m.id == id {
			return value{kind: vMap, mp: m}
		}
	}
	return value{kind: vNil}
}
