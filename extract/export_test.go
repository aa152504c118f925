package extract

// SetResetDead turns the reset of dead registers on or off, and returns the
// previous setting.
func SetResetDead(on bool) bool {
	old := resetDead
	resetDead = on
	return old
}

// ResetDeadRegs exposes resetDeadRegs to the tests.
var ResetDeadRegs = resetDeadRegs

// SetBlockingLimit sets the most combinations of places to wait at that
// are enumerated as bad states, and returns the previous one.
func SetBlockingLimit(n int) int {
	old := blockingLimit
	blockingLimit = n
	return old
}

// SetInferBudget sets the work budget of the domain inference, and returns
// the previous one.
func SetInferBudget(n int64) int64 {
	old := inferBudget
	inferBudget = n
	return old
}
