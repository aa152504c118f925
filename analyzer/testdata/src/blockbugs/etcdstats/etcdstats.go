// Package etcdstats is written in the style of etcd's raft follower
// statistics, which the peer's sending goroutines (the pipeline and the
// stream writer) update as messages succeed. The bug is a data race on a
// shared counter: Succ increments the count with a plain ++ from both
// goroutines, and the count loses updates.
package etcdstats

import "sync"

// FollowerStats counts the messages sent to one follower.
type FollowerStats struct {
	sync.Mutex
	Success int32
	Fail    int32
}

// Succ counts a message that reached the follower.
func (fs *FollowerStats) Succ() {
	fs.Success++ // want `^race: go@\d+ stores fs\.Success here while go@\d+ loads fs\.Success`
}

// succFixed counts under the stats' lock.
func (fs *FollowerStats) succFixed() {
	fs.Lock()
	defer fs.Unlock()
	fs.Success++
}

// sendMessages: the pipeline and the stream each send a message.
//
//fencecheck:system
func sendMessages() {
	fs := &FollowerStats{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); fs.Succ() }()
	go func() { defer wg.Done(); fs.Succ() }()
	wg.Wait()
	if fs.Success != 2 {
		panic("lost a message count") // want `^SC: system sendMessages is wrong even under sequential consistency: the panic is reached here`
	}
}

// sendMessagesFixed counts with succFixed.
//
//fencecheck:system
func sendMessagesFixed() {
	fs := &FollowerStats{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); fs.succFixed() }()
	go func() { defer wg.Done(); fs.succFixed() }()
	wg.Wait()
	if fs.Success != 2 {
		panic("lost a message count")
	}
}
