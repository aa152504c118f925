package nodirectives

// fencecheck:system is not a directive: there is a space after the slashes.
func plain() {
	go func() {}()
}
