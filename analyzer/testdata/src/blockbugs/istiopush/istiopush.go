// Package istiopush is written in the style of Istio's xDS discovery
// server, which pushes a new configuration to every connected proxy in
// parallel and then records the push status. The bug is a wg.Add inside
// the goroutine: each push goroutine calls wg.Add(1) itself, so Wait can
// run before any Add and return at once, and the status is read while the
// pushes still write it (a data race).
package istiopush

import "sync"

// DiscoveryServer pushes configuration to proxies.
type DiscoveryServer struct {
	pushed [2]int32
}

// pushConnection sends the configuration to proxy i.
func (s *DiscoveryServer) pushConnection(i int) {
	s.pushed[i] = 1 // want `^race: go@\d+\(i=\d\) stores s\.pushed\[\d\] here while main loads s\.pushed\[\d\]`
}

// pushStatus counts the proxies pushed to.
func (s *DiscoveryServer) pushStatus() int32 {
	return s.pushed[0] + s.pushed[1]
}

// pushAll pushes to both proxies, calling wg.Add in the goroutines.
//
//fencecheck:system
func pushAll() {
	s := &DiscoveryServer{}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		go func() {
			wg.Add(1)
			defer wg.Done()
			s.pushConnection(i)
		}()
	}
	wg.Wait()
	_ = s.pushStatus()
}

// pushAllFixed calls wg.Add before each go statement.
//
//fencecheck:system
func pushAllFixed() {
	s := &DiscoveryServer{}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.pushConnection(i)
		}()
	}
	wg.Wait()
	if s.pushStatus() != 2 {
		panic("a proxy missed the push")
	}
}
