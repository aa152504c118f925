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
