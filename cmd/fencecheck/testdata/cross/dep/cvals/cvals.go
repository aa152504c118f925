// Package cvals has a variable that C code computes: the package cannot
// be read from source, so its initialisation does not run in the model.
package cvals

// static int two(void) { return 2; }
import "C"

// Max is the largest count allowed.
var Max = int32(C.two())
