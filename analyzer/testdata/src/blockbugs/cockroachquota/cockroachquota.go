// Package cockroachquota is written in the style of CockroachDB's proposal
// quota pool, where Acquire waits on a condition variable until enough
// quota is free. The bug is a Cond.Wait without a Signal: Release gives
// back the quota of a dropped proposal on a path that returns before it
// signals, so a waiting Acquire sleeps on with the quota free (a
// deadlock). It happens only when Acquire waits before the release.
package cockroachquota

import "sync"

// quotaPool hands out proposal quota.
type quotaPool struct {
	mu    sync.Mutex
	cond  *sync.Cond
	quota int32
}

// Acquire takes n units of quota, waiting for them.
func (qp *quotaPool) Acquire(n int32) {
	qp.mu.Lock()
	defer qp.mu.Unlock()
	for qp.quota < n {
		qp.cond.Wait() // want `^deadlock: main blocks forever in qp\.cond\.Wait\(\) \(system proposal\)$`
	}
	qp.quota -= n
}

// Release gives n units back; applied is false for a dropped proposal.
func (qp *quotaPool) Release(n int32, applied bool) {
	qp.mu.Lock()
	defer qp.mu.Unlock()
	qp.quota += n
	if !applied {
		return
	}
	qp.cond.Signal()
}

// releaseFixed signals on every path.
func (qp *quotaPool) releaseFixed(n int32, applied bool) {
	qp.mu.Lock()
	defer qp.mu.Unlock()
	qp.quota += n
	qp.cond.Signal()
}

// proposal: a dropped proposal gives its quota back while the next
// proposal waits for quota.
//
//fencecheck:system
func proposal() {
	qp := &quotaPool{}
	qp.cond = sync.NewCond(&qp.mu)
	go qp.Release(1, false)
	qp.Acquire(1)
}

// proposalFixed releases with releaseFixed.
//
//fencecheck:system
func proposalFixed() {
	qp := &quotaPool{}
	qp.cond = sync.NewCond(&qp.mu)
	go qp.releaseFixed(1, false)
	qp.Acquire(1)
}
