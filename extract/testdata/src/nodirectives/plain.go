package nodirectives

// A comment that mentions fencecheck:system, or says that fencecheck
// reports this, is not a directive.
func plain() {
	go func() {}()
}
