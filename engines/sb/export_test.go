package sb

// OnSearched sets the function called, in Backward mode, with the numbers of
// constraints the SB search analysed and pruned; it returns a function that
// restores the previous one.
func OnSearched(f func(count, pruned int64)) (restore func()) {
	old := searched
	searched = f
	return func() { searched = old }
}
