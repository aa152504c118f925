package blocking

import "sync"

// Unlocking a sync.Mutex that is not locked is Go's fatal error (no
// recover stops it), as is a Cond's Wait without its lock: an purse
// whose early return unlocks, then its deferred Unlock unlocks again.

type purse struct {
	mu      sync.Mutex
	balance int
}

func (a *purse) withdraw(n int) bool {
	a.mu.Lock()
	defer a.mu.Unlock() // want `^SC: system doubleUnlock is wrong even under sequential consistency: the bad state fatal error: sync: unlock of unlocked mutex`
	if a.balance < n {
		a.mu.Unlock()
		return false
	}
	a.balance -= n
	return true
}

// doubleUnlock: the second withdrawal finds no balance and unlocks twice.
//
//fencecheck:system
func doubleUnlock() {
	a := &purse{balance: 1}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { a.withdraw(1); wg.Done() }()
	go func() { a.withdraw(1); wg.Done() }()
	wg.Wait()
}

func (a *purse) withdrawOnce(n int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.balance < n {
		return false
	}
	a.balance -= n
	return true
}

// singleUnlock is doubleUnlock fixed.
//
//fencecheck:system
func singleUnlock() {
	a := &purse{balance: 1}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { a.withdrawOnce(1); wg.Done() }()
	go func() { a.withdrawOnce(1); wg.Done() }()
	wg.Wait()
	if a.balance != 0 {
		panic("not withdrawn")
	}
}

// waitUnlocked waits on a Cond without holding its lock.
//
//fencecheck:system
func waitUnlocked() {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	done := make(chan struct{})
	go func() {
		c.Wait() // want `^SC: system waitUnlocked is wrong even under sequential consistency: the bad state fatal error: sync: unlock of unlocked mutex`
		close(done)
	}()
	<-done
}
