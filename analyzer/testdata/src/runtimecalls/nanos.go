package runtimecalls

import (
	"sync"
	"sync/atomic"
	"time"
)

// Times kept as Unix nanoseconds, as patrickmn/go-cache keeps its items'
// expiry and rate limiters their last instant.

type expItem struct {
	val int
	exp int64 // 0: never expires
}

type expCache struct {
	mu    sync.Mutex
	items map[string]expItem
}

func (c *expCache) set(k string, v int, d time.Duration) {
	var e int64
	if d > 0 {
		e = time.Now().Add(d).UnixNano()
	}
	c.mu.Lock()
	c.items[k] = expItem{val: v, exp: e}
	c.mu.Unlock()
}

func (c *expCache) get(k string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.items[k]
	if !ok {
		return 0, false
	}
	if it.exp > 0 && time.Now().UnixNano() > it.exp {
		return 0, false
	}
	return it.val, true
}

// expiryNeverSet: an item set without expiry is found once set.
//
//fencecheck:system
func expiryNeverSet() {
	c := &expCache{items: map[string]expItem{}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { c.set("a", 1, 0); wg.Done() }()
	wg.Wait()
	if v, ok := c.get("a"); !ok || v != 1 {
		panic("an item without expiry was lost")
	}
}

// expiryMayPass: a minute may pass before the get, so the item may have
// expired.
//
//fencecheck:system
func expiryMayPass() {
	c := &expCache{items: map[string]expItem{}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { c.set("a", 1, time.Minute); wg.Done() }()
	wg.Wait()
	if _, ok := c.get("a"); !ok {
		panic("expired") // want `^SC: system expiryMayPass is wrong even under sequential consistency`
	}
}

// lastSeenMonotonic: the clock never goes backwards, so the time since
// the last stamp (or since the epoch, before any) is never negative.
//
//fencecheck:system
func lastSeenMonotonic() {
	var last atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { last.Store(time.Now().UnixNano()); wg.Done() }()
	l := last.Load()
	if time.Now().UnixNano()-l < 0 {
		panic("time went backwards")
	}
	wg.Wait()
}

// lastSeenElapsed: a second may pass between the stamp and the check.
//
//fencecheck:system
func lastSeenElapsed() {
	var last atomic.Int64
	last.Store(time.Now().UnixNano())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { last.Store(time.Now().UnixNano()); wg.Done() }()
	wg.Wait()
	if time.Now().UnixNano()-last.Load() > int64(time.Second) {
		panic("idle for a second") // want `^SC: system lastSeenElapsed is wrong even under sequential consistency`
	}
}

type stamped struct {
	at int64
}

// stampRace stores a stamp without a lock while the system function reads
// it.
//
//fencecheck:system
func stampRace() {
	s := &stamped{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { s.at = time.Now().UnixNano(); wg.Done() }() // want `^race: go@\d+ stores s\.at here while main loads s\.at`
	if s.at > 0 && s.at > time.Now().UnixNano() {
		panic("a stamp from the future")
	}
	wg.Wait()
}

// stampMayStandStill: no tick may pass between the stamp and the check.
//
//fencecheck:system
func stampMayStandStill() {
	var last atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { last.Store(time.Now().UnixNano()); wg.Done() }()
	wg.Wait()
	if time.Now().UnixNano()-last.Load() <= 0 {
		panic("no time passed") // want `^SC: system stampMayStandStill is wrong even under sequential consistency`
	}
}

// stampStored: once stored, a stamp is a time after the epoch.
//
//fencecheck:system
func stampStored() {
	var last atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { last.Store(time.Now().UnixNano()); wg.Done() }()
	wg.Wait()
	if last.Load() == 0 || last.Load() < 1000 {
		panic("a stamp before 1970")
	}
}

// deadlineAfterNow: a deadline a second after a later reading is after
// the earlier one moved by a second.
//
//fencecheck:system
func deadlineAfterNow() {
	var dl atomic.Int64
	now := time.Now().UnixNano()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { dl.Store(time.Now().Add(time.Second).UnixNano()); wg.Done() }()
	wg.Wait()
	if dl.Load() < now+int64(time.Second) {
		panic("a deadline before its reading")
	}
}

// stampTimesTwo does arithmetic the model does not compute on a stamp.
//
//fencecheck:system
func stampTimesTwo() { // want `^inconclusive: system stampTimesTwo: a run reaches the operator \* on nanoseconds of a time`
	var last atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { last.Store(time.Now().UnixNano()); wg.Done() }()
	wg.Wait()
	if last.Load()*2 == 3 {
		panic("odd")
	}
}

// pacer hands out instants at least perGrant apart, in the style of
// go.uber.org/ratelimit's atomic limiter: a CAS loop on the next instant
// in nanoseconds, moved by the period or reset to now after a pause.
type pacer struct {
	next atomic.Int64
}

const perGrant = 10 * time.Millisecond

func (p *pacer) take() int64 {
	for {
		now := time.Now().UnixNano()
		next := p.next.Load()
		var n int64
		if next == 0 || now-next > int64(perGrant) {
			n = now
		} else {
			n = next + int64(perGrant)
		}
		if p.next.CompareAndSwap(next, n) {
			return n
		}
	}
}

// pacerDistinct: two grants are never the same instant. The next instant
// loaded and moved again is an amount known only at run time after its
// load, which memory cannot keep: refused where a run stores it.
//
//fencecheck:system
func pacerDistinct() { // want `^inconclusive: system pacerDistinct: a run reaches storing nanoseconds of times joined at run time where one is a time loaded from memory and moved again`
	var p pacer
	var a, b atomic.Int64
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { a.Store(p.take()); wg.Done() }()
	go func() { b.Store(p.take()); wg.Done() }()
	wg.Wait()
	if a.Load() == b.Load() {
		panic("two grants at one instant")
	}
}

// pacerMayPause: the second grant may come long after the first; the
// set-up's grant is computed, the goroutine's is refused as
// pacerDistinct's.
//
//fencecheck:system
func pacerMayPause() { // want `^inconclusive: system pacerMayPause: a run reaches storing nanoseconds of times joined at run time where one is a time loaded from memory and moved again`
	var p pacer
	first := p.take()
	var wg sync.WaitGroup
	wg.Add(1)
	var second atomic.Int64
	go func() { second.Store(p.take()); wg.Done() }()
	wg.Wait()
	if second.Load()-first > int64(time.Second) {
		panic("a pause of a second")
	}
}

type seenPeer struct {
	mu   sync.Mutex
	seen int64 // 0: never
}

func (p *seenPeer) lastSeen() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seen // through the result slot go/ssa allocates for the defer
}

// stampThroughGetter: a stamp read through a getter that defers its
// unlock is not after a later reading.
//
//fencecheck:system
func stampThroughGetter() {
	p := &seenPeer{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		now := time.Now().UnixNano()
		p.mu.Lock()
		p.seen = now
		p.mu.Unlock()
		wg.Done()
	}()
	go func() {
		s := p.lastSeen()
		if s > 0 && s > time.Now().UnixNano() {
			panic("a stamp from the future")
		}
		wg.Done()
	}()
	wg.Wait()
}

// expirer arms an expiry a lifetime ahead, the lifetime a field its
// constructor sets, as go-cache's default expiration.
type expirer struct {
	ttl time.Duration
	mu  sync.Mutex
	exp int64
}

func (e *expirer) arm() {
	x := time.Now().Add(e.ttl).UnixNano() // want `^race: go@\d+ loads e\.ttl here while go@\d+ stores e\.ttl .*\(system lifetimeWritten\)`
	e.mu.Lock()
	e.exp = x
	e.mu.Unlock()
}

// lifetimeReadOnly: no goroutine writes ttl, so the expiry is the reading
// moved by the set-up's minute; a minute may pass before the check.
//
//fencecheck:system
func lifetimeReadOnly() {
	e := &expirer{ttl: time.Minute}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { e.arm(); wg.Done() }()
	wg.Wait()
	e.mu.Lock()
	x := e.exp
	e.mu.Unlock()
	if time.Now().UnixNano() > x {
		panic("expired") // want `^SC: system lifetimeReadOnly is wrong even under sequential consistency`
	}
}

// lifetimeWritten: a goroutine changes ttl while another arms: a race,
// and ttl is read as memory holds it, so the expiry is a value fencecheck
// does not compute, refused where it is stored.
//
//fencecheck:system
func lifetimeWritten() { // want `^inconclusive: system lifetimeWritten: a run reaches storing nanoseconds of a time moved by an amount known only at run time`
	e := &expirer{ttl: time.Minute}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { e.ttl = time.Second; wg.Done() }()
	go func() { e.arm(); wg.Done() }()
	wg.Wait()
}
