// Package wire checks names, in the style of protobuf's protowire: package
// gauge keeps its Label in its types, so the users of gauge see wire
// through gauge's export data only, and wire's own import, werr, not at
// all.
package wire

import "example.com/dep/werr"

// Label is a checked name.
type Label struct{ Name string }

// Check returns an error when name is empty.
func Check(name string) error {
	if name == "" {
		return werr.New("empty name")
	}
	return nil
}
